/**
 * The CMU Pronouncing Dictionary with lexical stress.
 *
 * Debian's `cmudict-en-us.dict` beside the PocketSphinx model has its stress digits stripped
 * (it only serves decoding), so stress comes from the npm package `cmu-pronouncing-dictionary`
 * (CMUdict 0.7b, ~135k entries, ISC): keys are lower-case words, alternatives are numbered
 * "word(2)", "word(3)", values are stressed ARPAbet, sometimes followed by a "# comment".
 * Entries are parsed on first look-up and kept.
 */
import { parseArpabet, type Pronunciation } from './phones.js';

export type RawDictionary = Readonly<Record<string, string>>;

export class CmuDictionary {
  private readonly parsed = new Map<string, Pronunciation[] | null>();

  constructor(private readonly raw: RawDictionary) {}

  /** Number of head words plus alternatives in the source. */
  get size(): number {
    return Object.keys(this.raw).length;
  }

  /** All alternatives of a lower-case word, in dictionary order; null when absent. */
  lookup(word: string): Pronunciation[] | null {
    const hit = this.parsed.get(word);
    if (hit !== undefined) return hit;
    const out: Pronunciation[] = [];
    for (let i = 1; ; i++) {
      const key = i === 1 ? word : `${word}(${i})`;
      const value = Object.hasOwn(this.raw, key) ? this.raw[key] : undefined;
      if (value === undefined) break;
      out.push(parseArpabet(value.split('#')[0], 'cmudict'));
    }
    const result = out.length > 0 ? out : null;
    this.parsed.set(word, result);
    return result;
  }
}

let loading: Promise<CmuDictionary> | null = null;

/** Loads the dictionary module once (about 0.2 s and 40 MB of heap); later calls share it. */
export function loadCmuDictionary(): Promise<CmuDictionary> {
  loading ??= import('cmu-pronouncing-dictionary').then((m) => new CmuDictionary(m.dictionary));
  return loading;
}

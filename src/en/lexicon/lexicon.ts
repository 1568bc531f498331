/**
 * The English lexicon: words → every accepted pronunciation in the model's phones, with
 * stress. Order of look-up for one spoken word (lower case):
 *  1. a letter name ("b."; the alpha kind and dotted abbreviations);
 *  2. CMUdict, all numbered alternatives;
 *  3. composed: hyphenated words from their parts, possessives ('s, s') from the base word;
 *  4. letter-to-sound (espeak-ng) for anything else: never silently dropped.
 * en-GB adds British variants (british.ts); `weakForms` adds reduced forms of function words
 * for connected speech (weak-forms.ts). The dictionary forms always stay first and accepted.
 */
import { britishVariants } from './british.js';
import { loadCmuDictionary, type CmuDictionary } from './cmudict.js';
import { CachedLetterToSound, createLetterToSound, type LetterToSound } from './g2p.js';
import { letterNames } from './letters.js';
import { addUnique, isVowel, type Pronunciation } from './phones.js';
import { isFunctionWord, weakForms } from './weak-forms.js';

export type EnglishDialect = 'en-US' | 'en-GB';

export interface LookupOptions {
  dialect?: EnglishDialect;
  /** Accept weak forms of function words (sentence, passage and connected kinds). */
  weakForms?: boolean;
}

/** At most this many alternatives survive joining parts (hyphenated words, numbers). */
export const MAX_JOINED_ALTERNATIVES = 8;

const SIBILANTS = new Set(['S', 'Z', 'SH', 'ZH', 'CH', 'JH']);
const VOICELESS = new Set(['P', 'T', 'K', 'F', 'TH']);

/** Joins pronunciations of consecutive parts: every combination, the first ones first, capped at `max`. */
export function joinPronunciations(parts: Pronunciation[][], max = MAX_JOINED_ALTERNATIVES): Pronunciation[] {
  let acc: Pronunciation[] = [{ phones: [], stress: [], source: 'compound' }];
  for (const alternatives of parts) {
    const next: Pronunciation[] = [];
    for (const a of acc) {
      for (const b of alternatives) {
        if (next.length >= max) break;
        next.push({ phones: [...a.phones, ...b.phones], stress: [...a.stress, ...b.stress], source: 'compound' });
      }
    }
    acc = next;
  }
  return addUnique([], acc);
}

/** The possessive/plural ending after a base form: IH Z after sibilants, S after voiceless, else Z. */
function withPossessive(p: Pronunciation): Pronunciation {
  const last = p.phones[p.phones.length - 1];
  if (SIBILANTS.has(last)) return { phones: [...p.phones, 'IH', 'Z'], stress: [...p.stress, 0], source: 'compound' };
  const ending = VOICELESS.has(last) && !isVowel(last) ? 'S' : 'Z';
  return { phones: [...p.phones, ending], stress: [...p.stress], source: 'compound' };
}

export interface WordPronunciations {
  /** The spoken word looked up (lower case). */
  word: string;
  prons: Pronunciation[];
  /** True when no dictionary entry (direct or composed) covered the word. */
  oov: boolean;
  functionWord: boolean;
  /** IPA symbols the letter-to-sound result had without an ARPAbet mapping. */
  unmapped: string[];
}

export class EnglishLexicon {
  private readonly g2p: CachedLetterToSound;
  private readonly cache = new Map<string, WordPronunciations>();

  constructor(private readonly dict: CmuDictionary, letterToSound: LetterToSound) {
    this.g2p = new CachedLetterToSound(letterToSound);
  }

  get letterToSoundBackend(): 'wasm' | 'cli' {
    return this.g2p.engine.backend;
  }

  /** All accepted pronunciations of one word, dictionary forms first. */
  lookupWord(word: string, opts: LookupOptions = {}): Pronunciation[] {
    return this.describeWord(word, opts).prons;
  }

  /**
   * Pronunciations of one word with where they came from. Results are cached per word, dialect
   * and weak-form choice; the arrays are shared, so callers must not modify them.
   */
  describeWord(word: string, opts: LookupOptions = {}): WordPronunciations {
    const key = word.normalize('NFD').replace(/\p{M}/gu, '').replace(/’/g, "'").toLowerCase().trim();
    if (key === '') throw new Error('empty word');
    const dialect = opts.dialect ?? 'en-US';
    const cacheKey = `${dialect}|${opts.weakForms ? 1 : 0}|${key}`;
    const hit = this.cache.get(cacheKey);
    if (hit) return hit;
    const base = this.basePronunciations(key, dialect);
    const prons = [...base.prons];
    const weak = opts.weakForms ? weakForms(key) : [];
    if (dialect === 'en-GB') addUnique(prons, base.prons.flatMap((p) => britishVariants(key, p)));
    addUnique(prons, weak);
    // British weak forms are non-rhotic too: "for" F ER0 → F AH0.
    if (dialect === 'en-GB') addUnique(prons, weak.flatMap((p) => britishVariants(key, p).map((v) => ({ ...v, source: 'weak' as const }))));
    const out = { word: key, prons, oov: base.oov, functionWord: isFunctionWord(key), unmapped: base.unmapped };
    this.cache.set(cacheKey, out);
    return out;
  }

  /** Pronunciations of a token read as several words (a number, "e.g."), joined in order. */
  lookupSpoken(spoken: readonly string[], opts: LookupOptions = {}): Pronunciation[] {
    if (spoken.length === 1) return this.lookupWord(spoken[0], opts);
    return joinPronunciations(spoken.map((w) => this.lookupWord(w, opts)));
  }

  private basePronunciations(key: string, dialect: EnglishDialect): BaseLookup {
    if (/^[a-z]\.$/.test(key)) return { prons: letterNames(key[0], dialect), oov: false, unmapped: [] };
    const hit = this.dict.lookup(key);
    if (hit) return { prons: hit, oov: false, unmapped: [] };
    const composed = this.compose(key, dialect);
    if (composed) return composed;
    const conv = this.g2p.convert(key);
    return { prons: [conv.pron], oov: true, unmapped: conv.unmapped };
  }

  /** Hyphenated words from their parts; possessives ('s, s') from the base word. */
  private compose(key: string, dialect: EnglishDialect): BaseLookup | null {
    const parts = key.split('-').filter((p) => p !== '');
    if (parts.length > 1) {
      const looked = parts.map((p) => this.basePronunciations(p, dialect));
      return {
        prons: joinPronunciations(looked.map((l) => l.prons)),
        oov: looked.some((l) => l.oov),
        unmapped: looked.flatMap((l) => l.unmapped),
      };
    }
    const possessive = /^([^']+?)(?:'s|s')$/.exec(key);
    if (!possessive) return null;
    const plural = key.endsWith("s'");
    const base = this.basePronunciations(plural ? `${possessive[1]}s` : possessive[1], dialect);
    const prons = plural ? base.prons.map((p) => ({ ...p, source: 'compound' as const })) : base.prons.map(withPossessive);
    return { ...base, prons };
  }
}

interface BaseLookup {
  prons: Pronunciation[];
  oov: boolean;
  unmapped: string[];
}

let shared: Promise<EnglishLexicon> | null = null;

/**
 * Loads the dictionary and the letter-to-sound engine once (about 0.3 s); later calls share the
 * same lexicon. Pass a LetterToSound to choose the back-end (tests, benchmarks).
 */
export function loadEnglishLexicon(letterToSound?: LetterToSound): Promise<EnglishLexicon> {
  if (letterToSound) return loadCmuDictionary().then((d) => new EnglishLexicon(d, letterToSound));
  shared ??= Promise.all([loadCmuDictionary(), createLetterToSound()]).then(([d, l]) => new EnglishLexicon(d, l));
  return shared;
}

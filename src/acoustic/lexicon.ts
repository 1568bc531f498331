/**
 * Pronunciation dictionaries in the CMU Sphinx text format: `word phone phone ...` per line,
 * alternative pronunciations as `word(2) ...`. Used by the main thread for `lexicon()` and by
 * workers for the phone set of the insertion loop.
 */
import fs from 'node:fs';
import type { AcousticLang, Lexicon } from './types.js';

export interface LoadedLexicon extends Lexicon {
  /** Number of distinct headwords. */
  size: number;
}

/** Parses dictionary text. English (cmudict) headwords are lower case; look-ups fold case. */
export function parseDictionary(text: string, lang: AcousticLang): LoadedLexicon {
  const entries = new Map<string, string[][]>();
  const phones = new Set<string>();
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 2 || fields[0].startsWith('#')) continue;
    const word = fields[0].replace(/\(\d+\)$/, '');
    const pron = fields.slice(1);
    for (const p of pron) phones.add(p);
    const list = entries.get(word);
    if (list) list.push(pron);
    else entries.set(word, [pron]);
  }
  const fold = lang === 'en' ? (w: string) => w.toLowerCase() : (w: string) => w;
  return {
    phones: [...phones].sort(),
    size: entries.size,
    lookup(word: string): string[][] | null {
      const prons = entries.get(fold(word));
      return prons ? prons.map((p) => [...p]) : null;
    },
  };
}

export function loadDictionary(path: string, lang: AcousticLang): LoadedLexicon {
  return parseDictionary(fs.readFileSync(path, 'utf8'), lang);
}

/**
 * Spoken names of the 26 letters for the `alpha` kind. Each letter accepts every common name
 * (CMUdict's entries for the single letters, checked against the usual dictionary
 * transcriptions); en-GB adds "zed" for Z and, like en-US, accepts "zee".
 */
import { parseArpabet, type Pronunciation } from './phones.js';

const LETTER_NAMES: Readonly<Record<string, readonly string[]>> = {
  a: ['EY1'], b: ['B IY1'], c: ['S IY1'], d: ['D IY1'], e: ['IY1'], f: ['EH1 F'],
  g: ['JH IY1'], h: ['EY1 CH', 'HH EY1 CH'], i: ['AY1'], j: ['JH EY1'], k: ['K EY1'],
  l: ['EH1 L'], m: ['EH1 M'], n: ['EH1 N'], o: ['OW1'], p: ['P IY1'], q: ['K Y UW1'],
  r: ['AA1 R'], s: ['EH1 S'], t: ['T IY1'], u: ['Y UW1'], v: ['V IY1'],
  w: ['D AH1 B AH0 L Y UW0', 'D AH1 B AH0 Y UW0', 'D AH1 B Y UW0'], x: ['EH1 K S'],
  y: ['W AY1'], z: ['Z IY1'],
};

/** British names added to the American ones (R without its R is added by british.ts). */
const EN_GB_EXTRA: Readonly<Record<string, readonly string[]>> = { z: ['Z EH1 D'] };

export function isLetter(text: string): boolean {
  return /^[a-z]$/i.test(text);
}

/** All accepted spoken names of one letter (case-insensitive). */
export function letterNames(letter: string, dialect: 'en-US' | 'en-GB' = 'en-US'): Pronunciation[] {
  const key = letter.toLowerCase();
  const names = LETTER_NAMES[key];
  if (!names || key.length !== 1) throw new Error(`not a letter: "${letter}"`);
  const extra = dialect === 'en-GB' ? (EN_GB_EXTRA[key] ?? []) : [];
  return [...names, ...extra].map((a) => parseArpabet(a, 'letter'));
}

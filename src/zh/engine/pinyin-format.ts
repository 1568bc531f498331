/**
 * Pinyin spellings for the response: toneless (`pinyin`), numeric (`rawpinyin`, v for ü as
 * legacy clients expect) and tone-marked (`symbolpinyin`, placement rule of the Scheme for the
 * Chinese Phonetic Alphabet: a or e takes the mark, in ou the o, otherwise the last vowel).
 */
import { toneMarked } from '../text/index.js';

export function plainPinyin(syllable: string): string {
  return syllable.replace(/v/g, 'ü');
}

export function numericPinyin(syllable: string, tone: number): string {
  return `${syllable}${tone === 5 ? 5 : tone}`;
}

/** Tone-mark spelling; the placement rule lives with the text layer's syllables. */
export function markedPinyin(syllable: string, tone: number): string {
  return toneMarked(syllable, tone);
}

/** Nasal finals, whose front/back contrast (an/ang, en/eng, in/ing) `nasalsScore` follows. */
export function isNasalFinal(final: string): boolean {
  return /n$|ng$/.test(final);
}

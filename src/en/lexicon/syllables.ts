/**
 * Syllabification of a phone string by the maximum onset principle: each vowel is a nucleus;
 * the consonants between two vowels go to the following syllable as far as they form a legal
 * English word onset (the onset inventory of Giegerich, English Phonology, ch. 6, and the
 * clusters CMUdict words actually begin with), the rest close the previous syllable. The
 * stress of a syllable is the CMUdict digit of its vowel.
 */
import { isVowel, type Pronunciation, type Stress } from './phones.js';

/** Onsets of two and three consonants that begin English words; single consonants except NG. */
const CLUSTER_ONSETS: ReadonlySet<string> = new Set([
  'P R', 'P L', 'B R', 'B L', 'T R', 'D R', 'K R', 'K L', 'G R', 'G L', 'F R', 'F L', 'TH R',
  'SH R', 'S P', 'S T', 'S K', 'S M', 'S N', 'S L', 'S W', 'S F', 'P Y', 'B Y', 'F Y', 'V Y',
  'M Y', 'K Y', 'HH Y', 'G Y', 'T W', 'D W', 'K W', 'G W', 'TH W', 'S P R', 'S P L', 'S T R',
  'S K R', 'S K W', 'S K L', 'S P Y', 'S K Y',
]);

export function isLegalOnset(consonants: readonly string[]): boolean {
  if (consonants.length === 0) return true;
  if (consonants.length === 1) return consonants[0] !== 'NG';
  return CLUSTER_ONSETS.has(consonants.join(' '));
}

export interface Syllable {
  /** Phones of the syllable, onset + nucleus + coda. */
  phones: string[];
  /** Index in the pronunciation's phones of the syllable's first phone. */
  start: number;
  /** Index in the pronunciation's phones of the vowel (nucleus). */
  nucleus: number;
  stress: Stress;
}

/** Splits a pronunciation into syllables (one per vowel; a vowelless string is one syllable). */
export function syllabify(pron: Pronunciation): Syllable[] {
  const { phones } = pron;
  const nuclei: number[] = [];
  phones.forEach((p, i) => { if (isVowel(p)) nuclei.push(i); });
  if (nuclei.length === 0) return [{ phones: [...phones], start: 0, nucleus: -1, stress: 0 }];
  const starts = [0];
  for (let k = 1; k < nuclei.length; k++) {
    const prev = nuclei[k - 1];
    const next = nuclei[k];
    // Longest legal onset taken from the consonants between the two nuclei.
    let start = next;
    while (start - 1 > prev && isLegalOnset(phones.slice(start - 1, next))) start--;
    starts.push(start);
  }
  return nuclei.map((nucleus, k) => {
    const start = starts[k];
    const end = k + 1 < starts.length ? starts[k + 1] : phones.length;
    return { phones: phones.slice(start, end), start, nucleus, stress: pron.stress[k] ?? 0 };
  });
}

/** Expected stress per syllable, e.g. [1, 0] for "record" the noun and [0, 1] for the verb. */
export function stressPattern(pron: Pronunciation): Stress[] {
  return [...pron.stress];
}

/** Index of the primary-stressed syllable, or -1 when the word has none (e.g. weak forms). */
export function primaryStressIndex(pron: Pronunciation): number {
  return pron.stress.indexOf(1);
}

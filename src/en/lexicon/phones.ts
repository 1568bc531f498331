/**
 * The English phone set of the acoustic model and the pronunciation type the lexicon returns.
 *
 * PocketSphinx en-us (cmusphinx-en-us-5.2) uses the 39 ARPAbet phones of the CMU Pronouncing
 * Dictionary without stress digits, plus SIL for silence (its `mdef`/`noisedict`). The lexicon
 * keeps stress apart: one digit per vowel (CMUdict convention: 1 primary, 2 secondary,
 * 0 unstressed).
 */

export const EN_VOWELS = [
  'AA', 'AE', 'AH', 'AO', 'AW', 'AY', 'EH', 'ER', 'EY', 'IH', 'IY', 'OW', 'OY', 'UH', 'UW',
] as const;

export const EN_CONSONANTS = [
  'B', 'CH', 'D', 'DH', 'F', 'G', 'HH', 'JH', 'K', 'L', 'M', 'N', 'NG', 'P', 'R', 'S', 'SH',
  'T', 'TH', 'V', 'W', 'Y', 'Z', 'ZH',
] as const;

/** The acoustic model's phone symbols: 39 ARPAbet phones and SIL. */
export const EN_PHONES: readonly string[] = [...EN_VOWELS, ...EN_CONSONANTS, 'SIL'];

const VOWEL_SET: ReadonlySet<string> = new Set(EN_VOWELS);
const PHONE_SET: ReadonlySet<string> = new Set(EN_PHONES);

export function isVowel(phone: string): boolean {
  return VOWEL_SET.has(phone);
}

export function isPhone(phone: string): boolean {
  return PHONE_SET.has(phone);
}

/** Lexical stress of a vowel: 0 unstressed, 1 primary, 2 secondary (CMUdict digits). */
export type Stress = 0 | 1 | 2;

/** Where a pronunciation came from; every alternative is accepted when scoring. */
export type PronSource =
  | 'cmudict' // the CMU Pronouncing Dictionary (all numbered alternatives kept)
  | 'g2p' // letter-to-sound fallback through espeak-ng for out-of-vocabulary words
  | 'en-GB' // British variant derived from an American pronunciation (see british.ts)
  | 'weak' // reduced form of a function word, accepted in connected speech
  | 'letter' // the spoken name of a letter (alpha kind)
  | 'compound' // joined from the parts of a hyphenated word, a possessive or a number
  | 'custom'; // supplied by the caller (compat customized_lexicon / customized_pron)

export interface Pronunciation {
  /** Model phone symbols, e.g. ['R', 'EH', 'K', 'ER', 'D']. */
  phones: string[];
  /** One stress digit per vowel in `phones`, in order. */
  stress: Stress[];
  source: PronSource;
  /** Which rule produced a derived variant, e.g. 'non-rhotic', 'bath', 'lot', 'weak'. */
  variant?: string;
  /** The spoken words read, when they are one of a token's other readings (a number's, an abbreviation's), not its first. */
  reading?: string[];
}

/** Splits a stressed ARPAbet string ("R EH1 K ER0 D") into phones and per-vowel stress. */
export function parseArpabet(text: string, source: PronSource, variant?: string): Pronunciation {
  const phones: string[] = [];
  const stress: Stress[] = [];
  for (const token of text.trim().split(/\s+/)) {
    const m = /^([A-Z]+)([012])?$/.exec(token);
    if (!m || !isPhone(m[1]) || m[1] === 'SIL') throw new Error(`not an ARPAbet phone: ${token}`);
    phones.push(m[1]);
    if (isVowel(m[1])) stress.push(m[2] === undefined ? 0 : (Number(m[2]) as Stress));
  }
  return variant === undefined ? { phones, stress, source } : { phones, stress, source, variant };
}

/** The stressed ARPAbet string of a pronunciation ("R EH1 K ER0 D"). */
export function toArpabet(p: Pronunciation): string {
  let v = 0;
  return p.phones.map((ph) => (isVowel(ph) ? `${ph}${p.stress[v++] ?? 0}` : ph)).join(' ');
}

/** Identity key of a pronunciation (phones and stress), for de-duplicating alternatives. */
export function pronKey(p: Pronunciation): string {
  return toArpabet(p);
}

/** Appends `extra` to `list` unless a pronunciation with the same phones and stress is there. */
export function addUnique(list: Pronunciation[], extra: Pronunciation[]): Pronunciation[] {
  const seen = new Set(list.map(pronKey));
  for (const p of extra) {
    const k = pronKey(p);
    if (!seen.has(k)) {
      seen.add(k);
      list.push(p);
    }
  }
  return list;
}

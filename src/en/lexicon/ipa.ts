/**
 * IPA (as espeak-ng writes it for en-US, `--ipa`) to the acoustic model's ARPAbet phones.
 *
 * The table follows the usual correspondence between General American IPA and ARPAbet (the
 * CMUdict documentation's phone list) plus espeak-ng's own symbols: `ᵻ` (reduced i) → IH,
 * `ɾ` (flap, written for both t and d) → T (g2p.ts turns it into D where the spelling has d), `ʔ` (glottal t) → T, `ɐ` → AH, syllabic `n̩ l̩ m̩`
 * → AH + consonant, `oː` (older espeak-ng's vowel of "or") → AO, and British symbols (`ɒ` → AA, `əʊ` → OW, `eə` → EH, `ɪə` → IH, `ʊə` → UH)
 * so that en-GB voice output maps too. Stress: espeak-ng writes `ˈ` (primary) and `ˌ`
 * (secondary) before a syllable or its vowel; the mark is carried to the next vowel. Vowels
 * with no mark get 0. Length `ː`, tie bars, separators and other diacritics carry no phone.
 * A symbol outside the table is reported in `unmapped`, never dropped silently.
 */
import type { Pronunciation, Stress } from './phones.js';
import { isVowel } from './phones.js';

/** Multi-character symbols first: matching is longest-first. */
const IPA_TO_ARPABET: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['tʃ', ['CH']], ['dʒ', ['JH']], ['t͡ʃ', ['CH']], ['d͡ʒ', ['JH']],
  ['aɪ', ['AY']], ['aʊ', ['AW']], ['eɪ', ['EY']], ['oʊ', ['OW']], ['əʊ', ['OW']], ['ɔɪ', ['OY']],
  ['eə', ['EH']], ['ɛə', ['EH']], ['ɪə', ['IH']], ['iə', ['IY', 'AH']], ['ʊə', ['UH']],
  ['oː', ['AO']], ['n̩', ['AH', 'N']], ['l̩', ['AH', 'L']], ['m̩', ['AH', 'M']],
  ['ɑ', ['AA']], ['ɒ', ['AA']], ['æ', ['AE']], ['a', ['AE']], ['ʌ', ['AH']], ['ə', ['AH']],
  ['ɐ', ['AH']], ['ɔ', ['AO']], ['o', ['OW']], ['ɛ', ['EH']], ['e', ['EH']], ['ɜ', ['ER']],
  ['ɚ', ['ER']], ['ɝ', ['ER']], ['ɪ', ['IH']], ['ᵻ', ['IH']], ['i', ['IY']], ['ʊ', ['UH']],
  ['u', ['UW']], ['ɯ', ['UW']], ['y', ['UW']],
  ['b', ['B']], ['d', ['D']], ['f', ['F']], ['ɡ', ['G']], ['g', ['G']], ['h', ['HH']],
  ['k', ['K']], ['l', ['L']], ['ɫ', ['L']], ['m', ['M']], ['n', ['N']], ['ŋ', ['NG']],
  ['p', ['P']], ['ɹ', ['R']], ['r', ['R']], ['s', ['S']], ['ʃ', ['SH']], ['t', ['T']],
  ['θ', ['TH']], ['ð', ['DH']], ['v', ['V']], ['w', ['W']], ['j', ['Y']], ['z', ['Z']],
  ['ʒ', ['ZH']], ['ɾ', ['T']], ['ʔ', ['T']], ['x', ['K']], ['ç', ['HH']], ['ɬ', ['L']],
];

const MAX_SYMBOL = Math.max(...IPA_TO_ARPABET.map(([s]) => s.length));
const TABLE = new Map(IPA_TO_ARPABET);
/** Marks that carry no phone: length, half-length, tie bar, separators, syllable break. */
const IGNORED = /[ːˑ͡‿_.\-\s\u0300-\u036f]/u;

export interface IpaConversion {
  pron: Pronunciation;
  /** IPA symbols with no ARPAbet equivalent in the table (kept for diagnosis). */
  unmapped: string[];
  /** Indices in `pron.phones` of T phones written as the flap ɾ (t or d in the spelling). */
  flaps: number[];
}

/** Converts one word's IPA string (espeak-ng notation) to ARPAbet phones and vowel stress. */
export function ipaToArpabet(ipa: string): IpaConversion {
  const text = ipa.normalize('NFC');
  const phones: string[] = [];
  const stress: Stress[] = [];
  const unmapped: string[] = [];
  const flaps: number[] = [];
  let pending: Stress | null = null;
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === 'ˈ' || ch === "'") { pending = 1; i++; continue; }
    if (ch === 'ˌ' || ch === ',') { pending = 2; i++; continue; }
    let matched = 0;
    for (let len = Math.min(MAX_SYMBOL, text.length - i); len > 0; len--) {
      const out = TABLE.get(text.slice(i, i + len));
      if (!out) continue;
      if (text[i] === 'ɾ') flaps.push(phones.length);
      for (const ph of out) {
        phones.push(ph);
        if (isVowel(ph)) {
          // A syllabic consonant's inserted schwa never carries the stress mark.
          stress.push(ph === 'AH' && out.length > 1 ? 0 : (pending ?? 0));
          if (!(ph === 'AH' && out.length > 1)) pending = null;
        }
      }
      matched = len;
      break;
    }
    if (matched > 0) { i += matched; continue; }
    if (!IGNORED.test(ch)) unmapped.push(ch);
    i++;
  }
  return { pron: { phones, stress, source: 'g2p' }, unmapped, flaps };
}

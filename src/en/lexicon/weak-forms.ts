/**
 * Function words and their weak (reduced) forms. In connected speech these words are normally
 * unstressed and reduced (Gimson's Pronunciation of English, "weak forms"; Roach, English
 * Phonetics and Phonology, ch. 12), so a reduced reading is accepted beside the citation form.
 * The list covers the usual 40-odd words with weak forms; transcriptions are General American
 * in ARPAbet with stress 0 on the reduced vowel.
 */
import { parseArpabet, type Pronunciation } from './phones.js';

const WEAK_FORMS: Readonly<Record<string, readonly string[]>> = {
  a: ['AH0'], an: ['AH0 N', 'N'], the: ['DH AH0', 'DH IY0'], and: ['AH0 N D', 'AH0 N', 'N'],
  but: ['B AH0 T'], or: ['ER0'], nor: ['N ER0'], as: ['AH0 Z'], than: ['DH AH0 N'],
  that: ['DH AH0 T'], at: ['AH0 T'], for: ['F ER0'], from: ['F R AH0 M'], of: ['AH0 V', 'AH0'],
  to: ['T AH0', 'T UH0'], some: ['S AH0 M'], can: ['K AH0 N'], could: ['K UH0 D'],
  shall: ['SH AH0 L'], should: ['SH AH0 D'], will: ['AH0 L'], would: ['W UH0 D', 'AH0 D'],
  must: ['M AH0 S T', 'M AH0 S'], do: ['D AH0', 'D UH0'], does: ['D AH0 Z'], am: ['AH0 M'],
  are: ['ER0'], is: ['Z', 'S'], was: ['W AH0 Z'], were: ['W ER0'], be: ['B IY0'],
  been: ['B IH0 N'], has: ['HH AH0 Z', 'AH0 Z'], have: ['HH AH0 V', 'AH0 V'],
  had: ['HH AH0 D', 'AH0 D'], he: ['IY0', 'HH IY0'], him: ['IH0 M'], his: ['IH0 Z'],
  her: ['ER0', 'HH ER0'], them: ['DH AH0 M', 'AH0 M'], us: ['AH0 S'], you: ['Y AH0', 'Y UH0'],
  your: ['Y ER0'], me: ['M IY0'], we: ['W IY0'], she: ['SH IY0'], there: ['DH ER0'],
  just: ['JH AH0 S T'], sir: ['S ER0'], saint: ['S AH0 N T'], into: ['IH1 N T AH0'],
  upon: ['AH0 P AH0 N'],
};

/** True for a function word that has a weak form (case-insensitive). */
export function isFunctionWord(word: string): boolean {
  return Object.hasOwn(WEAK_FORMS, word.toLowerCase());
}

/** Weak forms of a function word; empty for a content word. */
export function weakForms(word: string): Pronunciation[] {
  const forms = Object.hasOwn(WEAK_FORMS, word.toLowerCase()) ? WEAK_FORMS[word.toLowerCase()] : [];
  return forms.map((a) => parseArpabet(a, 'weak', 'weak'));
}

/**
 * British (en-GB) variants added as extra accepted pronunciations. The acoustic model is
 * American, so a British reading is matched against American phones that approximate it; the
 * American forms stay accepted too. Three rules, after Wells, Accents of English (1982), the
 * lexical sets START, NURSE, lettER, NEAR, SQUARE, CURE, BATH and LOT:
 *
 * 1. Non-rhotic: an R after a vowel and not before a vowel is not pronounced. AA R, AO R, AH R
 *    lose the R (START, NORTH); IH R, EH R, UH R, IY R, UW R, AY R, AW R, EY R, OW R become the
 *    vowel + AH0 (the centring diphthongs of NEAR, SQUARE, CURE) and, as a second variant,
 *    the bare vowel (the long monophthongs many speakers use). ER not before a vowel becomes
 *    AH with the same stress (NURSE, lettER: ɜː and ə have no own phone in the model); ER
 *    before a vowel becomes AH R (bakery). An R before a vowel, in the word, is kept.
 * 2. BATH: a stressed AE becomes AA in the BATH lexical set (the word list below, with its
 *    inflections -s, -es, -ed, -ing, -er, -ers, -ful). The set is lexical, not a sound rule
 *    ("bath" has AA, "math" does not), so it is a list.
 * 3. LOT: AA spelt o (hot, doctor), or a after w/qu (want, what, quality), becomes AO, the
 *    model's nearest vowel to the rounded ɒ. AA spelt otherwise (father, spa) stays.
 * Rules compose: "after" gets AA from BATH and AH from lettER.
 */
import { alignPhonics } from './phonics.js';
import { addUnique, isVowel, type Pronunciation, type Stress } from './phones.js';

const BATH_WORDS: ReadonlySet<string> = new Set((
  'bath path pass class grass glass brass ask task mask flask bask cask cast fast last past ' +
  'vast mast blast contrast after laugh laughter half calf staff raft craft draft graft shaft ' +
  'aft daft rather branch ranch blanch dance chance glance lance trance france prance advance ' +
  'enhance plant grant slant chant can\'t shan\'t aunt answer demand command remand ' +
  'example sample castle master plaster disaster nasty pastor basket casket rascal ' +
  'clasp grasp gasp rasp hasp raspberry lather banana tomato vase pasta drama giraffe ' +
  'alas aghast avalanche commando slander'
).split(' '));

const SUFFIXES = ['', 's', 'es', 'ed', 'ing', 'er', 'ers', 'ful', 'd'];

export function isBathWord(word: string): boolean {
  const w = word.toLowerCase();
  return SUFFIXES.some((suffix) => {
    if (!w.endsWith(suffix)) return false;
    const stem = w.slice(0, w.length - suffix.length);
    // dancing → dance: a silent e dropped before the suffix.
    return BATH_WORDS.has(stem) || (suffix !== '' && BATH_WORDS.has(`${stem}e`));
  });
}

const KEEP_VOWEL_ONLY = new Set(['AA', 'AO', 'AH']);

interface Draft { phones: string[]; stress: Stress[] }

/** Rule 1. Returns variants (none when the pronunciation has no post-vocalic R). */
export function nonRhoticVariants(pron: Pronunciation): Pronunciation[] {
  const { phones } = pron;
  const centring: Draft = { phones: [], stress: [] };
  const monophthong: Draft = { phones: [], stress: [] };
  const both = [centring, monophthong];
  let changed = false;
  let v = -1;
  for (let i = 0; i < phones.length; i++) {
    const ph = phones[i];
    const nextIsVowel = i + 1 < phones.length && isVowel(phones[i + 1]);
    if (isVowel(ph)) v++;
    const s = pron.stress[v] ?? 0;
    if (ph === 'ER') {
      changed = true;
      for (const d of both) {
        d.phones.push('AH'); d.stress.push(s);
        if (nextIsVowel) d.phones.push('R');
      }
    } else if (ph === 'R' && i > 0 && isVowel(phones[i - 1]) && !nextIsVowel) {
      changed = true;
      // The centring glide is unstressed.
      if (!KEEP_VOWEL_ONLY.has(phones[i - 1])) { centring.phones.push('AH'); centring.stress.push(0); }
    } else {
      for (const d of both) {
        d.phones.push(ph);
        if (isVowel(ph)) d.stress.push(s);
      }
    }
  }
  if (!changed) return [];
  const out: Pronunciation[] = [{ ...centring, source: 'en-GB', variant: 'non-rhotic' }];
  if (monophthong.phones.length !== centring.phones.length) {
    out.push({ ...monophthong, source: 'en-GB', variant: 'non-rhotic' });
  }
  return out;
}

/** Rule 2: stressed AE → AA for words of the BATH set. */
export function bathVariant(word: string, pron: Pronunciation): Pronunciation | null {
  if (!isBathWord(word)) return null;
  let v = -1;
  let changed = false;
  const phones = pron.phones.map((ph) => {
    if (isVowel(ph)) v++;
    if (ph === 'AE' && pron.stress[v] !== 0) { changed = true; return 'AA'; }
    return ph;
  });
  return changed ? { phones, stress: [...pron.stress], source: 'en-GB', variant: 'bath' } : null;
}

/** Rule 3: AA spelt o (or a after w/qu), not before R → AO. Uses the phonics alignment. */
export function lotVariant(word: string, pron: Pronunciation): Pronunciation | null {
  const blocks = alignPhonics(word.toLowerCase(), pron.phones);
  const phones = [...pron.phones];
  let changed = false;
  let at = 0;
  let spelledBefore = '';
  for (const b of blocks) {
    b.phones.forEach((ph, k) => {
      const i = at + k;
      const beforeR = phones[i + 1] === 'R';
      const roundedSpelling = /o/.test(b.spell) || (b.spell === 'a' && /(w|qu)$/.test(spelledBefore));
      if (ph === 'AA' && !beforeR && roundedSpelling) { phones[i] = 'AO'; changed = true; }
    });
    at += b.phones.length;
    spelledBefore += b.spell;
  }
  return changed ? { phones, stress: [...pron.stress], source: 'en-GB', variant: 'lot' } : null;
}

/** All British variants of one American pronunciation (not including it). */
export function britishVariants(word: string, pron: Pronunciation): Pronunciation[] {
  const out: Pronunciation[] = [];
  const lot = lotVariant(word, pron);
  const bath = bathVariant(word, pron);
  for (const base of [pron, ...(lot ? [lot] : []), ...(bath ? [bath] : [])]) {
    if (base !== pron) addUnique(out, [base]);
    addUnique(out, nonRhoticVariants(base).map((p) => ({ ...p, variant: joinVariant(base, p) })));
  }
  return out;
}

function joinVariant(base: Pronunciation, p: Pronunciation): string {
  return base.variant ? `${base.variant}+${p.variant}` : (p.variant ?? 'en-GB');
}

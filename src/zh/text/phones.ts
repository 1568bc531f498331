/**
 * Toneless syllable ↔ phones of the Mandarin acoustic model (pocketsphinx-zh tdt_sc_8k, see
 * models/pocketsphinx-zh/SOURCE.md).
 *
 * The model's units are toneless initials and finals with its own symbols. Its dictionary
 * (mandarin_notone.dic) has almost no syllable entries, so the convention was read off its
 * 5,250 single-character entries, each paired with pinyin-pro's readings of the character:
 * for every syllable the transcription used by most characters is the one adopted here.
 * The resulting rules:
 *  - initials keep their pinyin names; y and w are phones of their own (yi → y i, wu → w u);
 *  - syllables without an initial that start with a, e, o take a pseudo-initial as, es, os
 *    (an → as an, er → es er, ou → os ou);
 *  - the apical vowel is ib after zh ch sh r and if after z c s (zhi → zh ib, si → s if);
 *  - ü is ux: ju → j ux, lüe → l uxe, juan → j uxan, jun → j uxn; yu → uxs ux, yue → uxs uxe,
 *    yuan → uxs an (uxs being the model's ü-initial), but yun → y un (13 of 25 characters);
 *  - ye → y ie; iou, uei, uen keep their written forms iu, ui, un; xuan → x uan (majority).
 * test/zh-text/phones.test.ts checks every syllable against the dictionary again.
 */
import { ALL_SYLLABLES, splitSyllable } from './syllables.js';

/** Every phone symbol of the model (from its dictionary), SIL aside. */
export const MODEL_PHONES: readonly string[] = [
  'a', 'ai', 'an', 'ang', 'ao', 'as', 'b', 'c', 'ch', 'd', 'e', 'ei', 'en', 'eng', 'er', 'es', 'f', 'g',
  'h', 'i', 'ia', 'ian', 'iang', 'iao', 'ib', 'ie', 'if', 'in', 'ing', 'iong', 'iu', 'j', 'k', 'l', 'm',
  'n', 'o', 'ong', 'os', 'ou', 'p', 'q', 'r', 's', 'sh', 't', 'u', 'ua', 'uai', 'uan', 'uang', 'ui', 'un',
  'uo', 'ux', 'uxan', 'uxe', 'uxn', 'uxs', 'w', 'x', 'y', 'z', 'zh',
];

const FINAL_PHONE: Record<string, string> = { iou: 'iu', uei: 'ui', uen: 'un', v: 'ux', ve: 'uxe', van: 'uxan', vn: 'uxn' };

const SPECIAL: Record<string, string[]> = {
  yu: ['uxs', 'ux'],
  yue: ['uxs', 'uxe'],
  yuan: ['uxs', 'an'],
  yun: ['y', 'un'],
  xuan: ['x', 'uan'], // 15 characters against 11 for x uxan, unlike juan and quan
  hng: ['h', 'eng'],
  ye: ['y', 'ie'],
  yo: ['y', 'o'],
  weng: ['w', 'eng'],
  m: ['m'],
  n: ['es', 'en'],
  ng: ['es', 'eng'],
  hm: ['h', 'm'],
};

function computePhones(syllable: string): string[] {
  const special = SPECIAL[syllable];
  if (special) return special;
  const parts = splitSyllable(syllable);
  if (!parts) throw new RangeError(`not a Mandarin syllable: "${syllable}"`);
  const { initial, final } = parts;
  if (final === '-i') return [initial, 'zh ch sh r'.split(' ').includes(initial) ? 'ib' : 'if'];
  if (initial !== '') return [initial, FINAL_PHONE[final] ?? final];
  // No initial: y/w glides become phones; a/e/o onsets take the pseudo-initials.
  if (syllable.startsWith('y')) return ['y', syllable.slice(1) === 'ou' ? 'ou' : syllable.slice(1)];
  if (syllable.startsWith('w')) return ['w', syllable === 'wu' ? 'u' : syllable.slice(1)];
  return [syllable[0] === 'a' ? 'as' : syllable[0] === 'o' ? 'os' : 'es', final];
}

const INTERJECTIONS = new Set(['m', 'n', 'ng', 'hm', 'hng']);
const TO_PHONES = new Map<string, readonly string[]>();
const TO_SYLLABLE = new Map<string, string>();
for (const s of ALL_SYLLABLES) {
  if (INTERJECTIONS.has(s)) {
    TO_PHONES.set(s, Object.freeze(computePhones(s)));
    continue;
  }
  const phones = computePhones(s);
  TO_PHONES.set(s, Object.freeze(phones));
  TO_SYLLABLE.set(phones.join(' '), s);
}
// The syllabic nasals n, ng, hng sound like en, eng, heng to this model: those keep the phones.
for (const s of INTERJECTIONS) if (!TO_SYLLABLE.has(TO_PHONES.get(s)!.join(' '))) TO_SYLLABLE.set(TO_PHONES.get(s)!.join(' '), s);
/**
 * Minority transcriptions that also occur in the dictionary, accepted by phonesToSyllable so
 * that phone strings from either convention map back (e.g. y uan, zh i, x u, an).
 */
for (const s of ALL_SYLLABLES) {
  const p = TO_PHONES.get(s)!;
  const alt: string[][] = [];
  if (p[1] === 'ib' || p[1] === 'if') alt.push([p[0], 'i']);
  if ('jqx'.includes(p[0]) && p[1].startsWith('ux')) alt.push([p[0], p[1] === 'ux' ? 'u' : p[1] === 'uxe' ? 'ue' : p[1].replace('ux', 'u')]);
  if (['as', 'es', 'os'].includes(p[0])) alt.push(p.slice(1));
  for (const a of alt) if (!TO_SYLLABLE.has(a.join(' '))) TO_SYLLABLE.set(a.join(' '), s);
}
for (const [phones, s] of [['y u', 'yu'], ['y uan', 'yuan'], ['y uxe', 'yue'], ['uxs en', 'yun'], ['y e', 'ye']] as const) {
  if (!TO_SYLLABLE.has(phones)) TO_SYLLABLE.set(phones, s);
}

/** The model's phones (initial + final) of a toneless syllable, e.g. zhuang → [zh, uang] (a fresh array). */
export function syllablePhones(syllable: string): string[] {
  const p = TO_PHONES.get(syllable);
  if (!p) throw new RangeError(`not a Mandarin syllable: "${syllable}"`);
  return [...p];
}

/** The toneless syllable spelled by a phone sequence, or null if no syllable has these phones. */
export function phonesToSyllable(phones: readonly string[]): string | null {
  return TO_SYLLABLE.get(phones.join(' ')) ?? null;
}

const COMPETITORS: readonly string[] = ALL_SYLLABLES.filter((s) => !INTERJECTIONS.has(s));

/**
 * The toneless syllables to use as competitors (free-syllable decoding, confusion sets): every
 * syllable of the inventory except the interjections m, n, ng, hm, hng, which either share
 * their phones with en, eng, heng or are not read in reference texts.
 */
export function modelSyllables(): readonly string[] {
  return COMPETITORS;
}

/** Splits a syllable's phones into the initial phone ('' if none) and the final phone. */
export function initialFinalPhones(syllable: string): { initial: string; final: string } {
  const p = syllablePhones(syllable);
  return p.length === 1 ? { initial: '', final: p[0] } : { initial: p[0], final: p[1] };
}

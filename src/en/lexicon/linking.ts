/**
 * Linking positions between neighbouring words in connected speech (Roach, English Phonetics
 * and Phonology, ch. 14; Celce-Murcia et al., Teaching Pronunciation, "linking"):
 * - linking_CV: a word ending in a consonant before a word beginning with a vowel ("an apple");
 * - linking_VV: vowel to vowel, bridged by a glide: Y after IY EY AY OY, W after UW OW AW
 *   ("go on" → go-w-on), otherwise a plain transition;
 * - linking_r: a word spelt with final r (or re) before a vowel; in non-rhotic en-GB the r is
 *   sounded only here ("far away");
 * - gemination: the same consonant ends one word and begins the next ("big game"), said once
 *   and held.
 * A position is linkable when one of these applies.
 */
import { isVowel, type Pronunciation } from './phones.js';

export type LinkType = 'linking_CV' | 'linking_VV' | 'linking_r' | 'gemination';

export interface Linking {
  type: LinkType;
  /** For linking_VV: the glide that bridges the vowels (Y or W), when one is expected. */
  glide?: 'Y' | 'W';
}

const Y_GLIDE = new Set(['IY', 'EY', 'AY', 'OY']);
const W_GLIDE = new Set(['UW', 'OW', 'AW']);

/**
 * The linking expected between two words, from their pronunciations and (for linking r) the
 * spelling of the first; null when the boundary is not a linking position.
 */
export function linkingBetween(
  prev: Pronunciation,
  next: Pronunciation,
  prevSpelling = '',
): Linking | null {
  const last = prev.phones[prev.phones.length - 1];
  const first = next.phones[0];
  if (last === undefined || first === undefined) return null;
  const spelt = prevSpelling.toLowerCase();
  if (isVowel(first)) {
    if (/(r|re)$/.test(spelt) && (isVowel(last) || last === 'R')) return { type: 'linking_r' };
    if (!isVowel(last)) return { type: 'linking_CV' };
    if (last === 'ER') return { type: 'linking_r' };
    if (Y_GLIDE.has(last)) return { type: 'linking_VV', glide: 'Y' };
    if (W_GLIDE.has(last)) return { type: 'linking_VV', glide: 'W' };
    return { type: 'linking_VV' };
  }
  if (last === first) return { type: 'gemination' };
  return null;
}

/**
 * Whether a word boundary is a linking position (the spec's `linkable`, set on the first word
 * of the pair), judged on each word's first (canonical citation) pronunciation: weak forms and
 * variants would make nearly every boundary linkable.
 */
export function isLinkable(prev: readonly Pronunciation[], next: readonly Pronunciation[], prevSpelling = ''): boolean {
  if (prev.length === 0 || next.length === 0) return false;
  return linkingBetween(prev[0], next[0], prevSpelling) !== null;
}

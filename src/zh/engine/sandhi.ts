/**
 * Tone sandhi of the expected realisation (Standard Mandarin, e.g. Duanmu 2007, "The Phonology of
 * Standard Chinese", ch. 11). The citation tone stays in `tone`; `sandhiTone` is what a native
 * reader says:
 * - 一 (yi1): tone 2 before a tone-4 syllable, tone 4 before tones 1–3; kept as tone 1 at the end
 *   of a clause and inside numbers (一百一十一 keeps the final 一 as 1; 第一 as 1).
 * - 不 (bu4): tone 2 before a tone-4 syllable.
 * - Third tone: in a run of third tones inside one clause every syllable but the last becomes
 *   tone 2. This is the simple right-to-left reading; real prosodic grouping can keep some
 *   middle syllables at a low tone, which the tone judgement tolerates by accepting 2 or 3 there.
 * Pure; mutates the tokens' sandhiTone in place.
 */
import type { ZhToken } from './text.js';

const NUMERAL = new Set([...'零一二三四五六七八九十百千万亿两第']);

export function applySandhi(tokens: ZhToken[], read: number[]): void {
  for (let k = 0; k < read.length; k++) {
    const t = tokens[read[k]];
    const next = k + 1 < read.length ? tokens[read[k + 1]] : null;
    const prev = k > 0 ? tokens[read[k - 1]] : null;
    const sameClauseNext = next && next.clause === t.clause ? next : null;
    if (t.text === '一' && t.tone === 1 && sameClauseNext) {
      const inNumber = NUMERAL.has(sameClauseNext.text) || (prev !== null && prev.clause === t.clause && NUMERAL.has(prev.text));
      if (!inNumber) t.sandhiTone = sameClauseNext.tone === 4 ? 2 : sameClauseNext.tone === 5 ? 1 : 4;
    } else if (t.text === '不' && t.tone === 4 && sameClauseNext && sameClauseNext.tone === 4) {
      t.sandhiTone = 2;
    }
  }
  // Third-tone runs, right to left inside a clause.
  for (let k = read.length - 2; k >= 0; k--) {
    const t = tokens[read[k]];
    const next = tokens[read[k + 1]];
    if (t.tone === 3 && next.tone === 3 && next.clause === t.clause) t.sandhiTone = 2;
  }
}

/** Tones a reader may correctly realise for a syllable (third-tone run middles accept 2 or 3). */
export function acceptedTones(tokens: ZhToken[], read: number[], k: number): number[] {
  const t = tokens[read[k]];
  if (t.tone === 5) return [1, 2, 3, 4, 5];
  const prev = k > 0 ? tokens[read[k - 1]] : null;
  if (t.tone === 3 && t.sandhiTone === 2 && prev && prev.tone === 3 && prev.clause === t.clause) return [2, 3];
  return t.sandhiTone === t.tone ? [t.tone] : [t.sandhiTone];
}

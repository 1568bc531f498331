/**
 * English score scales: the fitted model's expert scales (speechocean762: phones 0-2, words
 * and utterances 0-10) onto the 0-100 scale of the shared assessment core, which then applies
 * slack, gradeBand weights, scale and precision (src/assessment/shaping.ts).
 */

/**
 * Expert scales to 0-100. speechocean762's raters give 9-10 to native-like reading and
 * rarely a full 10 (train half: median utterance total 8); the top of the scale is reached
 * at EXPERT_FULL so that reading the raters call excellent is not held below 100.
 */
export const EXPERT_FULL = { word: 9.5, utterance: 9 } as const;

export function fromExpert(score: number, full: number): number {
  return clamp100((score / full) * 100);
}

/** Phone scale 0-2 (2 correct) to 0-100, with full marks from 1.8 (above "heavy accent" 1). */
export function fromPhoneScale(score: number): number {
  return clamp100((score / 1.8) * 100);
}

export function clamp100(v: number): number {
  return Math.max(0, Math.min(100, Number.isFinite(v) ? v : 0));
}

/**
 * Per-character judgements: pronunciation from GOP, substitution from context competition,
 * tone from the classifier's posterior. Thresholds are derived from the distributions on native
 * read speech (docs/mandarin-engine.md, "Calibration") and moved by `slack`.
 */
import { logistic } from '../../assessment/shaping.js';
import type { PhoneSegment } from '../../acoustic/types.js';
import type { ToneAssessment } from '../../assessment/types.js';
import type { Competition } from './context.js';

export const CALIBRATION = {
  /**
   * Substitution: free-over-forced gain, nats per frame of the syllable. On S0150 with random
   * substitutions the gain of correct syllables has its 94th percentile near 2.0 (the share of
   * false rejections wanted) and 86% of substituted ones exceed it.
   */
  SUBSTITUTION_NATS: 2.0,
  /** Slack moves the threshold by this factor per unit of slack (lenient raises it). */
  SLACK_FACTOR: 0.5,
  /**
   * GOP (nats per frame, ≤ 0) at which a syllable scores 50, and the logistic width: native
   * syllables have a median GOP near −0.9 and a 10th percentile near −2.6 on S0150.
   */
  GOP_MID: -4.0,
  GOP_WIDTH: 0.9,
  /** Posterior of the accepted tones under which a tone is judged wrong. */
  TONE_ERROR_POSTERIOR: 0.12,
  /** Inserted speech: gain per frame of the extra syllables, and the gap (in median syllables) worth checking. */
  INSERTION_NATS: 1.0,
  INSERTION_GAP_SYLLABLES: 2.6,
} as const;

export function substitutionThreshold(slack: number): number {
  return CALIBRATION.SUBSTITUTION_NATS * (1 + CALIBRATION.SLACK_FACTOR * slack);
}

/** Frame-weighted GOP of a syllable's phones (nats per frame, ≤ 0), null without GOP. */
export function syllableGop(phones: readonly PhoneSegment[]): number | null {
  let sum = 0;
  let frames = 0;
  for (const p of phones) {
    if (p.gop === undefined) continue;
    const n = p.endFrame - p.startFrame;
    sum += p.gop * n;
    frames += n;
  }
  return frames > 0 ? sum / frames : null;
}

export function gopScore(gop: number): number {
  return logistic(gop, CALIBRATION.GOP_MID, CALIBRATION.GOP_WIDTH);
}

/**
 * Pronunciation of a character: its GOP score, capped when competition says another syllable
 * was read (the cap falls from 60 as the evidence grows beyond the threshold).
 */
export function pronunciationScore(gop: number | null, comp: Competition | null, threshold: number): { score: number | null; substituted: boolean } {
  const base = gop === null ? null : gopScore(gop);
  const substituted = comp !== null && comp.evidence > threshold;
  if (!substituted) return { score: base, substituted };
  const cap = Math.max(5, 60 - 15 * (comp.evidence - threshold));
  return { score: Math.min(base ?? cap, cap), substituted };
}

/** Tone judgement from the posterior over tones 1–4 (index 0 is tone 1). */
export function judgeTone(citation: number, expected: number, accepted: readonly number[], probs: Float64Array | null, slack: number): ToneAssessment {
  if (!probs) return { citation, expected, heard: null, score: null, shape: null, error: false };
  let heard = 1;
  for (let c = 2; c <= 4; c++) if (probs[c - 1] > probs[heard - 1]) heard = c;
  const neutral = citation === 5;
  const pAcc = neutral ? 1 : accepted.reduce((s, t) => s + (t >= 1 && t <= 4 ? probs[t - 1] : 0), 0);
  const threshold = CALIBRATION.TONE_ERROR_POSTERIOR * (1 - 0.5 * slack);
  // Score: full marks once the accepted tones hold half the posterior mass.
  const score = 100 * Math.min(1, Math.sqrt(pAcc / 0.5));
  // Shape: how clearly one category is realised (max posterior rescaled from chance 0.25).
  const shape = 100 * Math.max(0, (Math.max(...probs) - 0.25) / 0.75);
  return { citation, expected, heard, score, shape, error: !neutral && pAcc < threshold };
}

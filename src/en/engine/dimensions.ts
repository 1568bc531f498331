/**
 * Dimension aggregation and score shaping for English. The language-neutral versions of
 * these (gradeBand weights, slack/scale/precision) belong to the shared assessment core; this
 * file keeps the English engine self-contained until that core is in place and is the one
 * place to switch over (see docs/english-engine.md).
 */
import type { EvaluationConfig, GradeBand } from '../../evaluation/config.js';
import type { Dimensions } from './types.js';

type Weights = Record<keyof Dimensions, number>;

/**
 * Five-dimension weights per gradeBand (spec: "overall is a weighted sum of the five
 * dimensions using weights that depend on the grade band"): younger readers are judged more
 * on reading everything and saying it right, older ones more on fluency and reading skill.
 */
export const GRADE_BAND_WEIGHTS: Record<GradeBand, Weights> = {
  1: { integrity: 0.25, accuracy: 0.45, fluency: 0.15, readingSkill: 0.1, emotion: 0.05 },
  2: { integrity: 0.2, accuracy: 0.45, fluency: 0.2, readingSkill: 0.1, emotion: 0.05 },
  3: { integrity: 0.15, accuracy: 0.45, fluency: 0.2, readingSkill: 0.15, emotion: 0.05 },
  4: { integrity: 0.15, accuracy: 0.4, fluency: 0.2, readingSkill: 0.2, emotion: 0.05 },
};

/** Single words and letters have no phrasing or rate to judge: integrity and accuracy only. */
export const WORD_KIND_WEIGHTS: Weights = { integrity: 0.3, accuracy: 0.7, fluency: 0, readingSkill: 0, emotion: 0 };

export function weightsFor(kind: string, band: GradeBand): Weights {
  return kind === 'word' || kind === 'alpha' ? WORD_KIND_WEIGHTS : GRADE_BAND_WEIGHTS[band];
}

export function weightedOverall(d: Dimensions, w: Weights): number {
  return d.integrity * w.integrity + d.accuracy * w.accuracy + d.fluency * w.fluency + d.readingSkill * w.readingSkill + d.emotion * w.emotion;
}

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

/**
 * The caller's shaping: slack > 0 lifts scores toward the top (at most a third of the way at
 * slack 1), < 0 lowers them by the same rule; then the 0-100 score is mapped onto `scale` and
 * rounded to `precision` steps.
 */
export function shape(score: number, config: Pick<EvaluationConfig, 'slack' | 'scale' | 'precision'>): number {
  const s = clamp100(score);
  const slacked = config.slack >= 0 ? s + (100 - s) * config.slack / 3 : s * (1 + config.slack / 3);
  const scaled = (slacked * config.scale) / 100;
  const stepped = Math.round(scaled / config.precision) * config.precision;
  return Number(Math.min(config.scale, stepped).toFixed(6));
}

/**
 * How every score is shaped: the strictness curve (`slack`), the five-dimension weights per
 * grade band, and the presenter's scale/precision rounding (spec "Evaluation config").
 */
import type { Dimensions, UnitAssessment } from './types.js';

/**
 * Five-dimension weights per grade band (1 early … 4 advanced). Younger readers are judged
 * mostly on reading every character and saying it right; reading skill and expressiveness gain
 * weight as readers advance. Accuracy (pronunciation with tone) stays the largest share.
 */
export const GRADE_BAND_WEIGHTS: Readonly<Record<1 | 2 | 3 | 4, Dimensions>> = {
  1: { integrity: 0.3, accuracy: 0.4, fluency: 0.2, readingSkill: 0.05, emotion: 0.05 },
  2: { integrity: 0.25, accuracy: 0.4, fluency: 0.2, readingSkill: 0.1, emotion: 0.05 },
  3: { integrity: 0.2, accuracy: 0.4, fluency: 0.2, readingSkill: 0.12, emotion: 0.08 },
  4: { integrity: 0.15, accuracy: 0.4, fluency: 0.2, readingSkill: 0.15, emotion: 0.1 },
};

/**
 * Whether an assessment of `kind` judges delivery (fluency, reading skill, emotion): a single
 * word or letter (`word`, `alpha`) does not, since pauses, phrasing and expression need
 * connected text; it is judged on completeness and pronunciation only.
 */
export function judgesDelivery(kind: string): boolean {
  return kind !== 'word' && kind !== 'alpha';
}

/**
 * The weights an assessment of `kind` applies: the grade band's; for a single word or letter
 * the band's integrity and accuracy weights renormalised to sum to 1, the others 0, so that a
 * correctly read word is not marked down for the expression two syllables cannot carry.
 */
export function weightsFor(kind: string, gradeBand: 1 | 2 | 3 | 4): Dimensions {
  const w = GRADE_BAND_WEIGHTS[gradeBand];
  if (judgesDelivery(kind)) return w;
  const judged = w.integrity + w.accuracy;
  return { integrity: w.integrity / judged, accuracy: w.accuracy / judged, fluency: 0, readingSkill: 0, emotion: 0 };
}

/** Weighted overall of the five dimensions, 0–100. */
export function weightedOverall(d: Dimensions, w: Dimensions): number {
  return d.integrity * w.integrity + d.accuracy * w.accuracy + d.fluency * w.fluency + d.readingSkill * w.readingSkill + d.emotion * w.emotion;
}

/**
 * Strictness curve on a 0–100 score: s' = 100·(s/100)^(2^(−0.8·slack)). slack 0 is the
 * identity; +1 lifts 60 to about 75, −1 lowers it to about 42. Monotone, fixes 0 and 100.
 */
export function applySlack(score: number, slack: number): number {
  const s = Math.max(0, Math.min(100, score));
  if (slack === 0) return s;
  return 100 * Math.pow(s / 100, Math.pow(2, -0.8 * slack));
}

/** Scales a 0–100 score to [0, scale] and rounds to the precision step (0.1 keeps one decimal). */
export function shapeScore(score: number, scale: number, precision: number): number {
  const v = (Math.max(0, Math.min(100, score)) * scale) / 100;
  const steps = Math.round(v / precision);
  const decimals = Math.max(0, Math.ceil(-Math.log10(precision) - 1e-9));
  return Number((steps * precision).toFixed(decimals));
}

/** Integer field of the spec (`int` types), on the same scale. */
export function shapeInt(score: number, scale: number): number {
  return Math.round((Math.max(0, Math.min(100, score)) * scale) / 100);
}

/** Logistic mapping used to turn a measured quantity into a 0–100 score around a midpoint. */
export function logistic(x: number, mid: number, width: number): number {
  return 100 / (1 + Math.exp(-(x - mid) / width));
}

/** Full score inside [lo, hi], falling linearly to 0 at lo·(1−fall) and hi·(1+fall). */
export function bandScore(x: number, lo: number, hi: number, fall = 0.6): number {
  if (x >= lo && x <= hi) return 100;
  if (x < lo) return Math.max(0, 100 * (1 - (lo - x) / (lo * fall)));
  return Math.max(0, 100 * (1 - (x - hi) / (hi * fall)));
}

/** The fields of an inserted or repeated unit (readType 1 or 3) that say what was heard where. */
export type ExtraUnitFields = Pick<UnitAssessment, 'text' | 'readType' | 'readStatus' | 'beginIndex' | 'endIndex' | 'sentence' | 'span' | 'extra' | 'heard'>;

/** An inserted or repeated unit: where it was heard and what, no scores (both languages). */
export function extraUnit(f: ExtraUnitFields): UnitAssessment {
  return {
    text: f.text,
    charType: 0,
    readType: f.readType,
    readStatus: f.readStatus,
    beginIndex: f.beginIndex,
    endIndex: f.endIndex,
    sentence: f.sentence,
    span: f.span,
    pronunciation: null,
    gop: null,
    prominence: 0,
    tone: null,
    pauseAfter: { type: 0, duration: 0 },
    phones: [],
    extra: f.extra,
    heard: f.heard,
  };
}

/**
 * Feature vectors of the English scoring model: the same functions feed the fitting script
 * (tools/train-en-so762.ts, speechocean762 train half) and the engine at run time, so the
 * model always sees what it was fitted on. Evidence is GOP (nats per frame, <= 0), durations
 * (10 ms frames), omissions, pauses, rate, stress prominence and pitch range. Pure.
 */
import { isVowel } from '../lexicon/index.js';
import type { PhoneSegment } from '../../acoustic/types.js';
import type { PhoneEvidence, ReadingEvidence, WordEvidence } from '../engine/evidence.js';
import type { FluencyMeasures } from '../engine/fluency.js';
import type { IntonationMeasures } from '../engine/intonation.js';
import type { StressJudgement } from '../engine/stress.js';

export const PHONE_FEATURES = [
  'gopFloor', 'gopZ', 'durZ', 'vowel', 'skipped', 'wordGopZ', 'uttGopZ', 'gopLow', 'forced', 'prevGop', 'nextGop',
] as const;

/**
 * Per phone of the model: mean and standard deviation of GOP and of log duration over the
 * training speech. Phones differ widely in how well the free loop matches them (a nasal or a
 * schwa scores lower than a sibilant even when said right), so GOP is also given as a z-score
 * against its own phone (as in phone-dependent GOP thresholds, Witt & Young 2000 §4.3).
 */
export type PhoneStats = Record<string, [gopMean: number, gopSd: number, durMean: number, durSd: number]>;

export function phoneFeatures(
  p: PhoneEvidence,
  stats: PhoneStats,
  ctx: {
    wordZ: number;
    uttZ: number;
    prev: PhoneEvidence | undefined;
    next: PhoneEvidence | undefined;
    /** Position of the phone in its word and the word's phone count. */
    index: number;
    count: number;
    /** What the free phone loop heard over the audio, sorted by time. */
    loop: readonly PhoneSegment[];
  },
): number[] {
  const skipped = p.startFrame < 0 ? 1 : 0;
  const dur = skipped ? 0 : Math.log(Math.max(1, p.endFrame - p.startFrame));
  const st = stats[p.phone] ?? [-1.5, 1.5, 2.2, 0.6];
  const clip = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));
  // Clipped inputs keep the fitted map monotone where training data are thin (very low GOP).
  return [
    Math.max(p.gop, -8), clip((p.gop - st[0]) / st[1], -5, 3), skipped ? -3 : clip((dur - st[2]) / st[3], -3, 3),
    isVowel(p.phone) ? 1 : 0, skipped, clip(ctx.wordZ, -5, 3), clip(ctx.uttZ, -5, 3), Math.min(0, p.gop + 3),
    // Neighbours inside the word: a badly said phone drags its neighbours' boundaries and GOP.
    clip(p.forced, -25, 0), Math.max(ctx.prev?.gop ?? p.gop, -8), Math.max(ctx.next?.gop ?? p.gop, -8),
  ];
}

/** Mean GOP z-score over phones (each against its own phone's statistics). */
export function meanGopZ(phones: readonly PhoneEvidence[], stats: PhoneStats): number {
  return mean(phones.map((p) => {
    const st = stats[p.phone] ?? [-1.5, 1.5, 2.2, 0.6];
    return (p.gop - st[0]) / st[1];
  }));
}

export const WORD_FEATURES = [
  'meanGop', 'minGop', 'badShare', 'skipped', 'phones', 'meanPhoneScore', 'minPhoneScore', 'stressMatched',
  'stressMargin', 'polysyllabic', 'logDurPerPhone', 'uttGop',
] as const;

export function wordFeatures(w: WordEvidence, phoneScores: readonly number[], stress: StressJudgement, uttGop: number): number[] {
  const gops = w.phones.map((p) => p.gop);
  const meanGop = mean(gops);
  const skipped = w.status === 'omitted' ? 1 : 0;
  const durPerPhone = skipped ? 0 : Math.log(Math.max(1, (w.endFrame - w.startFrame) / Math.max(1, w.phones.length)));
  return [
    meanGop, Math.min(...gops), gops.filter((g) => g < -3).length / Math.max(1, gops.length), skipped, w.phones.length,
    mean([...phoneScores]), Math.min(...phoneScores), stress.matched ? 1 : 0, Math.max(-3, Math.min(3, stress.margin)),
    stress.polysyllabic ? 1 : 0, durPerPhone, uttGop,
  ];
}

const UTTERANCE_BASE = [
  'meanPhoneScore', 'p10PhoneScore', 'meanWordScore', 'minWordScore', 'omittedShare', 'uttGop', 'badPhoneShare',
  'wordsPerMinute', 'phonesPerSecond', 'pauseCount', 'pauseSecondsShare', 'hesitations', 'meanPauseMs',
  'stressMatchedShare', 'rangeSt', 'alignFailed', 'logWords', 'leadTrailShare',
] as const;

/**
 * Utterance inputs and their squares: rate, pauses and scores relate to the experts' fluency
 * and total non-linearly (too slow and too fast both lose). Chosen by speaker-grouped
 * cross-validation on the train half (Pearson of held-out total 0.614 linear, 0.625 with squares).
 */
export const UTTERANCE_FEATURES: readonly string[] = [...UTTERANCE_BASE, ...UTTERANCE_BASE.map((n) => `${n}^2`)];

export function utteranceFeatures(
  ev: ReadingEvidence,
  phoneScores: readonly number[],
  wordScores: readonly number[],
  stresses: readonly StressJudgement[],
  fl: FluencyMeasures,
  into: IntonationMeasures,
): number[] {
  const n = Math.max(1, ev.words.length);
  const omitted = ev.words.filter((w) => w.status === 'omitted').length;
  const sorted = [...phoneScores].sort((a, b) => a - b);
  const poly = stresses.filter((s) => s.polysyllabic);
  const speech = Math.max(0.01, (ev.speechEnd - ev.speechStart) / 100);
  const total = Math.max(0.01, ev.frames / 100);
  const base = [
    mean([...phoneScores]), sorted[Math.floor(sorted.length * 0.1)] ?? 0, mean([...wordScores]), Math.min(...wordScores),
    omitted / n, utteranceGop(ev), phoneScores.filter((s) => s < 0.5).length / Math.max(1, phoneScores.length),
    Math.min(250, fl.wordsPerMinute), Math.min(20, fl.phonesPerSecond), fl.pauseCount, fl.pauseSeconds / speech,
    fl.hesitations, Math.min(3000, fl.meanPauseMs), poly.length ? poly.filter((s) => s.matched).length / poly.length : 1,
    Math.min(24, into.rangeSt), ev.ok ? 0 : 1, Math.log(n), Math.max(0, (total - speech) / total),
  ];
  return [...base, ...base.map((v) => (Number.isFinite(v) ? v * v : 0))];
}

/** Mean GOP over all reference phones (skipped words count with their floor GOP). */
export function utteranceGop(ev: ReadingEvidence): number {
  return mean(ev.words.flatMap((w) => w.phones.map((p) => p.gop)));
}

export function mean(v: number[]): number {
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : 0;
}

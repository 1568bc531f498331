/**
 * Feature vectors of the English scoring model: the same functions feed the fitting script
 * (tools/train-en-so762.ts, speechocean762 train half) and the engine at run time, so the
 * model always sees what it was fitted on. Evidence is GOP (nats per frame, <= 0), durations
 * (10 ms frames), omissions, pauses, rate, stress prominence and pitch range. Pure.
 */
import { isVowel } from '../lexicon/index.js';
import type { PhoneEvidence, ReadingEvidence, WordEvidence } from '../engine/evidence.js';
import type { FluencyMeasures } from '../engine/fluency.js';
import type { IntonationMeasures } from '../engine/intonation.js';
import type { StressJudgement } from '../engine/stress.js';

export const PHONE_FEATURES = ['gop', 'gopSq', 'gopFloor', 'logDur', 'vowel', 'skipped', 'wordGop', 'uttGop'] as const;

export function phoneFeatures(p: PhoneEvidence, wordGop: number, uttGop: number): number[] {
  const skipped = p.startFrame < 0 ? 1 : 0;
  const dur = skipped ? 0 : Math.log(Math.max(1, p.endFrame - p.startFrame));
  return [p.gop, p.gop * p.gop, Math.max(p.gop, -3), dur, isVowel(p.phone) ? 1 : 0, skipped, wordGop, uttGop];
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

export const UTTERANCE_FEATURES = [
  'meanPhoneScore', 'p10PhoneScore', 'meanWordScore', 'minWordScore', 'omittedShare', 'uttGop', 'badPhoneShare',
  'wordsPerMinute', 'phonesPerSecond', 'pauseCount', 'pauseSecondsShare', 'hesitations', 'meanPauseMs',
  'stressMatchedShare', 'rangeSt', 'alignFailed', 'logWords', 'leadTrailShare',
] as const;

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
  return [
    mean([...phoneScores]), sorted[Math.floor(sorted.length * 0.1)] ?? 0, mean([...wordScores]), Math.min(...wordScores),
    omitted / n, utteranceGop(ev), phoneScores.filter((s) => s < 1).length / Math.max(1, phoneScores.length),
    Math.min(250, fl.wordsPerMinute), Math.min(20, fl.phonesPerSecond), fl.pauseCount, fl.pauseSeconds / speech,
    fl.hesitations, Math.min(3000, fl.meanPauseMs), poly.length ? poly.filter((s) => s.matched).length / poly.length : 1,
    Math.min(24, into.rangeSt), ev.ok ? 0 : 1, Math.log(n), Math.max(0, (total - speech) / total),
  ];
}

/** Mean GOP over all reference phones (skipped words count with their floor GOP). */
export function utteranceGop(ev: ReadingEvidence): number {
  return mean(ev.words.flatMap((w) => w.phones.map((p) => p.gop)));
}

export function mean(v: number[]): number {
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : 0;
}

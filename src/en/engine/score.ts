/**
 * Evidence to expert-scale scores, in the order the model was fitted: phones (0-2), then
 * words (accuracy, stress, total 0-10) from their phones, then the utterance (accuracy,
 * completeness, fluency, prosodic, total 0-10) from everything. Pure.
 */
import type { PhoneSegment } from '../../acoustic/types.js';
import { predict } from '../scoring-model/linear.js';
import type { EnglishScoringModel } from '../scoring-model/model.js';
import { meanGopZ, phoneFeatures, utteranceFeatures, utteranceGop, wordFeatures, mean } from '../scoring-model/features.js';
import type { ReadingEvidence } from './evidence.js';
import { measureFluency, type FluencyMeasures } from './fluency.js';
import { measureIntonation, type IntonationMeasures } from './intonation.js';
import type { SignalFrames } from './signal.js';
import { judgeStress, type StressJudgement } from './stress.js';

export interface WordScores {
  /** Per phone, probability 0-1 that experts judge it correct (speechocean762 phone score ≥ 1.5). */
  phones: number[];
  accuracy: number;
  stress: number;
  total: number;
  stressJudgement: StressJudgement;
}

export interface UtteranceScores {
  accuracy: number;
  completeness: number;
  fluency: number;
  prosodic: number;
  total: number;
}

export interface ScoredReading {
  words: WordScores[];
  utterance: UtteranceScores;
  fluency: FluencyMeasures;
  intonation: IntonationMeasures;
}

/** Phone feature rows per word, per phone (the phone model's inputs). */
export function phoneRows(ev: ReadingEvidence, model: Pick<EnglishScoringModel, 'phoneStats'>, loop: readonly PhoneSegment[]): number[][][] {
  const uttZ = meanGopZ(ev.words.flatMap((w) => w.phones), model.phoneStats);
  return ev.words.map((w) => {
    const wordZ = meanGopZ(w.phones, model.phoneStats);
    return w.phones.map((p, i) => phoneFeatures(p, model.phoneStats, { wordZ, uttZ, prev: w.phones[i - 1], next: w.phones[i + 1], index: i, count: w.phones.length, loop }));
  });
}

/** Word feature rows with the phone scores and stress judgements they were built from. */
export function wordRows(ev: ReadingEvidence, signal: SignalFrames, model: Pick<EnglishScoringModel, 'phoneStats' | 'phone'>, loop: readonly PhoneSegment[]) {
  const uttGop = utteranceGop(ev);
  return phoneRows(ev, model, loop).map((rows, i) => {
    const w = ev.words[i];
    const phones = rows.map((x) => predict(model.phone, x));
    const stress = judgeStress(w, signal);
    return { x: wordFeatures(w, phones, stress, uttGop), phones, stress };
  });
}

/** `loop`: the free phone loop over the audio (what was heard), as the alignment decoded it. */
export function scoreReading(ev: ReadingEvidence, signal: SignalFrames, model: EnglishScoringModel, loop: readonly PhoneSegment[]): ScoredReading {
  const words: WordScores[] = wordRows(ev, signal, model, loop).map(({ x, phones, stress }) => ({
    phones,
    accuracy: predict(model.word.accuracy, x),
    stress: predict(model.word.stress, x),
    total: predict(model.word.total, x),
    stressJudgement: stress,
  }));
  const fluency = measureFluency(ev);
  const intonation = measureIntonation(ev, signal);
  const x = utteranceFeatures(
    ev,
    words.flatMap((w) => w.phones),
    words.map((w) => w.total),
    words.map((w) => w.stressJudgement),
    fluency,
    intonation,
  );
  const u = model.utterance;
  return {
    words,
    fluency,
    intonation,
    utterance: {
      accuracy: predict(u.accuracy, x),
      completeness: predict(u.completeness, x),
      fluency: predict(u.fluency, x),
      prosodic: predict(u.prosodic, x),
      total: predict(u.total, x),
    },
  };
}

/** The utterance feature vector of a reading, exactly as scoreReading builds it. */
export function utteranceRow(ev: ReadingEvidence, signal: SignalFrames, model: EnglishScoringModel, loop: readonly PhoneSegment[]): number[] {
  const s = scoreReading(ev, signal, model, loop);
  return utteranceFeatures(ev, s.words.flatMap((w) => w.phones), s.words.map((w) => w.total), s.words.map((w) => w.stressJudgement), s.fluency, s.intonation);
}

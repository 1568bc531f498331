/**
 * Evidence to expert-scale scores, in the order the model was fitted: phones (0-2), then
 * words (accuracy, stress, total 0-10) from their phones, then the utterance (accuracy,
 * completeness, fluency, prosodic, total 0-10) from everything. Pure.
 */
import type { PhoneSegment } from '../../acoustic/types.js';
import { predict } from '../scoring-model/linear.js';
import type { EnglishScoringModel } from '../scoring-model/model.js';
import { loopFrames, phoneFeatureRows, utteranceFeatures, utteranceGop, wordFeatures } from '../scoring-model/features.js';
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
export function phoneRows(ev: ReadingEvidence, loop: readonly PhoneSegment[], model: Pick<EnglishScoringModel, 'phoneStats'>): number[][][] {
  return phoneFeatureRows(ev, loopFrames(loop, ev.frames), model.phoneStats);
}

/** Word feature rows built on the given phone scores, with the stress judgements. */
export function wordRows(ev: ReadingEvidence, signal: SignalFrames, phoneScores: readonly (readonly number[])[]) {
  const uttGop = utteranceGop(ev);
  return ev.words.map((w, i) => {
    const stress = judgeStress(w, signal);
    return { x: wordFeatures(w, phoneScores[i], stress, uttGop), stress };
  });
}

/** The utterance feature row on the given phone and word scores, with the measures it reads. */
export function utteranceRow(
  ev: ReadingEvidence,
  signal: SignalFrames,
  phoneScores: readonly number[],
  wordTotals: readonly number[],
  stresses: readonly StressJudgement[],
) {
  const fluency = measureFluency(ev);
  const intonation = measureIntonation(ev, signal);
  return { x: utteranceFeatures(ev, phoneScores, wordTotals, stresses, fluency, intonation), fluency, intonation };
}

/**
 * All scores of a reading. `loop` is the free phone loop over the same audio (alignReading's),
 * which the phone model reads beside GOP; the model was fitted with it.
 */
export function scoreReading(ev: ReadingEvidence, signal: SignalFrames, loop: readonly PhoneSegment[], model: EnglishScoringModel): ScoredReading {
  const phones = phoneRows(ev, loop, model).map((rows) => rows.map((x) => predict(model.phone, x)));
  const words: WordScores[] = wordRows(ev, signal, phones).map(({ x, stress }, i) => ({
    phones: phones[i],
    accuracy: predict(model.word.accuracy, x),
    stress: predict(model.word.stress, x),
    total: predict(model.word.total, x),
    stressJudgement: stress,
  }));
  const { x, fluency, intonation } = utteranceRow(ev, signal, phones.flat(), words.map((w) => w.total), words.map((w) => w.stressJudgement));
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

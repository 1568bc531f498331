/**
 * Evidence to expert-scale scores, in the order the model was fitted: phones (0-2), then
 * words (accuracy, stress, total 0-10) from their phones, then the utterance (accuracy,
 * completeness, fluency, prosodic, total 0-10) from everything. Pure.
 */
import { predict } from '../scoring-model/linear.js';
import type { EnglishScoringModel } from '../scoring-model/model.js';
import { phoneFeatures, utteranceFeatures, utteranceGop, wordFeatures, mean } from '../scoring-model/features.js';
import type { ReadingEvidence } from './evidence.js';
import { measureFluency, type FluencyMeasures } from './fluency.js';
import { measureIntonation, type IntonationMeasures } from './intonation.js';
import type { SignalFrames } from './signal.js';
import { judgeStress, type StressJudgement } from './stress.js';

export interface WordScores {
  /** Per phone, 0-2 (speechocean762 phone scale: 2 correct, 1 accented, 0 wrong or missing). */
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

export function scoreReading(ev: ReadingEvidence, signal: SignalFrames, model: EnglishScoringModel): ScoredReading {
  const uttGop = utteranceGop(ev);
  const words: WordScores[] = ev.words.map((w) => {
    const wordGop = mean(w.phones.map((p) => p.gop));
    const phones = w.phones.map((p) => predict(model.phone, phoneFeatures(p, wordGop, uttGop)));
    const stressJudgement = judgeStress(w, signal);
    const x = wordFeatures(w, phones, stressJudgement, uttGop);
    return {
      phones,
      accuracy: predict(model.word.accuracy, x),
      stress: predict(model.word.stress, x),
      total: predict(model.word.total, x),
      stressJudgement,
    };
  });
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

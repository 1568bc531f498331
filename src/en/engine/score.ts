/**
 * Evidence to expert-scale scores, in the order the model was fitted: phones (0-2), then
 * words (accuracy, stress, total 0-10) from their phones, then the utterance (accuracy,
 * completeness, fluency, prosodic, total 0-10) from everything. Pure.
 */
import type { PhoneSegment } from '../../acoustic/types.js';
import { predict } from '../scoring-model/linear.js';
import type { EnglishScoringModel } from '../scoring-model/model.js';
import { durationZ, meanGopZ, phoneFeatures, utteranceFeatures, utteranceGop, wordFeatures, mean } from '../scoring-model/features.js';
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
  const all = ev.words.flatMap((w) => w.phones);
  const uttZ = meanGopZ(all, model.phoneStats);
  const uttDurZ = mean(all.map((p) => durationZ(p, model.phoneStats)));
  return ev.words.map((w, k) => {
    const wordZ = meanGopZ(w.phones, model.phoneStats);
    const lastWord = k === ev.words.length - 1;
    return w.phones.map((p, i) => phoneFeatures(p, model.phoneStats, { wordZ, uttZ, uttDurZ, prev: w.phones[i - 1], next: w.phones[i + 1], index: i, count: w.phones.length, lastWord, loop }));
  });
}

/** Word feature rows with the phone scores and stress judgements they were built from. */
export function wordRows(ev: ReadingEvidence, signal: SignalFrames, model: Pick<EnglishScoringModel, 'phoneStats' | 'phone'>, loop: readonly PhoneSegment[]) {
  const uttGop = utteranceGop(ev);
  const rows = phoneRows(ev, model, loop);
  const phones = rows.map((r) => r.map((x) => predict(model.phone, x)));
  const uttPhoneScore = mean(phones.flat());
  return phones.map((ps, i) => {
    const w = ev.words[i];
    const stress = judgeStress(w, signal);
    return { x: wordFeatures(w, ps, stress, { uttGop, uttPhoneScore, lastWord: i === ev.words.length - 1 }), phones: ps, phoneRows: rows[i], stress };
  });
}

/** `loop`: the free phone loop over the audio (what was heard), as the alignment decoded it. */
export function scoreReading(ev: ReadingEvidence, signal: SignalFrames, model: EnglishScoringModel, loop: readonly PhoneSegment[]): ScoredReading {
  return scoreWithRow(ev, signal, model, loop).scored;
}

/** The utterance feature vector of a reading, exactly as scoreReading builds it. */
export function utteranceRow(ev: ReadingEvidence, signal: SignalFrames, model: EnglishScoringModel, loop: readonly PhoneSegment[]): number[] {
  return scoreWithRow(ev, signal, model, loop).x;
}

function scoreWithRow(ev: ReadingEvidence, signal: SignalFrames, model: EnglishScoringModel, loop: readonly PhoneSegment[]): { scored: ScoredReading; x: number[] } {
  const rows = wordRows(ev, signal, model, loop);
  const words: WordScores[] = rows.map(({ x, phones, stress }) => ({
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
    rows.flatMap((r) => r.phoneRows),
  );
  const u = model.utterance;
  const scored = {
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
  return { scored, x };
}

/**
 * Evidence to expert-scale scores, in the order the model was fitted: phones (0-2), then
 * words (accuracy, stress, total 0-10) from their phones, then the utterance (accuracy,
 * completeness, fluency, prosodic, total 0-10) from everything, and last the reader's part of
 * each phone's score (`phonesInReading`). Pure.
 */
import type { PhoneSegment } from '../../acoustic/types.js';
import { predict } from '../scoring-model/linear.js';
import type { EnglishScoringModel, PhoneReader } from '../scoring-model/model.js';
import { durationZ, meanGopZ, phoneFeatures, utteranceFeatures, utteranceGop, wordFeatures, mean, type SilenceAround } from '../scoring-model/features.js';
import { speechSpan, type ReadingEvidence } from './evidence.js';
import { measureFluency, type FluencyMeasures } from './fluency.js';
import { measureIntonation, type IntonationMeasures } from './intonation.js';
import type { SignalFrames } from './signal.js';
import { judgeStress, type StressJudgement } from './stress.js';

export interface WordScores {
  /**
   * Per phone, 0-1: the probability that experts judge it correct (speechocean762 phone score
   * ≥ 1.5), with the reader's part added once the sentence is scored (`phonesInReading`).
   */
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

/** A sentence's own utterance scores (the whole reading's when it is the only one). */
export interface SentenceScores {
  sentenceIndex: number;
  /** Some word of the sentence was read. */
  read: boolean;
  scores: UtteranceScores;
}

export interface ScoredReading {
  words: WordScores[];
  utterance: UtteranceScores;
  /** Per sentence of the reading, in order. */
  sentences: SentenceScores[];
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
  const { words, fluency, intonation, rowOf } = scoreWords(ev, signal, model, loop);
  const pieces = sentencePieces(ev);
  let utterance: UtteranceScores;
  let sentences: SentenceScores[];
  if (pieces.length <= 1) {
    utterance = predictUtterance(model, rowOf(ev, 0, fluency, intonation));
    sentences = pieces.map((p) => ({ sentenceIndex: p.sentenceIndex, read: p.read, scores: utterance }));
  } else {
    sentences = pieces.map((p) => ({
      sentenceIndex: p.sentenceIndex,
      read: p.read,
      // A sentence of which nothing was read has nothing to judge (bySentence counts it as 0).
      scores: p.read ? predictUtterance(model, rowOf(p.evidence, p.from, measureFluency(p.evidence), measureIntonation(p.evidence, signal), p.around)) : NOTHING_READ,
    }));
    utterance = bySentence(sentences.map((t, k) => ({ ...t, words: pieces[k].evidence.words.length })));
  }
  // A word's phones take its sentence's fluency; those of a sentence of which nothing was read, the reading's.
  const sentenceOf = pieces.flatMap((p, k) => p.evidence.words.map(() => sentences[k]));
  const fluencyOfWord = (i: number) => (sentenceOf[i].read ? sentenceOf[i].scores.fluency : utterance.fluency);
  return { words: phonesInReading(words, model.phoneReader, fluencyOfWord), fluency, intonation, utterance, sentences };
}

/**
 * The reader's part of the phone scores. speechocean762's experts score the phones of a halting
 * reader lower and a fluent reader's higher than the phones' own evidence says (on the train
 * half a sixth of the phone scores' spread lies between utterances, on the test half a third),
 * so a phone's score is its fitted probability plus `weight` times its sentence's fitted
 * fluency (0-10) less `centre`, held inside 0-1. The word and utterance maps read the
 * probabilities without it, as they were fitted; the weight is fitted on held-out rows of the
 * train half (tools/train-en-so762.ts).
 */
export function phonesInReading(words: readonly WordScores[], reader: PhoneReader, fluencyOf: (word: number) => number): WordScores[] {
  return words.map((w, i) => {
    const shift = reader.weight * (fluencyOf(i) - reader.centre);
    return { ...w, phones: w.phones.map((p) => Math.min(1, Math.max(0, p + shift))) };
  });
}

const NOTHING_READ: UtteranceScores = { accuracy: 0, completeness: 0, fluency: 0, prosodic: 0, total: 0 };

/**
 * The utterance feature vector of the whole reading, as scoreReading builds it: the row the
 * maps are fitted on (speechocean762's readings are single sentences, scored from this row).
 */
export function utteranceRow(ev: ReadingEvidence, signal: SignalFrames, model: EnglishScoringModel, loop: readonly PhoneSegment[]): number[] {
  const { fluency, intonation, rowOf } = scoreWords(ev, signal, model, loop);
  return rowOf(ev, 0, fluency, intonation);
}

/**
 * The words' scores, the reading's fluency and intonation measures, and `rowOf`, which builds
 * the utterance row of a stretch of the reading (the whole, or one sentence: its evidence, the
 * index of its first word, its own measures and the silence around it).
 */
function scoreWords(ev: ReadingEvidence, signal: SignalFrames, model: EnglishScoringModel, loop: readonly PhoneSegment[]) {
  const rows = wordRows(ev, signal, model, loop);
  const words: WordScores[] = rows.map(({ x, phones, stress }) => ({
    phones,
    accuracy: predict(model.word.accuracy, x),
    stress: predict(model.word.stress, x),
    total: predict(model.word.total, x),
    stressJudgement: stress,
  }));
  const rowOf = (piece: ReadingEvidence, from: number, fl: FluencyMeasures, into: IntonationMeasures, around?: SilenceAround) => {
    const to = from + piece.words.length;
    const ws = words.slice(from, to);
    const phoneRows = rows.slice(from, to).flatMap((r) => r.phoneRows);
    return utteranceFeatures(piece, ws.flatMap((w) => w.phones), ws.map((w) => w.total), ws.map((w) => w.stressJudgement), fl, into, phoneRows, around);
  };
  return { words, fluency: measureFluency(ev), intonation: measureIntonation(ev, signal), rowOf };
}

function predictUtterance(model: EnglishScoringModel, x: number[]): UtteranceScores {
  const u = model.utterance;
  return {
    accuracy: predict(u.accuracy, x),
    completeness: predict(u.completeness, x),
    fluency: predict(u.fluency, x),
    prosodic: predict(u.prosodic, x),
    total: predict(u.total, x),
  };
}

/** One sentence of a reading as a reading of its own. */
export interface SentencePiece {
  /** Index of its first word in the reading. */
  from: number;
  sentenceIndex: number;
  evidence: ReadingEvidence;
  /** Some word of the sentence was read. */
  read: boolean;
  around: SilenceAround;
}

/**
 * A reading's sentences as readings of their own, for the utterance maps. speechocean762's
 * utterances are single sentences of 1 to 10 words, so its experts' judgement of fluency,
 * prosody and the whole fits a sentence, not a passage: a passage is scored sentence by
 * sentence, as a teacher marks one. The silence around a sentence is the recording's before
 * the first and after the last, and half of the break between two sentences (the break is
 * phrasing, judged by the boundaries, not a fault of either sentence). A reading of one
 * sentence is one piece, the reading itself.
 */
export function sentencePieces(ev: ReadingEvidence): SentencePiece[] {
  const pieces: { from: number; to: number }[] = [];
  ev.words.forEach((w, i) => {
    const last = pieces[pieces.length - 1];
    if (last && ev.words[last.from].entry.word.sentenceIndex === w.entry.word.sentenceIndex) last.to = i + 1;
    else pieces.push({ from: i, to: i + 1 });
  });
  const spans = pieces.map((p) => speechSpan(ev.words.slice(p.from, p.to)));
  const read = pieces.map((p) => ev.words.slice(p.from, p.to).some((w) => w.status === 'read'));
  // The read sentences' neighbours in time: a skipped sentence has no span and no silence of its own.
  const edge = (k: number, step: -1 | 1): number | null => {
    for (let j = k + step; j >= 0 && j < pieces.length; j += step) if (read[j]) return step < 0 ? spans[j].speechEnd : spans[j].speechStart;
    return null;
  };
  return pieces.map((p, k) => {
    const words = ev.words.slice(p.from, p.to);
    const { speechStart, speechEnd } = spans[k];
    const before = edge(k, -1);
    const after = edge(k, 1);
    const around = read[k]
      ? {
          before: before === null ? speechStart : Math.max(0, speechStart - before) / 2,
          after: after === null ? Math.max(0, ev.frames - speechEnd) : Math.max(0, after - speechEnd) / 2,
        }
      : { before: 0, after: 0 };
    return { from: p.from, sentenceIndex: words[0].entry.word.sentenceIndex, evidence: { ...ev, words, speechStart, speechEnd }, read: read[k], around };
  });
}

/**
 * A reading's utterance scores from its sentences', each weighted by its words. A sentence of
 * which no word was read scores 0 for accuracy, completeness and the total and is left out of
 * fluency and prosody: nothing was read there to judge (integrity and accuracy already carry
 * the words missed, and build.ts holds fluency and prosody down when few words are correct).
 */
export function bySentence(pieces: readonly { words: number; read: boolean; scores: UtteranceScores }[]): UtteranceScores {
  const weighted = (key: keyof UtteranceScores, readOnly: boolean) => {
    let sum = 0;
    let weight = 0;
    for (const p of pieces) {
      if (readOnly && !p.read) continue;
      sum += p.read ? p.words * p.scores[key] : 0;
      weight += p.words;
    }
    return weight > 0 ? sum / weight : 0;
  };
  return {
    accuracy: weighted('accuracy', false),
    completeness: weighted('completeness', false),
    fluency: weighted('fluency', true),
    prosodic: weighted('prosodic', true),
    total: weighted('total', false),
  };
}

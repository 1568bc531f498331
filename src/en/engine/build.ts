/**
 * Builds the typed English assessment from a plan, its alignment evidence, the frame signal
 * and the fitted scores (pure; the engine does the I/O). Word status: skipped by the aligner
 * → skipped (readType 2); read with accuracy under MISPRONOUNCED → mispronounced. Extra speech
 * (insertions.ts) becomes extra words: inserted (readType 1) or repeated (readType 3).
 */
import type { PhoneSegment } from '../../acoustic/types.js';
import { alignPhonics, toArpabet } from '../lexicon/index.js';
import type { EvaluationConfig } from '../../evaluation/config.js';
import { weightedOverall, weightsFor } from '../../assessment/shaping.js';
import { clamp100, fromExpert, EXPERT_FULL, gopAcceptability, shortWordLeniency, WORD_GOP_THRESHOLD } from './dimensions.js';
import type { ReadingEvidence, WordEvidence } from './evidence.js';
import type { ExtraSpeech } from './insertions.js';
import { judgePhones } from './phones.js';
import type { ReadingPlan } from './plan.js';
import type { ScoredReading, SentenceScores, WordScores } from './score.js';
import type { EnglishAssessment, PhoneAssessment, SentenceAssessment, WordAssessment } from './types.js';
import { judgeProsody } from './prosody.js';

/** A read word under this accuracy (0-100) is marked mispronounced. */
export const MISPRONOUNCED = 50;
/** Weight of an inserted word against a reference word in integrity (as the Mandarin engine's). */
export const INSERTION_WEIGHT = 0.5;
/** Fluency lost per repetition, as a share of the reading's words times this. */
export const REPETITION_COST = 1.5;
/** Repetitions take at most this share of fluency. */
const MAX_REPETITION_SHARE = 0.5;

export interface BuildInput {
  config: EvaluationConfig;
  plan: ReadingPlan;
  evidence: ReadingEvidence;
  scored: ScoredReading;
  loop: readonly PhoneSegment[];
  durationSec: number;
  warnings: { code: number; message: string }[];
  /** Insertions and repetitions (insertions.ts); none when not looked for. */
  extra?: readonly ExtraSpeech[];
  /** The audio is telephone band (no energy above 4 kHz, or sampled at 8 kHz or below). */
  narrowband?: boolean;
}

export function buildAssessment(input: BuildInput): EnglishAssessment {
  const { config, plan, evidence, scored } = input;
  // Narrowband audio (telephone band, or a source at 8 kHz or below) costs the wideband model
  // about a nat per frame of GOP on every word: judge it one nat more leniently.
  const narrow = input.narrowband === true;
  const threshold = wordThreshold(evidence);
  const words = evidence.words.map((w, i) => buildWord(w, scored.words[i], input.loop, config.slack + (narrow ? 1 : 0), threshold));
  const extra = evidence.ok ? (input.extra ?? []) : [];
  const extraWords = extra.map((x) => extraWord(x, evidence));
  const inserted = extra.filter((x) => x.kind === 'inserted').length;
  const repetitions = extra.length - inserted;
  // Integrity: reference words covered, an inserted word counting half a reference word against
  // it (the Mandarin engine's rule); a repetition is a fluency fault and leaves it alone.
  const readShare = words.filter((w) => w.readStatus !== 'skipped').length / Math.max(1, words.length + INSERTION_WEIGHT * inserted);
  const prosody = judgeProsody(plan, scored);
  const u = scored.utterance;
  // Accuracy is the fitted utterance score, held down to the words' own (GOP-capped) mean so
  // that speech of other words cannot score well.
  const wordMean = words.reduce((a, w) => a + w.accuracy, 0) / Math.max(1, words.length);
  const credit = creditOf(words);
  const dimensions = {
    integrity: clamp100(readShare * 100),
    accuracy: Math.min(fromExpert(u.accuracy, EXPERT_FULL.utterance), wordMean + 10),
    fluency: fluencyOf(u.fluency, words, repetitions),
    readingSkill: prosody.readingSkill * credit,
    emotion: prosody.emotion * credit,
  };
  if (!evidence.ok) for (const k of Object.keys(dimensions) as (keyof typeof dimensions)[]) dimensions[k] = 0;
  const weights = weightsFor(config.coreType, config.gradeBand);
  return {
    language: config.language === 'en-GB' ? 'en-GB' : 'en-US',
    dialect: plan.dialect,
    kind: plan.kind,
    text: plan.analysis,
    durationSec: input.durationSec,
    alignFailure: evidence.failure,
    dimensions,
    overall: weightedOverall(dimensions, weights),
    weights,
    expert: { ...u },
    skill: prosody.skill,
    fluencyMeasures: { ...scored.fluency, repetitions },
    intonation: scored.intonation,
    rearTone: scored.intonation.rearTone,
    boundaries: scored.fluency.boundaries,
    words,
    extraWords,
    sentences: buildSentences(plan, words, extraWords, evidence.ok, scored.sentences),
    warnings: input.warnings,
  };
}

function buildWord(w: WordEvidence, s: WordScores, loop: readonly PhoneSegment[], slack: number, threshold: number): WordAssessment {
  const word = w.entry.word;
  const phones: PhoneAssessment[] = judgePhones(w, s.phones, loop, slack);
  const meanGop = w.phones.reduce((a, p) => a + p.gop, 0) / Math.max(1, w.phones.length);
  const cap = gopAcceptability(meanGop, threshold - shortWordLeniency(w.endFrame - w.startFrame), slack);
  const accuracy = w.status === 'omitted' ? 0 : Math.min(fromExpert(s.accuracy, EXPERT_FULL.word), cap);
  const overall = w.status === 'omitted' ? 0 : Math.min(fromExpert(s.total, EXPERT_FULL.word), cap);
  const blocks = alignPhonics((w.pron.reading ?? word.spoken).join(''), w.pron.phones);
  const phonics = blocks.map((b) => {
    const ps = phones.slice(b.phoneStart, b.phoneStart + b.phones.length);
    const mean = ps.length ? ps.reduce((a, p) => a + p.score, 0) / ps.length : overall;
    return { spell: b.spell, overall: Math.round(mean) };
  });
  return {
    index: word.index,
    sentenceIndex: word.sentenceIndex,
    text: word.text,
    beginIndex: word.beginIndex,
    endIndex: word.endIndex,
    parts: word.parts,
    readType: w.status === 'omitted' ? 2 : 0,
    readStatus: w.status === 'omitted' ? 'skipped' : accuracy < MISPRONOUNCED ? 'mispronounced' : 'correct',
    accuracy,
    stressScore: w.status === 'omitted' ? 0 : fromExpert(s.stress, EXPERT_FULL.word),
    overall,
    startFrame: w.startFrame,
    endFrame: w.endFrame,
    pauseAfterMs: w.pauseAfter * 10,
    phones,
    stress: s.stressJudgement.syllables,
    phonics,
    linkable: w.entry.linkable,
    oov: w.entry.oov,
    pronunciation: toArpabet(w.pron),
    pronunciationSource: w.pron.source,
  };
}

/**
 * The word GOP threshold of this recording: WORD_GOP_THRESHOLD, lowered by up to one nat when
 * the recording's median word GOP is low for reasons that touch every word alike (telephone
 * band, noise, an unusual voice), so that a word is judged against the reader's own level as
 * well as the absolute one. It never drops below −5: a reader whose every word is poor is not
 * excused by it.
 */
export function wordThreshold(ev: ReadingEvidence): number {
  const means = ev.words.filter((w) => w.status === 'read').map((w) => w.phones.reduce((a, p) => a + p.gop, 0) / Math.max(1, w.phones.length));
  if (means.length < 3) return WORD_GOP_THRESHOLD;
  means.sort((a, b) => a - b);
  const median = means[Math.floor(means.length / 2)];
  return Math.max(WORD_GOP_THRESHOLD - 1, Math.min(WORD_GOP_THRESHOLD, median - 2.5));
}

/**
 * An extra word: a repetition carries the repeated word's text and spelling; an inserted word
 * is not named, its text is the loop's phones between slashes. Unscored; `index` is the
 * reference word it follows (-1 before the first word).
 */
function extraWord(x: ExtraSpeech, ev: ReadingEvidence): WordAssessment {
  const after = ev.words[Math.max(0, x.after)].entry.word;
  const said = x.word !== null ? ev.words[x.word].entry.word : null;
  return {
    index: x.after,
    sentenceIndex: after.sentenceIndex,
    text: said ? said.text : `/${x.heard.join(' ').toLowerCase()}/`,
    beginIndex: said ? said.beginIndex : -1,
    endIndex: said ? said.endIndex : -1,
    parts: said ? said.parts : [],
    readType: x.kind === 'repeated' ? 3 : 1,
    readStatus: x.kind,
    accuracy: 0,
    stressScore: 0,
    overall: 0,
    startFrame: x.startFrame,
    endFrame: x.endFrame,
    pauseAfterMs: 0,
    phones: [],
    stress: [],
    phonics: [],
    linkable: false,
    oov: false,
    pronunciation: x.heard.join(' '),
    pronunciationSource: 'heard',
  };
}

/**
 * How much of fluency, reading skill and emotion counts: they only count when the speech is the
 * text, so they shrink once fewer than half of the words are read correctly (down to 0.3 of
 * their value when none is) and are otherwise left alone, so that pronunciation is not counted
 * a second time in them.
 */
function creditOf(words: readonly WordAssessment[]): number {
  const correctShare = words.filter((w) => w.readStatus === 'correct').length / Math.max(1, words.length);
  return Math.min(1, 0.3 + 1.4 * correctShare);
}

/** Fluency 0-100 of words read: the fitted judgement (expert scale), their credit, less their repetitions' share. */
function fluencyOf(expertFluency: number, words: readonly WordAssessment[], repetitions: number): number {
  const repetitionShare = Math.min(MAX_REPETITION_SHARE, (REPETITION_COST * repetitions) / Math.max(1, words.length));
  return fromExpert(expertFluency, EXPERT_FULL.utterance) * creditOf(words) * (1 - repetitionShare);
}

/**
 * Sentences: accuracy and integrity from their words; fluency is the fitted judgement of the
 * sentence itself (score.ts, `sentences`), as the reading's is of the whole, so a passage's
 * fluency is its sentences' weighted by their words (before credit and repetitions).
 */
function buildSentences(plan: ReadingPlan, words: WordAssessment[], extraWords: WordAssessment[], ok: boolean, scored: readonly SentenceScores[]): SentenceAssessment[] {
  return plan.analysis.sentences.map((s) => {
    const ws = words.slice(s.firstWord, s.endWord);
    const extra = extraWords.filter((w) => w.index >= s.firstWord && w.index < s.endWord);
    const inserted = extra.filter((w) => w.readType === 1).length;
    const repeated = extra.length - inserted;
    const read = ws.filter((w) => w.readStatus !== 'skipped');
    const mean = (f: (w: WordAssessment) => number) => (ws.length ? ws.reduce((a, w) => a + f(w), 0) / ws.length : 0);
    const integrity = ws.length ? (read.length / (ws.length + INSERTION_WEIGHT * inserted)) * 100 : 0;
    const accuracy = mean((w) => w.accuracy);
    const own = scored.find((t) => t.sentenceIndex === s.index);
    const fluency = ok && read.length && own ? fluencyOf(own.scores.fluency, ws, repeated) : 0;
    return {
      index: s.index,
      text: s.text,
      firstWord: s.firstWord,
      endWord: s.endWord,
      overall: clamp100(0.6 * accuracy + 0.2 * integrity + 0.2 * fluency),
      accuracy,
      fluency,
      integrity,
      startFrame: read.length ? read[0].startFrame : 0,
      endFrame: read.length ? read[read.length - 1].endFrame : 0,
    };
  });
}

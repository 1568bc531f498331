/**
 * The detailed English reading the engine builds before it becomes the shared Assessment
 * (assessment.ts): everything measured, for the presenter, tools and reports. Scores are
 * 0-100 before the caller's slack, scale and precision. Times are 10 ms frames, end exclusive.
 */
import type { Dimensions } from '../../assessment/types.js';
import type { AlignFailure } from '../../acoustic/types.js';
import type { EnglishDialect } from '../lexicon/index.js';
import type { EnglishTextAnalysis, EnglishTextKind } from '../text/types.js';
import type { BoundaryPhrasing, FluencyMeasures } from './fluency.js';
import type { IntonationMeasures, RearTone } from './intonation.js';
import type { SyllableStress } from './stress.js';

/** Per-phone mispronunciation type (the spec's `phonemes[]` item carries it as `error_type`). */
export type PhoneError = 'substitution' | 'deletion' | 'insertion' | null;

export interface PhoneAssessment {
  /** Expected phone (ARPAbet of the acoustic model). */
  expected: string;
  /** What the free phone loop heard over the span, when it differs from `expected`. */
  heard: string | null;
  /** For an insertion: the extra phone heard after this one (e.g. an epenthetic vowel). */
  inserted: string | null;
  error: PhoneError;
  /** 0-100. */
  score: number;
  gop: number;
  startFrame: number;
  endFrame: number;
  vowel: boolean;
}

export type ReadStatus = 'correct' | 'mispronounced' | 'skipped' | 'inserted' | 'repeated';

export interface WordAssessment {
  index: number;
  sentenceIndex: number;
  text: string;
  beginIndex: number;
  endIndex: number;
  parts: { part: string; beginIndex: number; endIndex: number }[];
  /**
   * 0 inside the reference, 2 omission; 1 insertion and 3 repetition for the extra words of
   * `EnglishAssessment.extraWords` (`index` is then the reference word they follow, -1 before
   * the first).
   */
  readType: 0 | 1 | 2 | 3;
  readStatus: ReadStatus;
  /** 0-100 each. */
  accuracy: number;
  stressScore: number;
  overall: number;
  startFrame: number;
  endFrame: number;
  pauseAfterMs: number;
  phones: PhoneAssessment[];
  stress: SyllableStress[];
  phonics: { spell: string; overall: number }[];
  linkable: boolean;
  oov: boolean;
  /** The accepted pronunciation the reader used (phones with stress digits). */
  pronunciation: string;
  pronunciationSource: string;
}

export interface SentenceAssessment {
  index: number;
  text: string;
  firstWord: number;
  endWord: number;
  overall: number;
  accuracy: number;
  fluency: number;
  integrity: number;
  startFrame: number;
  endFrame: number;
}


export interface EnglishAssessment {
  language: 'en-US' | 'en-GB';
  dialect: EnglishDialect;
  kind: EnglishTextKind;
  text: EnglishTextAnalysis;
  durationSec: number;
  /** Alignment could not be made at all: scores are floor values and a 1001 warning is set. */
  alignFailure: AlignFailure | null;
  dimensions: Dimensions;
  /** Weighted by gradeBand, 0-100. */
  overall: number;
  weights: Record<keyof Dimensions, number>;
  /** speechocean762-scale utterance scores (0-10) from the fitted model. */
  expert: { accuracy: number; completeness: number; fluency: number; prosodic: number; total: number };
  skill: { phrasing: number; stress: number; intonation: number; prosodic: number };
  fluencyMeasures: FluencyMeasures;
  intonation: IntonationMeasures;
  rearTone: RearTone;
  boundaries: BoundaryPhrasing[];
  /** The reference words, in order (readType 0 or 2). */
  words: WordAssessment[];
  /**
   * Speech added to the reference (readType 1 'inserted', 3 'repeated'), in reading order, each
   * placed after the reference word `index` (-1: before the first). An inserted word is not named (the engine has no
   * open vocabulary): its `text` is the phones the free loop heard, between slashes. Unscored.
   */
  extraWords: WordAssessment[];
  sentences: SentenceAssessment[];
  warnings: { code: number; message: string }[];
}

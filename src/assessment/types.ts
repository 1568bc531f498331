/**
 * The language-neutral assessment of a read-aloud attempt: what the engines (Mandarin, English)
 * produce and the presenter turns into the spec's response. Scores here are raw 0–100 after the
 * strictness (`slack`) curve; `scale` and `precision` are applied only by the presenter.
 * Times are 10 ms frames (end exclusive), as on the acoustic backend's time axis.
 */
import type { QualityWarning } from '../audio/quality.js';

export type ReadStatus = 'correct' | 'mispronounced' | 'inserted' | 'skipped' | 'repeated';
/** 0 inside the reference, 1 insertion, 2 omission, 3 repetition (spec `words[].readType`). */
export type ReadType = 0 | 1 | 2 | 3;

export interface Span {
  start: number;
  end: number;
}

export interface PhoneAssessment {
  /** Phoneme in the language's notation (pinyin initial/final, ARPAbet phone). */
  phoneme: string;
  /** Model phone it was aligned as. */
  phone: string;
  /** 0 initial/consonant, 1 final/vowel (spec `phonemes[].category`). */
  category: number;
  pronunciation: number;
  /** Tone index the phone carries (`toneN` on Mandarin finals, '' otherwise). */
  toneIndex: string;
  span: Span;
  /** Language-specific phoneme fields copied as they are (English: `error_type`, `inserted`). */
  extra?: Record<string, unknown>;
}

export interface ToneAssessment {
  /** Citation tone (1–5; 5 neutral). */
  citation: number;
  /** Expected realisation after sandhi. */
  expected: number;
  /** Tone heard (1–4), null without pitch evidence. */
  heard: number | null;
  /** 0–100: posterior of an accepted tone; null without evidence. */
  score: number | null;
  /** 0–100: how clearly any tone category is realised (contour shape), null without evidence. */
  shape: number | null;
  error: boolean;
}

export interface UnitAssessment {
  text: string;
  charType: number;
  readType: ReadType;
  readStatus: ReadStatus;
  /** Position in the reference text (code points), -1 for insertions. */
  beginIndex: number;
  endIndex: number;
  sentence: number;
  span: Span | null;
  /** 0–100, null without acoustic evidence (skipped, not modelled, not read). */
  pronunciation: number | null;
  /** Raw GOP-based score 0–100 (before the substitution cap), null without evidence. */
  gop: number | null;
  prominence: number;
  tone: ToneAssessment | null;
  pauseAfter: { type: number; duration: number };
  phones: PhoneAssessment[];
  /** Language-specific fields the presenter copies into `words[]` (pinyin, stress, phonics…). */
  extra: Record<string, unknown>;
  /** Language-specific raw 0–100 word scores added to `scores` and shaped like the others (English: `stress`). */
  extraScores?: Record<string, number>;
  /** What was heard (Mandarin: toneless syllable and final), for `asrText.alignment[]`. */
  heard: { text: string; syllable: string | null; final: string | null } | null;
}

export interface Dimensions {
  integrity: number;
  accuracy: number;
  fluency: number;
  readingSkill: number;
  emotion: number;
}

export interface SubIndicators {
  pronunciation: number;
  tone: number | null;
  toneShape: number | null;
  nasal: number | null;
  phoneme: number;
  speedScore: number;
  naturalness: number;
  pause: number;
  stress: number;
  intonation: number;
  /** Null when the text has fewer than three clauses. */
  rhythm: number | null;
  prosody: number;
}

export interface SentenceAssessment {
  index: number;
  text: string;
  span: Span | null;
  scores: { overall: number; pronunciation: number; fluency: number; integrity: number };
  /** Indices into Assessment.units. */
  units: number[];
}

export interface Suggestions {
  integrity: string;
  accuracy: string;
  fluency: string;
  skill: string;
  emotion: string;
}

export interface Assessment {
  language: 'zh-CN' | 'en-US' | 'en-GB';
  coreType: string;
  units: UnitAssessment[];
  sentences: SentenceAssessment[];
  paragraphs: Record<string, unknown>[];
  dimensions: Dimensions;
  sub: SubIndicators;
  overall: number;
  /** Weights actually applied to the five dimensions (sum 1). */
  weights: Dimensions;
  /** Characters (zh) or words (en) per minute of reading time. */
  speed: number;
  rearTone: 'rise' | 'fall' | 'flat';
  durationSec: number;
  warnings: QualityWarning[];
  suggestions: Suggestions;
  /** Present only when a target emotion was asked and the alignment evidence is valid. */
  emotionDiagnosis: { target: string; matched: boolean; expressiveness: number } | null;
  kernelVersion: string;
  resourceVersion: string;
}

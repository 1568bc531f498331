/**
 * What the report writer works from (the engine's evidence, language-neutral) and what it
 * returns (spec "Report object"). Evidence is derived once from an Assessment; both the
 * template generator and the model prompt read only this, so the model never sees anything the
 * template could not have said.
 */
import type { Genre, GradeBand } from '../evaluation/config.js';

export const DIMENSION_KEYS = ['integrity', 'accuracy', 'fluency', 'reading_skill', 'emotion'] as const;
export type DimensionKey = (typeof DIMENSION_KEYS)[number];

/** Report language: Chinese or English prose. */
export type ReportLanguage = 'zh' | 'en';

/** Qualitative level of a 0–100 score; the body speaks in levels, never in numbers. */
export type Level = 'excellent' | 'good' | 'fair' | 'weak';

/** A place in the reference text, as the body may name it. */
export interface TextRef {
  /** The unit as written (a character or a word). */
  text: string;
  /** The lexical word containing it (Mandarin), or null. */
  word: string | null;
  /** Which of several identical places in the text this is (null when there is only one). */
  occurrence: 'earlier' | 'middle' | 'later' | null;
  /** Where the unit sits in that word, for naming a unit that may not be quoted by one that may. */
  inWord: 'start' | 'middle' | 'end' | null;
  /** Expected pronunciation: tone-marked pinyin (Mandarin) or IPA-free phone string (English). */
  expected: string | null;
  /** Position in the reference (code points). */
  index: number;
  /** Neighbouring read unit before it, for units that may not be quoted. */
  before: string | null;
  after: string | null;
  sentence: number;
}

export type FindingKind =
  | 'skipped'
  | 'unfinished'
  | 'inserted'
  | 'replaced'
  | 'repeated'
  | 'misread'
  | 'tone'
  | 'unclear'
  | 'phone'
  | 'stress'
  | 'phrase-break'
  | 'boundary'
  | 'pace-fast'
  | 'pace-slow'
  | 'uneven'
  | 'flat-pitch'
  | 'rear-tone'
  | 'flat-emotion'
  | 'target-emotion'
  | 'no-evidence'
  | 'audio-quality';

/** One thing that happened in the recording, with the dimension it belongs to. */
export interface Finding {
  /** Stable id (kind and position): suggestions keep it, tests compare buckets by it. */
  id: string;
  kind: FindingKind;
  dimension: DimensionKey;
  /** 0–1: how much it matters, before the grade band's weight. */
  severity: number;
  refs: TextRef[];
  /** What was heard instead (toneless pinyin, ARPAbet phone, inserted syllable). */
  heard?: string | null;
  /** Mandarin tones: expected realisation, citation, heard (1–5). */
  tone?: { expected: number; citation: number; heard: number | null };
  /** English phones: expected → heard (ARPAbet, lower case). */
  phone?: { expected: string; heard: string | null; error: string | null };
  /** Matched/unmatched target emotion. */
  target?: { label: string; matched: boolean };
  /** Warning codes behind an audio-quality finding. */
  codes?: number[];
}

export interface ReportEvidence {
  language: 'zh-CN' | 'en-US' | 'en-GB';
  coreType: string;
  gradeBand: GradeBand;
  genre: Genre | null;
  /** Raw 0–100 dimension scores, never shown in the body. */
  scores: Record<DimensionKey, number>;
  levels: Record<DimensionKey, Level>;
  weights: Record<DimensionKey, number>;
  /** Tone level (Mandarin), null without tone evidence. */
  toneLevel: Level | null;
  pace: 'fast' | 'slow' | 'ok' | 'unknown';
  findings: Finding[];
  /** Word and alpha kinds: a single item, judged on completeness and pronunciation only. */
  singleItem: boolean;
  /** Nothing in the audio matched the text. */
  noEvidence: boolean;
  /** Read units and how many there are in the text. */
  unitCount: number;
  seed: number;
}

export interface SkillInsight {
  aspect: '内在语' | '情景再现' | '对象感';
  observation: string;
  quote: string;
  confidence: 'low' | 'medium' | 'high';
}

/** The spec's report object. */
export interface Report {
  source: string;
  summary: string;
  dimensions: Record<DimensionKey, string>;
  suggestions: string[];
  dimensionSuggestions: Record<DimensionKey, string[]>;
  skillInsights?: SkillInsight[];
  rubricVersion: string;
  dimensionTree: Record<string, unknown>;
  dimensionScores: { accuracy: number | null; fluency: number | null; integrity: number | null; affect: number | null; speechRate: number | null };
}

export function levelOf(score: number): Level {
  return score >= 90 ? 'excellent' : score >= 75 ? 'good' : score >= 60 ? 'fair' : 'weak';
}

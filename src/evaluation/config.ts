/**
 * The evaluation config of the spec ("Evaluation config (native)"), parsed and validated
 * once into a typed object. Every violation is 400 40001 with a message naming the field.
 * Unknown fields are ignored. The compat layer maps its form parts onto the same object and
 * passes `label`, so that its messages name the compat part (`refText`, not `referenceText`).
 */
import { invalid } from '../errors.js';

export const NATIVE_CORE_TYPES = ['word', 'sentence', 'passage', 'alpha', 'connected', 'open', 'pinyin'] as const;
export type CoreType = (typeof NATIVE_CORE_TYPES)[number];
export const LANGUAGES = ['zh-CN', 'en-US', 'en-GB'] as const;
export type Language = (typeof LANGUAGES)[number];
export const GENRES = ['prose', 'classical_poem', 'modern_poem'] as const;
export type Genre = (typeof GENRES)[number];
export type GradeBand = 1 | 2 | 3 | 4;
export const REPORT_SLOT_NAMES = ['focus', 'audience', 'tone', 'reminder'] as const;

export const MAX_REFERENCE_CHARS = 1000;
export const MAX_KEY_POINTS = 20;
export const MAX_REPORT_SLOTS = 8;
export const MAX_REPORT_SLOT_CHARS = 120;
export const MAX_REPORT_PROMPT_CHARS = 600;

export interface EvaluationConfig {
  coreType: CoreType;
  referenceText: string;
  language: Language;
  /** Strictness in [-1, 1]: > 0 more lenient, < 0 stricter. */
  slack: number;
  /** Score upper limit (1..100). */
  scale: number;
  /** Score step in (0, 1]. */
  precision: number;
  /** Decides the five-dimension weights; `gradeBand` wins over `agegroup`. */
  gradeBand: GradeBand;
  toneWeight: number | null;
  refPinyin: string | null;
  phonemeOutput: boolean;
  includeReport: boolean;
  includeStandardAudio: boolean;
  includeAsrText: boolean;
  taskType: 'picture' | 'situational' | 'free';
  openLevel: 1 | 2 | 3;
  paragraphNeedWordScore: 0 | 1;
  /** Null: decided from the text. */
  genre: Genre | null;
  keyPoints: string[] | null;
  targetEmotion: string | null;
  /** Report customisation; `reportPrompt` arrives here as `focus` with placeholders stripped. */
  reportSlots: Partial<Record<(typeof REPORT_SLOT_NAMES)[number], string>> & Record<string, string>;
  idempotencyKey: string | null;
}

type Json = Record<string, unknown>;

export interface ParseOptions {
  /** The name a message gives a field (default: the native name itself). */
  label?: (field: string) => string;
}

/** The raw config and how messages name its fields (`n`), passed to every field reader. */
interface Reader {
  c: Json;
  n: (field: string) => string;
}

/** agegroup 1 early, 2 middle, 3 advanced → gradeBand 1, 2, 4 (there is no legacy step for band 3). */
const AGEGROUP_TO_GRADE_BAND: Record<number, GradeBand> = { 1: 1, 2: 2, 3: 4 };

/** Kinds that read a reference text aloud in each language family. */
const KIND_LANGUAGES: Record<CoreType, readonly Language[]> = {
  word: LANGUAGES,
  sentence: LANGUAGES,
  passage: LANGUAGES,
  alpha: ['en-US', 'en-GB'],
  connected: ['en-US'],
  open: LANGUAGES,
  pinyin: ['zh-CN'],
};

export function parseEvaluationConfig(raw: unknown, options: ParseOptions = {}): EvaluationConfig {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw invalid('config must be a JSON object');
  const c = raw as Json;
  const r: Reader = { c, n: options.label ?? ((field) => field) };
  const { n } = r;
  if (c.coreType === undefined || c.coreType === null || c.coreType === '') throw invalid(`missing ${n('coreType')}`);
  const coreType = oneOf(r, 'coreType', NATIVE_CORE_TYPES);
  if (c.referenceText === undefined || c.referenceText === null || c.referenceText === '') {
    throw invalid(c.refText !== undefined ? 'missing referenceText (refText is the compat name; native requests use referenceText)' : `missing ${n('referenceText')}`);
  }
  if (typeof c.referenceText !== 'string') throw invalid(`${n('referenceText')} must be a string`);
  if (c.referenceText.trim() === '') throw invalid(`${n('referenceText')} is blank`);
  if ([...c.referenceText].length > MAX_REFERENCE_CHARS) throw invalid(`${n('referenceText')} longer than ${MAX_REFERENCE_CHARS} characters`);
  const language = c.language === undefined || c.language === null ? 'en-US' : oneOf(r, 'language', LANGUAGES);
  if (!KIND_LANGUAGES[coreType].includes(language)) {
    throw invalid(`${n('coreType')} ${coreType} is not available for ${n('language')} ${language} (allowed: ${KIND_LANGUAGES[coreType].join(', ')})`);
  }
  const refPinyin = optionalString(r, 'refPinyin');
  if (coreType === 'pinyin' && !refPinyin) throw invalid(`${n('refPinyin')} is required for the pinyin kind`);

  return {
    coreType,
    referenceText: c.referenceText,
    language,
    slack: number(r, 'slack', 0, -1, 1),
    scale: integer(r, 'scale', 100, 1, 100),
    precision: precision(r),
    gradeBand: gradeBand(r),
    toneWeight: c.toneWeight === undefined || c.toneWeight === null ? null : number(r, 'toneWeight', 0, 0, 1),
    refPinyin,
    phonemeOutput: bool(r, 'phonemeOutput', true),
    includeReport: bool(r, 'includeReport', true),
    includeStandardAudio: bool(r, 'includeStandardAudio', false),
    includeAsrText: bool(r, 'includeAsrText', true),
    taskType: c.taskType === undefined || c.taskType === null ? 'free' : oneOf(r, 'taskType', ['picture', 'situational', 'free'] as const),
    openLevel: (c.openLevel === undefined || c.openLevel === null ? 2 : oneOf(r, 'openLevel', [1, 2, 3] as const)) as 1 | 2 | 3,
    paragraphNeedWordScore: (c.paragraphNeedWordScore === undefined || c.paragraphNeedWordScore === null
      ? 0
      : oneOf(r, 'paragraphNeedWordScore', [0, 1] as const)) as 0 | 1,
    genre: c.genre === undefined || c.genre === null || c.genre === '' ? null : oneOf(r, 'genre', GENRES),
    keyPoints: keyPoints(r),
    targetEmotion: optionalString(r, 'targetEmotion'),
    reportSlots: reportSlots(r),
    idempotencyKey: optionalString(r, 'idempotencyKey'),
  };
}

function oneOf<T extends string | number>({ c, n }: Reader, name: string, allowed: readonly T[]): T {
  const value = c[name];
  if (!allowed.includes(value as T)) throw invalid(`${n(name)} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`);
  return value as T;
}

function number({ c, n }: Reader, name: string, fallback: number, min: number, max: number): number {
  const value = c[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw invalid(`${n(name)} must be a number in [${min}, ${max}] (got ${JSON.stringify(value)})`);
  }
  return value;
}

function integer(r: Reader, name: string, fallback: number, min: number, max: number): number {
  const value = number(r, name, fallback, min, max);
  if (!Number.isInteger(value)) throw invalid(`${r.n(name)} must be an integer in [${min}, ${max}] (got ${value})`);
  return value;
}

function bool({ c, n }: Reader, name: string, fallback: boolean): boolean {
  const value = c[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw invalid(`${n(name)} must be true or false`);
  return value;
}

function optionalString({ c, n }: Reader, name: string): string | null {
  const value = c[name];
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') throw invalid(`${n(name)} must be a string`);
  return value;
}

function precision({ c, n }: Reader): number {
  const value = c.precision;
  if (value === undefined || value === null) return 1;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 1) {
    throw invalid(`${n('precision')} must be greater than 0 and at most 1 (got ${JSON.stringify(value)})`);
  }
  return value;
}

function gradeBand(r: Reader): GradeBand {
  const { c } = r;
  if (c.gradeBand !== undefined && c.gradeBand !== null) return oneOf(r, 'gradeBand', [1, 2, 3, 4] as const);
  if (c.agegroup !== undefined && c.agegroup !== null) return AGEGROUP_TO_GRADE_BAND[oneOf(r, 'agegroup', [1, 2, 3] as const)];
  return 4;
}

function keyPoints({ c, n }: Reader): string[] | null {
  const value = c.keyPoints;
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw invalid(`${n('keyPoints')} must be an array of strings`);
  if (value.length > MAX_KEY_POINTS) throw invalid(`${n('keyPoints')} has ${value.length} items; at most ${MAX_KEY_POINTS}`);
  return value as string[];
}

/** `${...}` placeholders are stripped from reportPrompt since 2026-09-04, never interpolated. */
export function stripPlaceholders(text: string): string {
  return text.replace(/\$\{[^}]*\}/g, '').replace(/\s{2,}/g, ' ').trim();
}

function reportSlots({ c }: Reader): EvaluationConfig['reportSlots'] {
  const slots: Record<string, string> = {};
  const value = c.reportSlots;
  if (value !== undefined && value !== null) {
    if (typeof value !== 'object' || Array.isArray(value)) throw invalid('reportSlots must be an object');
    const entries = Object.entries(value as Json);
    if (entries.length > MAX_REPORT_SLOTS) throw invalid(`reportSlots has ${entries.length} keys; at most ${MAX_REPORT_SLOTS}`);
    for (const [name, text] of entries) {
      if (typeof text !== 'string') throw invalid(`reportSlots.${name} must be a string`);
      if ([...text].length > MAX_REPORT_SLOT_CHARS) throw invalid(`reportSlots.${name} longer than ${MAX_REPORT_SLOT_CHARS} characters`);
      if (text.trim() !== '') slots[name] = text;
    }
  }
  const prompt = c.reportPrompt;
  if (prompt !== undefined && prompt !== null) {
    if (typeof prompt !== 'string') throw invalid('reportPrompt must be a string');
    if ([...prompt].length > MAX_REPORT_PROMPT_CHARS) throw invalid(`reportPrompt longer than ${MAX_REPORT_PROMPT_CHARS} characters`);
    const focus = stripPlaceholders(prompt);
    // An explicit reportSlots.focus wins over the legacy prompt.
    if (focus && slots.focus === undefined) slots.focus = focus;
  }
  return slots;
}

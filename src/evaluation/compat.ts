/**
 * The legacy protocol's form parameters (spec "POST /{coreType} (compat evaluation)") mapped
 * onto the native EvaluationConfig, so both layers share one validation and one service.
 */
import { invalid } from '../errors.js';
import { MAX_KEY_POINTS, parseEvaluationConfig, type CoreType, type EvaluationConfig } from './config.js';
import type { CompatOptions } from './types.js';

interface CompatKind {
  coreType: CoreType;
  chinese: boolean;
  adaptive: boolean;
}

/** The eleven compat kinds. `.cn` = Chinese; `.pro` = adaptive variants. */
export const COMPAT_KINDS: Record<string, CompatKind> = {
  'word.eval': { coreType: 'word', chinese: false, adaptive: false },
  'word.eval.pro': { coreType: 'word', chinese: false, adaptive: true },
  'sent.eval': { coreType: 'sentence', chinese: false, adaptive: false },
  'sent.eval.pro': { coreType: 'sentence', chinese: false, adaptive: true },
  'para.eval': { coreType: 'passage', chinese: false, adaptive: false },
  'alpha.eval': { coreType: 'alpha', chinese: false, adaptive: false },
  'word.eval.cn': { coreType: 'word', chinese: true, adaptive: false },
  'sent.eval.cn': { coreType: 'sentence', chinese: true, adaptive: false },
  'para.eval.cn': { coreType: 'passage', chinese: true, adaptive: false },
  pinyin: { coreType: 'pinyin', chinese: true, adaptive: false },
  'open.eval.cn': { coreType: 'open', chinese: true, adaptive: false },
};

export function isCompatKind(kind: string): boolean {
  return Object.hasOwn(COMPAT_KINDS, kind);
}

/**
 * Business parameters of a compat request: the text form fields, with the top-level scalar
 * fields of the `request` JSON part merged in (form fields win on a clash).
 */
export function compatParams(fields: Record<string, string>): Record<string, string> {
  const params: Record<string, string> = {};
  if (fields.request !== undefined && fields.request.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(fields.request);
    } catch {
      throw invalid('request must be a JSON object');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalid('request must be a JSON object');
    for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') params[name] = String(value);
    }
  }
  for (const [name, value] of Object.entries(fields)) if (name !== 'request') params[name] = value;
  return params;
}

export function compatToConfig(kindName: string, fields: Record<string, string>): { config: EvaluationConfig; compat: CompatOptions } {
  const kind = COMPAT_KINDS[kindName];
  const p = compatParams(fields);
  if (!p.refText) throw invalid(kind.coreType === 'open' ? 'missing refText (the question or reference answers)' : 'missing refText');
  if (kind.coreType === 'pinyin' && !p.refPinyin) throw invalid('refPinyin is required for the pinyin kind');
  const native: Record<string, unknown> = {
    coreType: kind.coreType,
    referenceText: p.refText,
    language: p.language || defaultLanguage(kind, p.dict_dialect),
    refPinyin: p.refPinyin,
    agegroup: optionalInt(p, 'agegroup'),
    gradeBand: optionalInt(p, 'gradeBand'),
    scale: optionalNumber(p, 'scale'),
    precision: optionalNumber(p, 'precision'),
    slack: optionalNumber(p, 'slack'),
    paragraphNeedWordScore: optionalInt(p, 'paragraph_need_word_score'),
    phonemeOutput: flag(p, 'phoneme_output', true),
    genre: p.genre,
    targetEmotion: p.targetEmotion,
    idempotencyKey: p.idempotencyKey,
  };
  if (kind.coreType === 'open') {
    native.taskType = p.taskType || taskTypeFromQType(p.qType);
    native.keyPoints = compatKeyPoints(p);
  }
  return {
    config: parseEvaluationConfig(native),
    compat: {
      kind: kindName,
      readtypeDiagnosis: flag(p, 'readtype_diagnosis', false),
      attachAudioUrl: flag(p, 'attachAudioUrl', false),
      timing: flag(p, 'timing', false),
      adaptive: kind.adaptive,
      lexicon: customLexicon(p),
      outputRawText: flag(p, 'output_rawtext', false),
    },
  };
}

function defaultLanguage(kind: CompatKind, dialect: string | undefined): string {
  if (kind.chinese) return 'zh-CN';
  if (dialect === undefined || dialect === '' || dialect === 'en_us') return 'en-US';
  if (dialect === 'en_br') return 'en-GB';
  throw invalid('dict_dialect must be en_br or en_us');
}

function optionalNumber(p: Record<string, string>, name: string): number | undefined {
  const raw = p[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw invalid(`${name} must be a number (got "${raw}")`);
  return value;
}

function optionalInt(p: Record<string, string>, name: string): number | undefined {
  const value = optionalNumber(p, name);
  if (value !== undefined && !Number.isInteger(value)) throw invalid(`${name} must be an integer (got "${p[name]}")`);
  return value;
}

function flag(p: Record<string, string>, name: string, fallback: boolean): boolean {
  const raw = p[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === '1' || raw === 'true') return true;
  if (raw === '0' || raw === 'false') return false;
  throw invalid(`${name} must be 0 or 1 (got "${raw}")`);
}

/** qType 5 picture description, 6 situational Q&A, anything else free expression. */
function taskTypeFromQType(qType: string | undefined): string {
  if (qType === '5') return 'picture';
  if (qType === '6') return 'situational';
  return 'free';
}

function splitList(raw: string | undefined, name: string): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  const text = raw.trim();
  if (text.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw invalid(`${name} is not a valid JSON array`);
    }
    if (!Array.isArray(parsed) || parsed.some((v) => typeof v !== 'string')) throw invalid(`${name} must be an array of strings`);
    return (parsed as string[]).map((s) => s.trim()).filter(Boolean);
  }
  return text.split('|').map((s) => s.trim()).filter(Boolean);
}

/** keypoints and keywords together, at most 20 (spec Limits). */
function compatKeyPoints(p: Record<string, string>): string[] | undefined {
  const all = [...splitList(p.keypoints, 'keypoints'), ...splitList(p.keywords, 'keywords')];
  if (all.length > MAX_KEY_POINTS) throw invalid(`keypoints and keywords have ${all.length} items together; at most ${MAX_KEY_POINTS}`);
  return all.length ? all : undefined;
}

/**
 * Caller-supplied pronunciations (the spec leaves their semantics open; see README):
 * - customized_lexicon: JSON object, word → pronunciation or list of pronunciations;
 * - customized_pron: compact text `word:PRON|PRON;word2:PRON`.
 * Pronunciations are ARPAbet phones for English ("T AH M EY T OW") and numeric-tone pinyin
 * for Chinese ("xing2"). They are added as accepted variants, never replacing the lexicon.
 */
export function customLexicon(p: Record<string, string>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const add = (word: string, pron: string) => {
    const w = word.trim().toLowerCase();
    const v = pron.trim().replace(/\s+/g, ' ');
    if (!w || !v) throw invalid('customized pronunciations need a word and a pronunciation');
    (out[w] ??= []).push(v);
  };
  if (p.customized_lexicon) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(p.customized_lexicon);
    } catch {
      throw invalid('customized_lexicon must be a JSON object of word → pronunciation(s)');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalid('customized_lexicon must be a JSON object');
    for (const [word, prons] of Object.entries(parsed as Record<string, unknown>)) {
      const list = Array.isArray(prons) ? prons : [prons];
      for (const pron of list) {
        if (typeof pron !== 'string') throw invalid(`customized_lexicon.${word} must be a string or a list of strings`);
        add(word, pron);
      }
    }
  }
  if (p.customized_pron) {
    for (const entry of p.customized_pron.split(';')) {
      if (!entry.trim()) continue;
      const colon = entry.indexOf(':');
      if (colon < 0) throw invalid('customized_pron entries have the form word:PRON|PRON');
      for (const pron of entry.slice(colon + 1).split('|')) add(entry.slice(0, colon), pron);
    }
  }
  return out;
}

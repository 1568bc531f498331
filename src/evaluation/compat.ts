/**
 * The legacy protocol's form parameters (spec "POST /{coreType} (compat evaluation)") mapped
 * onto the native EvaluationConfig, so both layers share one validation and one service.
 */
import { ApiError, ERRORS, invalid } from '../errors.js';
import { LANGUAGES, MAX_KEY_POINTS, NATIVE_CORE_TYPES, parseEvaluationConfig, type CoreType, type EvaluationConfig } from './config.js';
import type { CompatOptions } from './types.js';

interface CompatKind {
  coreType: CoreType;
  /** The one language family of the kind: `.cn` and `pinyin` Chinese, the others English. */
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

/** Whether `kind` names a compat kind: the compat path family (`POST /{coreType}`, `WS /{coreType}`). */
export function isCompatKind(kind: string): boolean {
  return Object.hasOwn(COMPAT_KINDS, kind);
}

/**
 * Whether `kind` is a compat name that is not also a native kind: these, and only these, are
 * 404 `Unknown coreType` at the native endpoints (`pinyin` is both and stays valid there).
 */
export function isCompatOnlyKind(kind: string): boolean {
  return isCompatKind(kind) && !(NATIVE_CORE_TYPES as readonly string[]).includes(kind);
}

/**
 * The English dialect a reading is scored in: `.pro` adaptive kinds accept the speaker's own
 * variety, so British variants are added beside the American ones (the en-GB lexicon keeps
 * both). Used by the scorer and by the real-time progress words alike.
 */
export function scoringDialect(config: EvaluationConfig, compat?: Pick<CompatOptions, 'adaptive'>): 'en-GB' | 'en-US' {
  return compat?.adaptive || config.language === 'en-GB' ? 'en-GB' : 'en-US';
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

type Read = 'string' | 'number' | 'int' | 'flag';

/**
 * The one mapping of compat parts onto native config fields. It builds the native object and
 * names the compat part in every validation message of the native parser (`refText longer
 * than 1000 characters`, `paragraph_need_word_score must be one of 0, 1`).
 */
const FIELD_MAP: ReadonlyArray<{ native: string; compat: string; read: Read }> = [
  { native: 'referenceText', compat: 'refText', read: 'string' },
  { native: 'refPinyin', compat: 'refPinyin', read: 'string' },
  { native: 'agegroup', compat: 'agegroup', read: 'int' },
  { native: 'gradeBand', compat: 'gradeBand', read: 'int' },
  { native: 'scale', compat: 'scale', read: 'number' },
  { native: 'precision', compat: 'precision', read: 'number' },
  { native: 'slack', compat: 'slack', read: 'number' },
  { native: 'paragraphNeedWordScore', compat: 'paragraph_need_word_score', read: 'int' },
  { native: 'phonemeOutput', compat: 'phoneme_output', read: 'flag' },
  { native: 'genre', compat: 'genre', read: 'string' },
  { native: 'targetEmotion', compat: 'targetEmotion', read: 'string' },
  { native: 'idempotencyKey', compat: 'idempotencyKey', read: 'string' },
];

/** Native names of every mapped field; `keyPoints` is built from `keypoints` and `keywords`. */
const COMPAT_LABELS: Record<string, string> = {
  keyPoints: 'keypoints',
  ...Object.fromEntries(FIELD_MAP.map((f) => [f.native, f.compat])),
};

/** The compat name of a native config field, for messages. */
export function compatLabel(nativeField: string): string {
  return COMPAT_LABELS[nativeField] ?? nativeField;
}

const NATIVE_NAMES = new RegExp(`\\b(${Object.keys(COMPAT_LABELS).filter((k) => COMPAT_LABELS[k] !== k).join('|')})\\b`, 'g');

/**
 * A 40001 raised below the config parser (the engines' text checks, e.g. "referenceText has no
 * readable Chinese characters") renamed with the same mapping for a compat caller.
 */
export function asCompatError(err: unknown): unknown {
  if (!(err instanceof ApiError) || err.code !== ERRORS.VALIDATION.code) return err;
  const message = err.message.replace(NATIVE_NAMES, (name) => compatLabel(name));
  return message === err.message ? err : new ApiError('VALIDATION', message, err.headers);
}

export function compatToConfig(kindName: string, fields: Record<string, string>): { config: EvaluationConfig; compat: CompatOptions } {
  const kind = COMPAT_KINDS[kindName];
  const p = compatParams(fields);
  if (!p.refText) throw invalid(kind.coreType === 'open' ? 'missing refText (the question or reference answers)' : 'missing refText');
  if (kind.coreType === 'pinyin' && !p.refPinyin) throw invalid('refPinyin is required for the pinyin kind');
  const dialect = dictDialect(p.dict_dialect);
  const native: Record<string, unknown> = { coreType: kind.coreType, language: kindLanguage(kindName, kind, p.language, dialect) };
  for (const f of FIELD_MAP) native[f.native] = read(p, f.compat, f.read);
  if (kind.coreType === 'open') {
    native.taskType = p.taskType || taskTypeFromQType(p.qType);
    native.keyPoints = compatKeyPoints(p);
  }
  return {
    config: parseEvaluationConfig(native, { label: compatLabel }),
    compat: {
      kind: kindName,
      // `.pro` turns readtype diagnosis on by default; an explicit readtype_diagnosis=0 wins.
      readtypeDiagnosis: flag(p, 'readtype_diagnosis', kind.adaptive),
      attachAudioUrl: flag(p, 'attachAudioUrl', false),
      timing: flag(p, 'timing', false),
      // `.pro` accepts British and American variants together, unless dict_dialect pins one.
      adaptive: kind.adaptive && dialect === null,
      lexicon: customLexicon(p),
      outputRawText: flag(p, 'output_rawtext', false),
    },
  };
}

/** `dict_dialect`: en_br or en_us, else 40001; null when absent. */
function dictDialect(raw: string | undefined): 'en-GB' | 'en-US' | null {
  if (raw === undefined || raw === '') return null;
  if (raw === 'en_br') return 'en-GB';
  if (raw === 'en_us') return 'en-US';
  throw invalid(`dict_dialect must be en_br or en_us (got "${raw}")`);
}

/**
 * The language of a compat call, tied to its kind (spec: `.cn` = Chinese). `language` says
 * which language and must agree with the kind (40001 naming both otherwise); absent, it is the
 * kind's own. For the English kinds `dict_dialect` says which dialect's dictionary: en_br gives
 * en-GB and en_us en-US whatever English `language` says; without it `language` decides
 * (en-US by default). Chinese kinds accept dict_dialect and ignore it.
 */
function kindLanguage(kindName: string, kind: CompatKind, language: string | undefined, dialect: 'en-GB' | 'en-US' | null): string {
  const sent = language === undefined || language === '' ? null : language;
  if (sent !== null && !(LANGUAGES as readonly string[]).includes(sent)) {
    throw invalid(`language must be one of ${LANGUAGES.join(', ')} (got "${sent}")`);
  }
  if (kind.chinese) {
    if (sent !== null && sent !== 'zh-CN') throw invalid(`coreType ${kindName} is Chinese; language ${sent} does not match it (use zh-CN or leave language out)`);
    return 'zh-CN';
  }
  if (sent === 'zh-CN') throw invalid(`coreType ${kindName} is English; language ${sent} does not match it (use en-US or en-GB, or leave language out)`);
  return dialect ?? sent ?? 'en-US';
}

function read(p: Record<string, string>, name: string, how: Read): unknown {
  switch (how) {
    case 'string':
      return p[name];
    case 'number':
      return optionalNumber(p, name);
    case 'int':
      return optionalInt(p, name);
    case 'flag':
      return p[name] === undefined || p[name] === '' ? undefined : flag(p, name, false);
  }
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

/** A 0/1 compat switch ('true'/'false' too); empty or absent gives `fallback`, anything else 40001. */
export function flag(p: Record<string, string>, name: string, fallback: boolean): boolean {
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

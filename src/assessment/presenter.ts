/**
 * The read-aloud presenter: a language-neutral Assessment in the spec's response shape
 * ("Evaluation response (read-aloud kinds)": `result`, `asrText`, `warnings`). The native and
 * compat endpoints only choose options here; English adds its own per-word fields through
 * `UnitAssessment.extra`, copied as they are.
 */
import type { EvaluationConfig } from '../evaluation/config.js';
import { shapeScore } from './shaping.js';
import type { Assessment, Dimensions, UnitAssessment } from './types.js';

export interface PresentOptions {
  /** Compat `readtype_diagnosis=1`: words[] also lists insertions (1) and repetitions (3). */
  readtypeDiagnosis?: boolean;
}

export interface ReadAloudBody {
  result: Record<string, unknown>;
  asrText: { text: string; alignment: Record<string, unknown>[] };
  warnings: { code: number; message: string }[];
}

type Shape = (v: number | null) => number | null;

/** The five-dimension weights actually applied, keyed as in the response (report.dimensionTree.weights). */
export function dimensionWeights(a: Assessment): Record<'integrity' | 'accuracy' | 'fluency' | 'reading_skill' | 'emotion', number> {
  return { integrity: a.weights.integrity, accuracy: a.weights.accuracy, fluency: a.weights.fluency, reading_skill: a.weights.readingSkill, emotion: a.weights.emotion };
}

export function presentReadAloud(a: Assessment, config: EvaluationConfig, opts: PresentOptions = {}): ReadAloudBody {
  const sh: Shape = (v) => (v === null ? null : shapeScore(v, config.scale, config.precision));
  const n = (v: number) => sh(v) as number;
  const d = a.dimensions;
  const wordsWanted = config.coreType !== 'passage' || config.paragraphNeedWordScore === 1;
  const listed = a.units.filter((u) => u.readType === 0 || u.readType === 2 || (opts.readtypeDiagnosis === true && (u.readType === 1 || u.readType === 3)));
  const word = (u: UnitAssessment) => presentWord(u, config, sh);
  const result: Record<string, unknown> = {
    overall: n(a.overall),
    integrity: n(d.integrity),
    pronunciation: n(a.sub.pronunciation),
    tone: a.sub.tone === null ? n(a.sub.pronunciation) : n(a.sub.tone),
    fluency: n(d.fluency),
    rhythm: n(d.readingSkill),
    accuracy: n(d.accuracy),
    reading_skill: n(d.readingSkill),
    emotion: n(d.emotion),
    speed: a.speed,
    rear_tone: a.rearTone,
    duration: a.durationSec.toFixed(2),
    numeric_duration: Math.round(a.durationSec * 100) / 100,
    warning: a.warnings.map((w) => ({ code: w.code, message: w.message })),
    words: wordsWanted ? listed.map(word) : [],
    sentences: a.sentences.map((s) => ({
      sentence: s.text,
      index: s.index,
      scores: { overall: n(s.scores.overall), pronunciation: n(s.scores.pronunciation), fluency: n(s.scores.fluency), integrity: n(s.scores.integrity) },
      span: s.span ?? { start: 0, end: 0 },
      details: wordsWanted ? s.units.map((i) => a.units[i]).filter((u) => listed.includes(u)).map(word) : [],
    })),
    paragraphs: a.paragraphs.map((p) => shapeParagraph(p, n)),
    compositeReport: compositeReport(a, sh),
    serviceScores: serviceScores(a, sh),
    kernel_version: a.kernelVersion,
    resource_version: a.resourceVersion,
  };
  if (a.emotionDiagnosis) result.emotionDiagnosis = { ...a.emotionDiagnosis, expressiveness: n(a.emotionDiagnosis.expressiveness) };
  return { result, asrText: asrText(a, opts), warnings: a.warnings.map((w) => ({ code: w.code, message: w.message })) };
}

function shapeParagraph(p: Record<string, unknown>, n: (v: number) => number): Record<string, unknown> {
  const out: Record<string, unknown> = { ...p };
  for (const k of ['overall', 'pronunciation', 'fluency', 'integrity']) if (typeof p[k] === 'number') out[k] = n(p[k] as number);
  return out;
}

/** Character/word score: pronunciation with tone as a 20% secondary share where there is one. */
function unitOverall(u: UnitAssessment): number {
  if (u.readStatus === 'skipped' || u.pronunciation === null) return 0;
  return u.tone?.score != null ? 0.8 * u.pronunciation + 0.2 * u.tone.score : u.pronunciation;
}

function presentWord(u: UnitAssessment, config: EvaluationConfig, sh: Shape): Record<string, unknown> {
  const scored = u.charType === 0 && u.readType === 0;
  const score = (v: number | null) => (scored && v !== null ? sh(v) : 0);
  const item: Record<string, unknown> = {
    word: u.text,
    pinyin: '',
    rawpinyin: '',
    symbolpinyin: '',
    charType: u.charType,
    readType: u.readType,
    readStatus: u.readStatus,
    read_status: u.readStatus,
    tone: '',
    scores: {
      overall: score(unitOverall(u)),
      pronunciation: score(u.pronunciation),
      tone: score(u.tone?.score ?? (u.tone ? null : u.pronunciation)),
      overall_pron: score(u.pronunciation),
      prominence: u.prominence,
      ...Object.fromEntries(Object.entries(u.extraScores ?? {}).map(([k, v]) => [k, score(v)])),
    },
    span: u.span ?? { start: 0, end: 0 },
    pause: { type: u.pauseAfter.type, duration: u.pauseAfter.duration },
    normalized_syllables: [],
    word_parts: [],
  };
  if (config.phonemeOutput) {
    item.phonemes = u.phones.map((p) => ({ phoneme: p.phoneme, phone: p.phone, category: p.category, pronunciation: Math.round(p.pronunciation), tone_index: p.toneIndex, span: p.span, ...p.extra }));
  }
  for (const [k, v] of Object.entries(u.extra)) if (k !== 'scores') item[k] = v;
  return item;
}

function compositeReport(a: Assessment, sh: Shape): Record<string, unknown> {
  const d: Dimensions = a.dimensions;
  const s = a.sub;
  const integrityScore = sh(d.integrity);
  const accuracyScore = sh(d.accuracy);
  return {
    compositeScore: sh(a.overall),
    integrityScore,
    accuracyScore,
    toneVoiceScore: sh(s.toneShape),
    toneScore: sh(s.tone),
    nasalsScore: sh(s.nasal),
    phonemeScore: sh(s.phoneme),
    fluencyScore: sh(d.fluency),
    readSpeedScore: sh(s.speedScore),
    readSpeed: a.speed,
    skillScore: sh(d.readingSkill),
    stopConnScore: sh(s.pause),
    stressScore: sh(s.stress),
    intonationScore: sh(s.intonation),
    readingRhythmScore: sh(s.rhythm),
    emotionScore: sh(d.emotion),
    integritySuggest: a.suggestions.integrity,
    accuracySuggest: a.suggestions.accuracy,
    fluencySuggest: a.suggestions.fluency,
    skillSuggest: a.suggestions.skill,
    emotionSuggest: a.suggestions.emotion,
    // Deprecated aliases (spec): always equal to their targets.
    completenessScore: integrityScore,
    pronunciationScore: accuracyScore,
  };
}

function serviceScores(a: Assessment, sh: Shape): Record<string, unknown> {
  const s = a.sub;
  return {
    accuracy: { tone: sh(s.tone), nasal: sh(s.nasal), phoneme: sh(s.phoneme) },
    fluency: { speed_score: sh(s.speedScore), naturalness: sh(s.naturalness) },
    reading_skill: { pause: sh(s.pause), stress: sh(s.stress), intonation: sh(s.intonation), rhythm_zh: sh(s.rhythm) },
    prosody: sh(s.prosody),
    emotion: sh(a.dimensions.emotion),
  };
}

const ALIGN_STATUS: Record<string, string> = { correct: 'correct', mispronounced: 'wrong', skipped: 'missed', inserted: 'inserted', repeated: 'repeated' };

function asrText(a: Assessment, opts: PresentOptions): ReadAloudBody['asrText'] {
  const units = a.units.filter((u) => u.charType === 0 && (u.readType === 0 || u.readType === 2 || (opts.readtypeDiagnosis === true && (u.readType === 1 || u.readType === 3))));
  const heardText = a.units
    .filter((u) => u.charType === 0 && u.readStatus !== 'skipped' && u.heard)
    .map((u) => (u.readStatus === 'correct' ? u.text : (u.heard!.syllable ?? u.text)))
    .join(' ');
  const alignment = units.map((u) => {
    const heardTone = u.tone?.heard ?? null;
    const syl = u.heard?.syllable ?? null;
    return {
      char: u.text,
      index: u.beginIndex,
      read_status: ALIGN_STATUS[u.readStatus],
      start_time: u.span ? u.span.start : 0,
      end_time: u.span ? u.span.end : 0,
      asr_pinyin: syl === null ? '' : `${syl}${heardTone ?? ''}`,
      asr_tone: heardTone === null ? '' : `tone${heardTone}`,
      asr_final: u.heard?.final ?? '',
      gop_score: u.gop,
    };
  });
  return { text: heardText, alignment };
}

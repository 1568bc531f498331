/**
 * The spec's read-aloud `result` ("Evaluation response (read-aloud kinds)") from an English
 * assessment, with slack, scale and precision applied. English-specific fields: `stress[]`,
 * `scores.stress`, `phonics[]`, `linkable`; each phoneme item also carries `error_type`
 * (substitution, deletion, insertion or null) and, for insertions, `inserted`.
 */
import type { EvaluationConfig } from '../../evaluation/config.js';
import { shape } from './dimensions.js';
import type { EnglishAssessment, PhoneAssessment, WordAssessment } from './types.js';

type Shaping = Pick<EvaluationConfig, 'slack' | 'scale' | 'precision' | 'phonemeOutput' | 'coreType' | 'paragraphNeedWordScore'>;

export const KERNEL_VERSION = 'kouyu-en-1.0';
export const RESOURCE_VERSION = 'cmudict-0.7b+so762-fit';

export function presentEnglishReadAloud(a: EnglishAssessment, config: Shaping): Record<string, unknown> {
  const s = (v: number) => shape(v, config);
  const d = a.dimensions;
  const words = a.words.map((w) => presentWord(w, config));
  const showWords = config.coreType !== 'passage' || config.paragraphNeedWordScore === 1;
  const speed = Math.round(a.fluencyMeasures.wordsPerMinute);
  return {
    overall: s(a.overall),
    integrity: s(d.integrity),
    pronunciation: s(d.accuracy),
    fluency: s(d.fluency),
    rhythm: s(d.readingSkill),
    accuracy: s(d.accuracy),
    reading_skill: s(d.readingSkill),
    emotion: s(d.emotion),
    speed,
    rear_tone: a.rearTone,
    duration: a.durationSec.toFixed(2),
    numeric_duration: Number(a.durationSec.toFixed(2)),
    warning: a.warnings,
    words: showWords ? words : [],
    sentences: a.sentences.map((st) => ({
      sentence: st.text,
      index: st.index,
      scores: { overall: s(st.overall), pronunciation: s(st.accuracy), fluency: s(st.fluency), integrity: s(st.integrity) },
      span: { start: st.startFrame, end: st.endFrame },
      details: showWords ? words.slice(st.firstWord, st.endWord) : [],
    })),
    paragraphs: config.coreType === 'passage' ? [{ overall: s(a.overall), sentences: a.sentences.length }] : [],
    compositeReport: {
      compositeScore: s(a.overall),
      integrityScore: s(d.integrity),
      completenessScore: s(d.integrity),
      accuracyScore: s(d.accuracy),
      pronunciationScore: s(d.accuracy),
      phonemeScore: s(d.accuracy),
      fluencyScore: s(d.fluency),
      readSpeed: speed,
      readSpeedScore: s(d.fluency),
      skillScore: s(d.readingSkill),
      stopConnScore: s(a.skill.phrasing),
      stressScore: s(a.skill.stress),
      intonationScore: s(a.skill.intonation),
      readingRhythmScore: a.text.clauses.length >= 3 ? s(a.skill.prosodic) : null,
      emotionScore: s(d.emotion),
    },
    serviceScores: {
      accuracy: { phoneme: s(d.accuracy) },
      fluency: { speed_score: s(d.fluency), naturalness: s(a.expert.fluency * 10) },
      reading_skill: { pause: s(a.skill.phrasing), stress: s(a.skill.stress), intonation: s(a.skill.intonation) },
      prosody: s(a.skill.prosodic),
      emotion: s(d.emotion),
    },
    kernel_version: KERNEL_VERSION,
    resource_version: RESOURCE_VERSION,
  };
}

function presentWord(w: WordAssessment, config: Shaping): Record<string, unknown> {
  const s = (v: number) => shape(v, config);
  const item: Record<string, unknown> = {
    word: w.text,
    charType: 0,
    readType: w.readType,
    readStatus: w.readStatus,
    read_status: w.readStatus,
    scores: { overall: s(w.overall), pronunciation: s(w.accuracy), overall_pron: s(w.accuracy), prominence: s(w.stressScore), stress: s(w.stressScore) },
    stress: w.stress.map((st) => ({ ref_stress: st.refStress, stress: st.stress, overall: s(syllableScore(w, st.firstPhone, st.endPhone)), phonetic: st.phonetic })),
    span: { start: Math.max(0, w.startFrame), end: Math.max(0, w.endFrame) },
    pause: { type: w.pauseAfterMs >= 250 ? 1 : 0, duration: Math.round(w.pauseAfterMs / 10) },
    word_parts: w.parts.map((p) => ({ part: p.part, charType: 0, beginIndex: p.beginIndex, endIndex: p.endIndex })),
    phonics: w.phonics.map((p) => ({ spell: p.spell, overall: s(p.overall) })),
    linkable: w.linkable,
  };
  if (config.phonemeOutput) item.phonemes = w.phones.map((p) => presentPhone(p, config));
  return item;
}

function presentPhone(p: PhoneAssessment, config: Shaping): Record<string, unknown> {
  return {
    phoneme: p.expected.toLowerCase(),
    phone: (p.heard ?? p.expected).toLowerCase(),
    category: p.vowel ? 1 : 0,
    pronunciation: Math.round(shape(p.score, { ...config, scale: 100, precision: 1 })),
    tone_index: '',
    error_type: p.error,
    ...(p.inserted ? { inserted: p.inserted.toLowerCase() } : {}),
    span: { start: Math.max(0, p.startFrame), end: Math.max(0, p.endFrame) },
  };
}

function syllableScore(w: WordAssessment, first: number, end: number): number {
  const ps = w.phones.slice(first, end);
  return ps.length ? ps.reduce((a, p) => a + p.score, 0) / ps.length : w.accuracy;
}

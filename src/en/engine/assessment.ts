/**
 * The English reading in the shared language-neutral Assessment (src/assessment), which the
 * shared presenter turns into the spec's response. The strictness curve (`slack`) is applied
 * here, as the shared core expects; scale and precision are the presenter's. English fields
 * ride on the core's extension points: `extra` (stress[], phonics[], linkable, word_parts),
 * `extraScores.stress` (shaped into `scores.stress`), and per-phone `extra` (`error_type`,
 * `inserted`).
 */
import { applySlack, bandScore, extraUnit, shapeScore, weightedOverall } from '../../assessment/shaping.js';
import type { Assessment, Dimensions, PhoneAssessment as CorePhone, UnitAssessment } from '../../assessment/types.js';
import type { EvaluationConfig } from '../../evaluation/config.js';
import { englishSuggestions } from './suggestions.js';
import type { EnglishAssessment, WordAssessment } from './types.js';

export const KERNEL_VERSION = 'kouyu-en-1.0';
export const RESOURCE_VERSION = 'cmudict-0.7b+speechocean762-train-fit';

/** Words per minute earning full speed marks in read-aloud (native read speech ≈ 150-190). */
const SPEED_BAND: Record<1 | 2 | 3 | 4, [number, number]> = { 1: [60, 200], 2: [80, 200], 3: [100, 210], 4: [110, 210] };

export function toAssessment(en: EnglishAssessment, config: EvaluationConfig): Assessment {
  const s = (v: number) => applySlack(v, config.slack);
  const zero = en.alignFailure !== null;
  const dims: Dimensions = {
    integrity: s(en.dimensions.integrity),
    accuracy: zero ? 0 : s(en.dimensions.accuracy),
    fluency: zero ? 0 : s(en.dimensions.fluency),
    readingSkill: zero ? 0 : s(en.dimensions.readingSkill),
    emotion: zero ? 0 : s(en.dimensions.emotion),
  };
  // The weights the engine scored the reading with (build.ts, `weightsFor`).
  const weights = en.weights;
  // Extra words (insertions, repetitions) follow the reference word they came after.
  const ordered: WordAssessment[] = en.extraWords.filter((x) => x.index < 0);
  const unitOfWord: number[] = [];
  for (const w of en.words) {
    unitOfWord[w.index] = ordered.length;
    ordered.push(w, ...en.extraWords.filter((x) => x.index === w.index));
  }
  const units = ordered.map((w) => unitOf(w, config));
  // A sentence's units run from its first word's (the reading's start for the first sentence) to the next sentence's first word's.
  const at = (k: number) => (k <= 0 ? 0 : k < en.words.length ? unitOfWord[k] : ordered.length);
  const unitsOf = (first: number, end: number) => range(at(first), at(end));
  const phones = en.words.filter((w) => w.readStatus !== 'skipped').flatMap((w) => w.phones.map((p) => p.score));
  const wpm = en.fluencyMeasures.wordsPerMinute;
  const [lo, hi] = SPEED_BAND[config.gradeBand];
  const sentences = en.sentences.map((st) => ({
    index: st.index,
    text: st.text,
    span: st.endFrame > st.startFrame ? { start: st.startFrame, end: st.endFrame } : null,
    scores: { overall: s(st.overall), pronunciation: s(st.accuracy), fluency: s(st.fluency), integrity: s(st.integrity) },
    units: unitsOf(st.firstWord, st.endWord),
  }));
  const overall = zero ? 0 : weightedOverall(dims, weights);
  return {
    language: en.language,
    coreType: config.coreType,
    units,
    sentences,
    paragraphs: config.coreType === 'passage' ? [{ index: 0, overall, pronunciation: dims.accuracy, fluency: dims.fluency, integrity: dims.integrity }] : [],
    dimensions: dims,
    sub: {
      pronunciation: dims.accuracy,
      tone: null,
      toneShape: null,
      nasal: null,
      phoneme: s(phones.length ? phones.reduce((a, b) => a + b, 0) / phones.length : 0),
      speedScore: s(bandScore(wpm, lo, hi)),
      naturalness: s(Math.min(100, (en.expert.fluency / 9) * 100)),
      pause: s(en.skill.phrasing),
      stress: s(en.skill.stress),
      intonation: s(en.skill.intonation),
      rhythm: en.text.clauses.length >= 3 ? s(en.skill.prosodic) : null,
      prosody: s(en.skill.prosodic),
    },
    overall,
    weights,
    speed: Math.round(wpm),
    rearTone: en.rearTone,
    durationSec: en.durationSec,
    warnings: en.warnings,
    suggestions: englishSuggestions(en),
    emotionDiagnosis: config.targetEmotion && !zero ? { target: config.targetEmotion, matched: dims.emotion >= 60, expressiveness: dims.emotion } : null,
    kernelVersion: KERNEL_VERSION,
    resourceVersion: RESOURCE_VERSION,
  };
}

function unitOf(w: WordAssessment, config: EvaluationConfig): UnitAssessment {
  const s = (v: number) => applySlack(v, config.slack);
  const shaped = (v: number) => shapeScore(s(v), config.scale, config.precision);
  const skipped = w.readStatus === 'skipped';
  if (w.readType === 1 || w.readType === 3) return extraWordUnit(w);
  const phones: CorePhone[] = w.phones.map((p) => ({
    phoneme: p.expected.toLowerCase(),
    phone: (p.heard ?? p.expected).toLowerCase(),
    category: p.vowel ? 1 : 0,
    pronunciation: s(p.score),
    toneIndex: '',
    span: { start: Math.max(0, p.startFrame), end: Math.max(0, p.endFrame) },
    extra: { error_type: p.error, ...(p.inserted ? { inserted: p.inserted.toLowerCase() } : {}) },
  }));
  const matched = w.stress.some((st) => st.refStress === 1 && st.stress === 1);
  return {
    text: w.text,
    charType: 0,
    readType: w.readType,
    readStatus: w.readStatus,
    beginIndex: w.beginIndex,
    endIndex: w.endIndex,
    sentence: w.sentenceIndex,
    span: skipped ? null : { start: w.startFrame, end: w.endFrame },
    pronunciation: skipped ? null : s(w.accuracy),
    gop: skipped ? null : Math.round(mean(w.phones.map((p) => p.score))),
    prominence: !skipped && matched ? 1 : 0,
    tone: null,
    pauseAfter: { type: w.pauseAfterMs >= 250 ? 1 : 0, duration: Math.round(w.pauseAfterMs / 10) },
    phones,
    extra: {
      stress: w.stress.map((st) => ({ ref_stress: st.refStress, stress: st.stress, overall: shaped(syllableScore(w, st.firstPhone, st.endPhone)), phonetic: st.phonetic })),
      phonics: w.phonics.map((p) => ({ spell: p.spell, overall: shaped(p.overall) })),
      linkable: w.linkable,
      word_parts: w.parts.map((p) => ({ part: p.part, charType: 0, beginIndex: p.beginIndex, endIndex: p.endIndex })),
    },
    extraScores: { stress: skipped ? 0 : s(w.stressScore) },
    heard: skipped ? null : { text: w.text, syllable: null, final: null },
  };
}

/** An inserted or repeated word: a span and what was heard, no scores. */
function extraWordUnit(w: WordAssessment): UnitAssessment {
  return extraUnit({
    text: w.text,
    readType: w.readType,
    readStatus: w.readStatus,
    beginIndex: w.beginIndex,
    endIndex: w.endIndex,
    sentence: w.sentenceIndex,
    span: { start: w.startFrame, end: w.endFrame },
    extra: { stress: [], phonics: [], linkable: false, word_parts: [], heard_phones: w.pronunciation.toLowerCase() },
    heard: { text: w.text, syllable: null, final: null },
  });
}

function syllableScore(w: WordAssessment, first: number, end: number): number {
  const ps = w.phones.slice(first, end);
  return ps.length ? mean(ps.map((p) => p.score)) : w.accuracy;
}

function mean(v: number[]): number {
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : 0;
}

function range(a: number, b: number): number[] {
  return Array.from({ length: Math.max(0, b - a) }, (_, i) => a + i);
}

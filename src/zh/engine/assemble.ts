/**
 * From judged units to the assessment's dimensions, sentences, paragraphs and warnings
 * (spec "result fields", warnings 1001 and 1005). Mandarin specifics: tone is a secondary
 * indicator inside accuracy (rubric v20260705a), nasalsScore follows nasal finals.
 */
import type { QualityWarning } from '../../audio/quality.js';
import { QUALITY_WARNINGS } from '../../audio/quality.js';
import { applySlack, weightedOverall, weightsFor } from '../../assessment/shaping.js';
import type { Assessment, Dimensions, SentenceAssessment, SubIndicators, UnitAssessment } from '../../assessment/types.js';
import type { EvaluationConfig } from '../../evaluation/config.js';
import { isNasalFinal } from './pinyin-format.js';
import type { ProsodyScores } from './prosody.js';
import { suggestionsFor } from './suggestions.js';
import type { ZhText } from './text.js';

/** Tone's share of accuracy (secondary indicator): pronunciation 0.75, tone 0.25. */
export const TONE_SHARE = 0.25;
/** Omission ratio from which the reading counts as incomplete (warning 1005). */
export const INCOMPLETE_RATIO = 0.3;
/** Trailing run of skipped characters that also means a cut-off reading (with ≥ 15% skipped). */
export const TRAILING_SKIPS = 3;

const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

function readUnits(units: readonly UnitAssessment[]): UnitAssessment[] {
  return units.filter((u) => u.charType === 0 && u.readType !== 1 && u.readType !== 3);
}

export function integrityOf(units: readonly UnitAssessment[]): number {
  const read = readUnits(units);
  if (read.length === 0) return 0;
  const covered = read.filter((u) => u.readStatus !== 'skipped').length;
  const inserted = units.filter((u) => u.readType === 1).length;
  return (100 * covered) / (read.length + 0.5 * inserted);
}

function pronOf(u: UnitAssessment): number {
  return u.readStatus === 'skipped' ? 0 : (u.pronunciation ?? 100);
}

export function accuracyParts(units: readonly UnitAssessment[]): { pron: number; tone: number | null; toneShape: number | null; nasal: number | null; phoneme: number } {
  const read = readUnits(units).filter((u) => u.readStatus !== 'skipped');
  const tones = read.flatMap((u) => (u.tone && u.tone.score !== null ? [u.tone.score] : []));
  const shapes = read.flatMap((u) => (u.tone && u.tone.shape !== null ? [u.tone.shape] : []));
  const nasal = read.filter((u) => isNasalFinal(String((u.extra.pinyin as string) ?? '')));
  const nasalScores = nasal.map((u) => {
    const heardFinal = u.heard?.final ?? '';
    const refFinal = String(u.extra.pinyin ?? '');
    // A front/back nasal swap (an/ang, en/eng, in/ing) is the error this indicator follows.
    const swapped = u.readStatus === 'mispronounced' && isNasalFinal(heardFinal) && heardFinal.endsWith('ng') !== refFinal.endsWith('ng');
    return swapped ? 0 : pronOf(u);
  });
  const phones = read.flatMap((u) => u.phones.map((p) => p.pronunciation));
  return {
    pron: mean(read.map(pronOf)),
    tone: tones.length ? mean(tones) : null,
    toneShape: shapes.length ? mean(shapes) : null,
    nasal: nasalScores.length ? mean(nasalScores) : null,
    phoneme: phones.length ? mean(phones) : mean(read.map(pronOf)),
  };
}

export function warningsFor(units: readonly UnitAssessment[], quality: readonly QualityWarning[], noEvidence: boolean): QualityWarning[] {
  const out = quality.filter((w) => w.code !== 1001 && w.code !== 1005);
  const read = readUnits(units);
  const skipped = read.filter((u) => u.readStatus === 'skipped').length;
  const ratio = read.length ? skipped / read.length : 1;
  let trailing = 0;
  for (let i = read.length - 1; i >= 0 && read[i].readStatus === 'skipped'; i--) trailing++;
  if (noEvidence || quality.some((w) => w.code === 1001)) out.unshift({ ...QUALITY_WARNINGS.NO_SPEECH });
  else if (ratio >= INCOMPLETE_RATIO || (trailing >= TRAILING_SKIPS && ratio >= 0.15) || quality.some((w) => w.code === 1005 && ratio > 0)) out.push({ ...QUALITY_WARNINGS.INCOMPLETE });
  return out.sort((a, b) => a.code - b.code);
}

export interface AssembleInput {
  config: EvaluationConfig;
  text: ZhText;
  units: UnitAssessment[];
  prosody: ProsodyScores;
  quality: QualityWarning[];
  noEvidence: boolean;
  durationSec: number;
  versions: { kernel: string; resource: string };
}

export function assemble(a: AssembleInput): Assessment {
  const { config, units, prosody: p } = a;
  const s = (v: number) => applySlack(v, config.slack);
  const acc = accuracyParts(units);
  const accuracy = acc.tone === null ? acc.pron : (1 - TONE_SHARE) * acc.pron + TONE_SHARE * acc.tone;
  const zero = a.noEvidence;
  const dims: Dimensions = {
    integrity: s(integrityOf(units)),
    accuracy: zero ? 0 : s(accuracy),
    fluency: zero ? 0 : s(p.fluency),
    readingSkill: zero ? 0 : s(p.readingSkill),
    emotion: zero ? 0 : s(p.emotion),
  };
  const weights = weightsFor(config.coreType, config.gradeBand);
  const sub: SubIndicators = {
    pronunciation: s(acc.pron),
    tone: acc.tone === null ? null : s(acc.tone),
    toneShape: acc.toneShape === null ? null : s(acc.toneShape),
    nasal: acc.nasal === null ? null : s(acc.nasal),
    phoneme: s(acc.phoneme),
    speedScore: s(p.speedScore),
    naturalness: s(p.naturalness),
    pause: s(p.pause),
    stress: s(p.stress),
    intonation: s(p.intonation),
    rhythm: p.rhythm === null ? null : s(p.rhythm),
    prosody: s(mean([p.stress, p.intonation, ...(p.rhythm === null ? [] : [p.rhythm])])),
  };
  const overall = zero ? 0 : weightedOverall(dims, weights);
  const sentences = sentencesOf(a.text, units, dims, p.breaksBySentence);
  const warnings = warningsFor(units, a.quality, a.noEvidence);
  return {
    language: 'zh-CN',
    coreType: config.coreType,
    units,
    sentences,
    paragraphs: paragraphsOf(config.referenceText, sentences),
    dimensions: dims,
    sub,
    overall,
    weights,
    speed: Math.round(p.speed),
    rearTone: p.rearTone,
    durationSec: a.durationSec,
    warnings,
    suggestions: suggestionsFor(units, dims, sub, p),
    emotionDiagnosis: config.targetEmotion && !zero ? { target: config.targetEmotion, matched: dims.emotion >= 60, expressiveness: dims.emotion } : null,
    kernelVersion: a.versions.kernel,
    resourceVersion: a.versions.resource,
  };
}

function sentencesOf(text: ZhText, units: readonly UnitAssessment[], dims: Dimensions, breaks: ReadonlyMap<number, number>): SentenceAssessment[] {
  return text.sentences.map((sen) => {
    const idx = units.flatMap((u, i) => (u.sentence === sen.index ? [i] : []));
    const mine = idx.map((i) => units[i]);
    const spans = mine.flatMap((u) => (u.span ? [u.span] : []));
    const pron = accuracyParts(mine).pron;
    const integrity = integrityOf(mine);
    // Sentence fluency: the reading's fluency, lowered by the breaks inside this sentence's
    // clauses (pauses at punctuation and phrase breaks are none: prosody.ts).
    const fluency = Math.max(0, dims.fluency - 10 * (breaks.get(sen.index) ?? 0));
    return {
      index: sen.index,
      text: sen.text,
      span: spans.length ? { start: spans[0].start, end: spans[spans.length - 1].end } : null,
      scores: { overall: 0.5 * pron + 0.3 * integrity + 0.2 * fluency, pronunciation: pron, fluency, integrity },
      units: idx,
    };
  });
}

/** Paragraphs are separated by line breaks in the reference; each aggregates its sentences. */
function paragraphsOf(reference: string, sentences: readonly SentenceAssessment[]): Record<string, unknown>[] {
  const paras = reference.split(/\n+/).filter((p) => p.trim() !== '');
  const out: Record<string, unknown>[] = [];
  let si = 0;
  paras.forEach((para, index) => {
    const mine: SentenceAssessment[] = [];
    let rest = para.replace(/\s/g, '');
    while (si < sentences.length && rest.length > 0) {
      mine.push(sentences[si]);
      rest = rest.slice(sentences[si].text.replace(/\s/g, '').length);
      si++;
    }
    if (index === paras.length - 1) while (si < sentences.length) mine.push(sentences[si++]);
    const avg = (f: (s: SentenceAssessment) => number) => mean(mine.map(f));
    out.push({ index, text: para.trim(), sentences: mine.map((s) => s.index), overall: avg((s) => s.scores.overall), pronunciation: avg((s) => s.scores.pronunciation), fluency: avg((s) => s.scores.fluency), integrity: avg((s) => s.scores.integrity) });
  });
  return out;
}

/**
 * From an Assessment (Mandarin or English, src/assessment/types.ts) to the report's evidence:
 * levels instead of numbers, and findings that name what happened, each under the dimension
 * rubric v20260705a puts it in (tone under accuracy; pace under fluency).
 *
 * Thresholds are on the engines' 0–100 scales; pause lengths are 10 ms frames. Mandarin
 * pause tolerance and speech-rate bands come from the Mandarin engine (src/zh/engine/prosody.ts)
 * so the report judges by the same genre rules the score used.
 */
import type { Assessment, UnitAssessment } from '../assessment/types.js';
import { judgesDelivery } from '../assessment/shaping.js';
import type { EvaluationConfig, Genre } from '../evaluation/config.js';
import { analyzeRequestText } from '../zh/engine/engine.js';
import { BOUNDARY_PAUSE, LOWER_BOUND_FACTOR, PAUSE_TOLERANCE, RATE_BANDS } from '../zh/engine/prosody.js';
import { between, readUnits, refMaker } from './refs.js';
import { fnv1a } from './vary.js';
import { levelOf, type DimensionKey, type Finding, type ReportEvidence } from './types.js';

/** A skipped run this long at the end of the text means the reading stopped early. */
const UNFINISHED_RUN = 3;
/** Read units under this pronunciation score are named as unclear (when not already misread). */
const UNCLEAR_BELOW = 55;
/** English: a silence inside a phrase longer than this breaks it (frames; 500 ms as the engine's sentence fluency). */
const EN_PAUSE_TOLERANCE = 50;
/** English read-aloud: centre of the full-score band of native read speech (≈150–190 wpm). */
const EN_PACE_CENTRE = 160;
/** Sub-indicator levels under which a finding is raised (0–100). */
const PACE_OK = 80;
const NATURAL_OK = 65;
const INTONATION_OK = 65;
const EMOTION_OK = 70;
const STRESS_OK = 60;
/** At most this many findings of one kind are named; the rest are summarised. */
export const MAX_NAMED = 4;

export function isAssessment(value: unknown): value is Assessment {
  const a = value as Assessment;
  return !!a && typeof a === 'object' && Array.isArray(a.units) && !!a.dimensions && !!a.sub && !!a.weights;
}

function genreOf(config: EvaluationConfig): Genre | null {
  if (config.language !== 'zh-CN') return null;
  if (config.genre) return config.genre;
  try {
    // The same analysis (and automatic genre) the Mandarin engine scored with.
    return analyzeRequestText(config).genre;
  } catch {
    return 'prose';
  }
}

export function buildEvidence(a: Assessment, config: EvaluationConfig): ReportEvidence {
  const zh = a.language === 'zh-CN';
  const genre = genreOf(config);
  const read = readUnits(a.units);
  const noEvidence = a.warnings.some((w) => w.code === 1001) || read.every((u) => u.readStatus === 'skipped');
  const scores: Record<DimensionKey, number> = {
    integrity: a.dimensions.integrity,
    accuracy: a.dimensions.accuracy,
    fluency: a.dimensions.fluency,
    reading_skill: a.dimensions.readingSkill,
    emotion: a.dimensions.emotion,
  };
  const levels = Object.fromEntries(Object.entries(scores).map(([k, v]) => [k, levelOf(v)])) as ReportEvidence['levels'];
  const weights = { integrity: a.weights.integrity, accuracy: a.weights.accuracy, fluency: a.weights.fluency, reading_skill: a.weights.readingSkill, emotion: a.weights.emotion };
  const pace = paceOf(a, config, genre, noEvidence);
  const ctx: Ctx = { a, config, zh, genre, read, ref: refMaker(config.referenceText, a.units, zh) };
  const findings = noEvidence
    ? [{ id: 'no-evidence', kind: 'no-evidence' as const, dimension: 'integrity' as const, severity: 1, refs: [] }]
    : [...integrityFindings(ctx), ...accuracyFindings(ctx), ...fluencyFindings(ctx, pace), ...skillFindings(ctx), ...emotionFindings(ctx)];
  const quality = a.warnings.filter((w) => w.code >= 1002 && w.code <= 1004).map((w) => w.code);
  if (quality.length) findings.push({ id: 'audio-quality', kind: 'audio-quality', dimension: 'accuracy', severity: 0.3, refs: [], codes: quality });
  const seedText = `${config.referenceText}|${read.map((u) => (u.tone?.error ? 't' : u.readStatus[0])).join('')}|${a.speed}|${config.gradeBand}`;
  return {
    language: a.language,
    coreType: a.coreType,
    gradeBand: config.gradeBand,
    genre,
    scores,
    levels,
    weights,
    toneLevel: zh && a.sub.tone !== null ? levelOf(a.sub.tone) : null,
    pace,
    findings,
    noEvidence,
    singleItem: !judgesDelivery(config.coreType),
    unitCount: read.length,
    seed: fnv1a(seedText),
  };
}

interface Ctx {
  a: Assessment;
  config: EvaluationConfig;
  zh: boolean;
  genre: Genre | null;
  read: UnitAssessment[];
  ref: ReturnType<typeof refMaker>;
}

function paceOf(a: Assessment, config: EvaluationConfig, genre: Genre | null, noEvidence: boolean): ReportEvidence['pace'] {
  if (noEvidence || a.speed <= 0 || config.coreType === 'word' || config.coreType === 'alpha') return 'unknown';
  if (a.sub.speedScore >= PACE_OK) return 'ok';
  if (genre) {
    const [lo, hi] = RATE_BANDS[genre];
    const low = lo * LOWER_BOUND_FACTOR[config.gradeBand];
    return a.speed > hi ? 'fast' : a.speed < low ? 'slow' : a.speed > (low + hi) / 2 ? 'fast' : 'slow';
  }
  return a.speed > EN_PACE_CENTRE ? 'fast' : 'slow';
}

/** Consecutive runs of units satisfying `pick`, in reading order. */
function runs(units: readonly UnitAssessment[], pick: (u: UnitAssessment) => boolean): UnitAssessment[][] {
  const out: UnitAssessment[][] = [];
  let cur: UnitAssessment[] = [];
  for (const u of units) {
    if (pick(u)) cur.push(u);
    else if (cur.length) (out.push(cur), (cur = []));
  }
  if (cur.length) out.push(cur);
  return out;
}

function integrityFindings(c: Ctx): Finding[] {
  const out: Finding[] = [];
  const inserted = runs(c.a.units, (u) => u.readType === 1);
  // Something else read in place of the text: an insertion directly followed by a skipped run
  // (the aligner's way of seeing 周边 read for 周围) is named as one replacement.
  const replacedBy = new Map<UnitAssessment, UnitAssessment[]>();
  for (const run of inserted) {
    const next = c.a.units[c.a.units.indexOf(run[run.length - 1]) + 1];
    if (next && next.readStatus === 'skipped' && next.charType === 0) replacedBy.set(next, run);
  }
  const skippedRuns = runs(c.read, (u) => u.readStatus === 'skipped');
  const last = skippedRuns[skippedRuns.length - 1];
  const trailing = last && last[last.length - 1] === c.read[c.read.length - 1] && last.length >= Math.min(UNFINISHED_RUN, c.read.length);
  for (const run of skippedRuns) {
    const by = replacedBy.get(run[0]);
    if (by) {
      out.push({ id: `replaced:${run[0].beginIndex}`, kind: 'replaced', dimension: 'integrity', severity: Math.min(1, 0.5 + 0.1 * run.length), refs: run.map(c.ref), heard: by.map((u) => u.text).join(' ') });
      continue;
    }
    const end = trailing && run === last;
    out.push({ id: `${end ? 'unfinished' : 'skipped'}:${run[0].beginIndex}`, kind: end ? 'unfinished' : 'skipped', dimension: 'integrity', severity: Math.min(1, 0.5 + 0.1 * run.length), refs: run.map(c.ref) });
  }
  const used = new Set([...replacedBy.values()]);
  for (const run of inserted.filter((r) => !used.has(r))) {
    const prev = c.a.units.slice(0, c.a.units.indexOf(run[0])).reverse().find((u) => u.readType === 0 || u.readType === 2);
    out.push({ id: `inserted:${prev?.beginIndex ?? -1}`, kind: 'inserted', dimension: 'integrity', severity: 0.4, refs: prev ? [c.ref(prev)] : [], heard: run.map((u) => u.text).join(' ') });
  }
  return out;
}

function accuracyFindings(c: Ctx): Finding[] {
  const out: Finding[] = [];
  for (const u of c.read) {
    if (u.readStatus === 'mispronounced') {
      const bad = worstPhone(u);
      out.push({
        id: `misread:${u.beginIndex}`,
        kind: c.zh ? 'misread' : bad ? 'phone' : 'misread',
        dimension: 'accuracy',
        severity: 0.8,
        refs: [c.ref(u)],
        heard: c.zh ? (u.heard?.syllable ?? null) : null,
        ...(bad && !c.zh ? { phone: bad } : {}),
      });
    } else if (u.readStatus === 'correct' && u.tone?.error) {
      out.push({ id: `tone:${u.beginIndex}`, kind: 'tone', dimension: 'accuracy', severity: 0.6, refs: [c.ref(u)], tone: { expected: u.tone.expected, citation: u.tone.citation, heard: u.tone.heard } });
    }
  }
  const named = new Set(out.map((f) => f.refs[0].index));
  const unclear = c.read
    .filter((u) => u.readStatus === 'correct' && u.pronunciation !== null && u.pronunciation < UNCLEAR_BELOW && !named.has(u.beginIndex))
    .sort((x, y) => (x.pronunciation ?? 0) - (y.pronunciation ?? 0))
    .slice(0, MAX_NAMED);
  for (const u of unclear) {
    const bad = c.zh ? null : worstPhone(u);
    out.push({ id: `unclear:${u.beginIndex}`, kind: 'unclear', dimension: 'accuracy', severity: 0.4, refs: [c.ref(u)], ...(bad ? { phone: bad } : {}) });
  }
  if (!c.zh) out.push(...stressFindings(c));
  return out;
}

/** English: the phone with an error type, else the lowest-scored phone under the unclear line. */
function worstPhone(u: UnitAssessment): Finding['phone'] | null {
  const flagged = u.phones.filter((p) => typeof (p as { extra?: { error_type?: unknown } }).extra?.error_type === 'string');
  const pool = flagged.length ? flagged : u.phones.filter((p) => p.pronunciation < UNCLEAR_BELOW);
  const p = [...pool].sort((x, y) => x.pronunciation - y.pronunciation)[0];
  if (!p) return null;
  const error = (p as { extra?: { error_type?: string } }).extra?.error_type ?? null;
  return { expected: p.phoneme, heard: p.phone !== p.phoneme ? p.phone : null, error };
}

interface StressItem {
  ref_stress: number;
  stress: number;
}

function stressFindings(c: Ctx): Finding[] {
  const out: Finding[] = [];
  for (const u of c.read) {
    const st = u.extra.stress;
    // Only words whose stress the engine itself scored low (English `extraScores.stress`, 0–100).
    const stressScore = (u as { extraScores?: { stress?: unknown } }).extraScores?.stress;
    if (u.readStatus !== 'correct' || !Array.isArray(st) || st.length < 2 || typeof stressScore !== 'number' || stressScore >= STRESS_OK) continue;
    const items = st as StressItem[];
    const ref = items.findIndex((s) => s.ref_stress === 1);
    const made = items.findIndex((s) => s.stress === 1);
    if (ref < 0 || made < 0 || ref === made) continue;
    const where = ref === 0 ? 'start' : ref === items.length - 1 ? 'end' : 'middle';
    out.push({ id: `stress:${u.beginIndex}`, kind: 'stress', dimension: 'accuracy', severity: 0.35, refs: [c.ref(u)], heard: where });
  }
  return out.slice(0, 3);
}

function fluencyFindings(c: Ctx, pace: ReportEvidence['pace']): Finding[] {
  const out: Finding[] = [];
  const tolerance = c.genre ? PAUSE_TOLERANCE[c.genre] : EN_PAUSE_TOLERANCE;
  const spoken = c.read.filter((u) => u.readStatus !== 'skipped');
  for (let i = 0; i + 1 < spoken.length; i++) {
    const [u, v] = [spoken[i], spoken[i + 1]];
    if (u.sentence !== v.sentence || u.pauseAfter.duration <= tolerance) continue;
    if (/[\p{P}]/u.test(between(c.config.referenceText, u, v))) continue;
    out.push({ id: `break:${u.beginIndex}`, kind: 'phrase-break', dimension: 'fluency', severity: Math.min(0.7, 0.3 + u.pauseAfter.duration / 300), refs: [c.ref(u), c.ref(v)] });
  }
  for (const run of runs(c.a.units, (u) => u.readType === 3)) {
    const prev = c.a.units.slice(0, c.a.units.indexOf(run[0])).reverse().find((u) => u.readType === 0);
    out.push({ id: `repeated:${prev?.beginIndex ?? -1}`, kind: 'repeated', dimension: 'fluency', severity: 0.35, refs: prev ? [c.ref(prev)] : [] });
  }
  if (pace === 'fast' || pace === 'slow') out.push({ id: `pace`, kind: pace === 'fast' ? 'pace-fast' : 'pace-slow', dimension: 'fluency', severity: (100 - c.a.sub.speedScore) / 100, refs: [] });
  if (c.a.sub.naturalness < NATURAL_OK && spoken.length >= 4) out.push({ id: 'uneven', kind: 'uneven', dimension: 'fluency', severity: (100 - c.a.sub.naturalness) / 150, refs: [] });
  return out;
}

function skillFindings(c: Ctx): Finding[] {
  const out: Finding[] = [];
  const spoken = c.read.filter((u) => u.readStatus !== 'skipped');
  for (let i = 0; i + 1 < spoken.length; i++) {
    const [u, v] = [spoken[i], spoken[i + 1]];
    if (!/[,，;；:：.。!！?？、]/.test(between(c.config.referenceText, u, v))) continue;
    if (u.pauseAfter.duration >= BOUNDARY_PAUSE) continue;
    out.push({ id: `boundary:${u.beginIndex}`, kind: 'boundary', dimension: 'reading_skill', severity: 0.3, refs: [c.ref(u), c.ref(v)] });
  }
  if (c.a.sub.intonation < INTONATION_OK && spoken.length >= 4) out.push({ id: 'flat-pitch', kind: 'flat-pitch', dimension: 'reading_skill', severity: (100 - c.a.sub.intonation) / 150, refs: [] });
  const question = /[?？]\s*$/.test(c.config.referenceText.trim());
  if (question && c.a.rearTone !== 'rise' && c.config.coreType !== 'word') {
    out.push({ id: 'rear-tone', kind: 'rear-tone', dimension: 'reading_skill', severity: 0.3, refs: [] });
  }
  return out;
}

function emotionFindings(c: Ctx): Finding[] {
  const out: Finding[] = [];
  const d = c.a.emotionDiagnosis;
  if (d) out.push({ id: 'target-emotion', kind: 'target-emotion', dimension: 'emotion', severity: d.matched ? 0.1 : 0.5, refs: [], target: { label: d.target, matched: d.matched } });
  if (c.a.dimensions.emotion < EMOTION_OK && c.config.coreType !== 'word' && c.config.coreType !== 'alpha') {
    out.push({ id: 'flat-emotion', kind: 'flat-emotion', dimension: 'emotion', severity: (100 - c.a.dimensions.emotion) / 150, refs: [] });
  }
  return out;
}

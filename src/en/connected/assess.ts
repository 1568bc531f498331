/**
 * The connected-speech result (spec "Connected-speech result", coreType connected, en-US):
 * boundaries with tags and realisation, sub-scores for linking, rhythm, elision and
 * reduction, and the raw metrics. Rule-based on the forced alignment: not calibrated against
 * human connected-speech ratings (none are available), so `calibrated` and `classifier` are
 * false; `posterior_used` is true because elision uses the phones' GOP.
 */
import { isVowel } from '../lexicon/index.js';
import type { ReadingEvidence } from '../engine/evidence.js';
import type { ScoredReading } from '../engine/score.js';
import type { SignalFrames } from '../engine/signal.js';
import type { ReadingPlan } from '../engine/plan.js';
import { judgeBoundaries, type Boundary } from './boundaries.js';
import { rhythmMetrics, type RhythmMetrics } from './rhythm.js';

export interface ConnectedResult {
  connectedOverall: number;
  linking: number;
  rhythm: number;
  elision: number;
  reduction: number;
  nBoundaries: number;
  boundaries: Boundary[];
  linkable: boolean[];
  raw: RhythmMetrics & {
    linking_rate: number | null;
    elision_rate: number | null;
    weak_form_rate: number | null;
    mean_gap_ms: number;
    words_per_minute: number;
    accuracy: number;
  };
  calibrated: false;
  classifier: false;
  posterior_used: true;
  alignFailure: string | null;
  warnings: { code: number; message: string }[];
}

/** nPVI_V at which rhythm gets no marks and full marks (Grabe & Low 2002: Mandarin ≈ 27-45, English ≈ 57-73). */
export const NPVI_FLOOR = 35;
export const NPVI_FULL = 57;
/** An unstressed function-word vowel this short (frames) counts as reduced even in its full form. */
const REDUCED_VOWEL_FRAMES = 7;

export function assessConnectedSpeech(
  reading: { plan: ReadingPlan; evidence: ReadingEvidence; signal: SignalFrames },
  scored: ScoredReading,
  warnings: { code: number; message: string }[],
): ConnectedResult {
  const ev = reading.evidence;
  const boundaries = judgeBoundaries(ev.words);
  const rhythm = rhythmMetrics(ev.words.flatMap((w) => (w.status === 'read' ? w.phones : [])));
  const rate = (xs: (boolean | null)[]) => {
    const judged = xs.filter((v): v is boolean => v !== null);
    return judged.length ? judged.filter(Boolean).length / judged.length : null;
  };
  const linkingRate = rate(boundaries.map((b) => b.linkRealized));
  const elisionRate = rate(boundaries.map((b) => b.elisionRealized));
  const weakRate = rate(ev.words.filter((w) => w.entry.functionWord && w.status === 'read').map((w) => isReduced(w)));
  const rhythmScore = ev.ok ? clamp(((rhythm.nPVI_V - NPVI_FLOOR) / (NPVI_FULL - NPVI_FLOOR)) * 100) : 0;
  const pct = (r: number | null) => (ev.ok ? (r === null ? 100 : r * 100) : 0);
  const linking = pct(linkingRate);
  const elision = pct(elisionRate);
  const reduction = pct(weakRate);
  const accuracy = clamp((scored.utterance.accuracy / 9) * 100);
  // Connected-speech features only count on words actually said right: scale by accuracy.
  const connected = 0.35 * linking + 0.3 * rhythmScore + 0.2 * reduction + 0.15 * elision;
  return {
    connectedOverall: round1(ev.ok ? connected * (0.5 + 0.5 * accuracy / 100) : 0),
    linking: round1(linking),
    rhythm: round1(rhythmScore),
    elision: round1(elision),
    reduction: round1(reduction),
    nBoundaries: Math.max(0, ev.words.length - 1),
    boundaries,
    linkable: ev.words.map((w) => w.entry.linkable),
    raw: {
      ...rhythm,
      linking_rate: linkingRate,
      elision_rate: elisionRate,
      weak_form_rate: weakRate,
      mean_gap_ms: boundaries.length ? boundaries.reduce((a, b) => a + b.gapMs, 0) / boundaries.length : 0,
      words_per_minute: scored.fluency.wordsPerMinute,
      accuracy: round1(accuracy),
    },
    calibrated: false,
    classifier: false,
    posterior_used: true,
    alignFailure: ev.failure,
    warnings,
  };
}

function isReduced(w: ReadingEvidence['words'][number]): boolean {
  if (w.pron.source === 'weak') return true;
  const vowels = w.phones.filter((p) => isVowel(p.phone));
  return vowels.length > 0 && vowels.every((p) => p.endFrame - p.startFrame <= REDUCED_VOWEL_FRAMES);
}

function clamp(v: number): number {
  return Math.max(0, Math.min(100, Number.isFinite(v) ? v : 0));
}

function round1(v: number): number {
  return Math.round(v * 10) / 10;
}

/**
 * Tone features of the syllables of one utterance from its F0 and level tracks. Pure.
 *
 * Pitch is taken in semitones around the speaker's own median, with the utterance's declination
 * removed, and also scaled by the speaker's 10–90% range, so the same model serves low and high,
 * narrow and wide voices (speaker normalisation as in Rose 1987, z-scored log F0). Each
 * syllable's contour is taken over its final only (the initial's consonant carries no lexical
 * tone and its onset perturbs F0: Xu 1997, "Contextual tonal variations in Mandarin",
 * J. Phonetics 25). Context carries the neighbours' contours, the pauses around the syllable,
 * its place in the utterance and the neighbours' expected tones, since a tone's realisation
 * bends towards its neighbours (carry-over and anticipatory effects, Xu 1997) and drifts down
 * over a phrase.
 */
import { resampleContour } from '../../dsp/contour.js';

export interface PitchContext {
  f0: Float32Array;
  voicing: Float32Array;
  /** Speaker median F0, Hz (reference of the semitone scale). */
  medianHz: number;
  /** Speaker 10–90% range in semitones (at least 4, see RANGE_FLOOR_ST). */
  rangeSt: number;
  /** Level per frame, dB (trackPitch). */
  levelDb: Float32Array;
}

/** The utterance as the features read it (normalisedTrack). */
export interface ToneTrack {
  /** Semitones around the speaker median, declination removed; NaN = unvoiced. */
  st: Float32Array;
  rangeSt: number;
  /** Level per frame, dB below the utterance's loud frames (95th percentile). */
  level: Float32Array;
}

export interface SyllableSpan {
  /** Final's span in 10 ms frames (end exclusive). */
  startFrame: number;
  endFrame: number;
  /** The whole syllable's span (initial and final), for pauses and duration. */
  syllableStart: number;
  syllableEnd: number;
}

/** Offsets of the syllables whose expected tones are inputs (one-hot 1–5 each). */
export const TONE_CONTEXT = [-1, 1] as const;
/** Number of contour points sampled over the final. */
export const CONTOUR_POINTS = 5;
/** Contour points of each neighbour's final. */
const NEIGHBOUR_POINTS = 3;
/** Ranges narrower than this (monotone or short recordings) are widened to it, semitones. */
export const RANGE_FLOOR_ST = 4;
/** Frames with voicing probability below this are ignored. */
const MIN_VOICING = 0.3;
/**
 * Own contour (semitones, range-scaled), shape (slope, curvature, turning points, excursion),
 * durations and voicing, level (against the loud frames and the neighbours, and its slope),
 * each neighbour's contour with a presence flag and the pause to it,
 * place in the utterance, level against the local neighbourhood, neighbours' expected tones.
 */
export const FEATURE_COUNT = 2 * CONTOUR_POINTS + 8 + 3 + 2 * (NEIGHBOUR_POINTS + 2) + 3 + 1 + 5 * TONE_CONTEXT.length;

/**
 * Semitones around the speaker median with the utterance's declination removed: a least-squares
 * line over the voiced frames, its slope kept between −3 and 0 semitones per second (read
 * Mandarin sentences fall by about 1–2 st/s; a rising fit over a short utterance is its tones,
 * not declination), is subtracted, pivoting at the middle of the voiced frames. NaN = unvoiced.
 */
function normalisedPitch(ctx: PitchContext): Float32Array {
  const n = ctx.f0.length;
  const st = new Float32Array(n);
  let sx = 0;
  let sy = 0;
  let k = 0;
  for (let i = 0; i < n; i++) {
    const voiced = ctx.f0[i] > 0 && ctx.voicing[i] >= MIN_VOICING;
    st[i] = voiced ? 12 * Math.log2(ctx.f0[i] / ctx.medianHz) : NaN;
    if (voiced) {
      sx += i;
      sy += st[i];
      k++;
    }
  }
  if (k < 2) return st;
  const mx = sx / k;
  const my = sy / k;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(st[i])) continue;
    sxx += (i - mx) ** 2;
    sxy += (i - mx) * (st[i] - my);
  }
  const perFrame = Math.max(-0.03, Math.min(0, sxx > 0 ? sxy / sxx : 0));
  for (let i = 0; i < n; i++) if (!Number.isNaN(st[i])) st[i] -= perFrame * (i - mx);
  return st;
}

/** Pitch and level of an utterance normalised for the features. */
export function normalisedTrack(ctx: PitchContext): ToneTrack {
  const sorted = Float32Array.from(ctx.levelDb).sort();
  const loud = sorted.length ? sorted[Math.floor(0.95 * (sorted.length - 1))] : 0;
  return { st: normalisedPitch(ctx), rangeSt: ctx.rangeSt, level: ctx.levelDb.map((v) => v - loud) };
}

function slice(st: Float32Array, a: number, b: number): Float32Array {
  return st.subarray(Math.max(0, Math.min(st.length, a)), Math.max(0, Math.min(st.length, b)));
}

function voicedMean(values: Float32Array): number {
  let sum = 0;
  let k = 0;
  for (const v of values) {
    if (!Number.isNaN(v)) {
      sum += v;
      k++;
    }
  }
  return k > 0 ? sum / k : NaN;
}

/**
 * Shape of the voiced points of a final: least-squares slope (semitones over the whole final,
 * so that it does not depend on speaking rate), curvature (mean residual of the middle third
 * against the line, positive = a dip) and where the lowest and highest points fall (0..1).
 */
function shape(values: Float32Array): { slope: number; curve: number; minAt: number; maxAt: number } {
  const xs: number[] = [];
  const ys: number[] = [];
  values.forEach((v, i) => {
    if (!Number.isNaN(v)) {
      xs.push(i / Math.max(1, values.length - 1));
      ys.push(v);
    }
  });
  if (xs.length < 3) return { slope: 0, curve: 0, minAt: 0.5, maxAt: 0.5 };
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let sxx = 0;
  let sxy = 0;
  let lo = 0;
  let hi = 0;
  xs.forEach((x, i) => {
    sxx += (x - mx) ** 2;
    sxy += (x - mx) * (ys[i] - my);
    if (ys[i] < ys[lo]) lo = i;
    if (ys[i] > ys[hi]) hi = i;
  });
  const slope = sxx > 0 ? sxy / sxx : 0;
  const third = Math.floor(xs.length / 3);
  let mid = 0;
  for (let i = third; i < xs.length - third; i++) mid += ys[i] - (my + slope * (xs[i] - mx));
  return { slope, curve: mid / Math.max(1, xs.length - 2 * third), minAt: xs[lo], maxAt: xs[hi] };
}

/** Pause between two spans, log(1 + frames). */
const pause = (frames: number) => Math.log1p(Math.max(0, frames));

/**
 * Feature vector of syllable k of a sequence of spans, from the utterance's normalised pitch
 * (normalisedPitch). Null when the final has fewer than two voiced frames (no tone evidence).
 * `neighbourTones`: the expected tones (1–5, 0 when absent) of the syllables at TONE_CONTEXT's
 * offsets; the syllable's own expected tone is never an input.
 */
export function toneFeatures(track: ToneTrack, spans: readonly SyllableSpan[], k: number, neighbourTones?: readonly number[]): Float32Array | null {
  const { st, rangeSt, level } = track;
  const s = spans[k];
  const own = slice(st, s.startFrame, s.endFrame);
  const contour = resampleContour(own, CONTOUR_POINTS, false);
  if (!contour) return null;
  const range = Math.max(RANGE_FLOOR_ST, rangeSt);
  const f = new Float32Array(FEATURE_COUNT);
  let j = 0;
  for (const v of contour) f[j++] = v;
  for (const v of contour) f[j++] = v / range;
  const { slope, curve, minAt, maxAt } = shape(own);
  let voiced = 0;
  own.forEach((v) => (voiced += Number.isNaN(v) ? 0 : 1));
  f[j++] = slope;
  f[j++] = curve;
  f[j++] = minAt;
  f[j++] = maxAt;
  f[j++] = Math.max(...contour) - Math.min(...contour);
  f[j++] = Math.log(Math.max(1, s.endFrame - s.startFrame));
  f[j++] = Math.log(Math.max(1, s.syllableEnd - s.syllableStart));
  f[j++] = voiced / Math.max(1, own.length);
  // Level: a low, creaky third tone is often quiet, a fourth tone's level falls with its pitch.
  const ownLevel = slice(level, s.startFrame, s.endFrame);
  const third = Math.max(1, Math.floor(ownLevel.length / 3));
  const around = [spans[k - 1], spans[k + 1]].flatMap((n) => (n ? [voicedMean(slice(level, n.startFrame, n.endFrame))] : [])).filter((v) => !Number.isNaN(v));
  f[j++] = voicedMean(ownLevel);
  f[j++] = around.length ? voicedMean(ownLevel) - around.reduce((a, b) => a + b, 0) / around.length : 0;
  f[j++] = voicedMean(ownLevel.subarray(ownLevel.length - third)) - voicedMean(ownLevel.subarray(0, third));
  for (const [d, gap] of [
    [-1, k > 0 ? s.syllableStart - spans[k - 1].syllableEnd : 0],
    [1, k + 1 < spans.length ? spans[k + 1].syllableStart - s.syllableEnd : 0],
  ]) {
    const n = spans[k + d];
    const c = n ? resampleContour(slice(st, n.startFrame, n.endFrame), NEIGHBOUR_POINTS, false) : null;
    for (let p = 0; p < NEIGHBOUR_POINTS; p++) f[j++] = c ? c[p] : d < 0 ? contour[0] : contour[CONTOUR_POINTS - 1];
    f[j++] = c ? 1 : 0;
    f[j++] = pause(gap);
  }
  f[j++] = spans.length > 1 ? k / (spans.length - 1) : 0;
  f[j++] = k === 0 ? 1 : 0;
  f[j++] = k === spans.length - 1 ? 1 : 0;
  // Level against the two syllables either side: a high tone is high for its neighbourhood.
  const local = voicedMean(slice(st, spans[Math.max(0, k - 2)].startFrame, spans[Math.min(spans.length - 1, k + 2)].endFrame));
  f[j++] = Number.isNaN(local) ? 0 : voicedMean(own) - local;
  neighbourTones?.forEach((t, i) => {
    if (t >= 1 && t <= 5) f[j + 5 * i + t - 1] = 1;
  });
  return f;
}

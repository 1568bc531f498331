/**
 * Tone features of one syllable from the utterance's F0 track. Pure.
 *
 * The contour is taken over the final only (the initial's consonant carries no lexical tone and
 * its onset perturbs F0: Xu 1997, "Contextual tonal variations in Mandarin", J. Phonetics 25),
 * in semitones around the speaker's own median and also scaled by the speaker's 10–90% range,
 * so the same model serves low and high voices (speaker normalisation as in Rose 1987, z-scored
 * log F0). Context carries the neighbours' edges, since a tone's realisation depends on them
 * (carry-over effects, Xu 1997).
 */
import { resampleContour } from '../../dsp/contour.js';

export interface PitchContext {
  f0: Float32Array;
  voicing: Float32Array;
  /** Speaker median F0, Hz (reference of the semitone scale). */
  medianHz: number;
  /** Speaker 10–90% range in semitones (at least 4, see RANGE_FLOOR_ST). */
  rangeSt: number;
}

export interface SyllableSpan {
  /** Final's span in 10 ms frames (end exclusive); falls back to the syllable's span. */
  startFrame: number;
  endFrame: number;
}

/** Number of contour points sampled over the final. */
export const CONTOUR_POINTS = 5;
/** Ranges narrower than this (monotone or short recordings) are widened to it, semitones. */
export const RANGE_FLOOR_ST = 4;
/** Frames with voicing probability below this are ignored. */
const MIN_VOICING = 0.3;
/** Contour points, scaled contour, shape and duration, neighbours' edges, positions, span, neighbour tones. */
export const FEATURE_COUNT = 2 * CONTOUR_POINTS + 9 + 10;

function semitones(hz: number, ref: number): number {
  return 12 * Math.log2(hz / ref);
}

/** Voiced semitone values of a span (NaN where unvoiced). */
function spanSt(ctx: PitchContext, s: SyllableSpan): Float32Array {
  const a = Math.max(0, s.startFrame);
  const b = Math.min(ctx.f0.length, s.endFrame);
  const out = new Float32Array(Math.max(0, b - a));
  for (let i = a; i < b; i++) {
    const v = ctx.f0[i] > 0 && ctx.voicing[i] >= MIN_VOICING ? semitones(ctx.f0[i], ctx.medianHz) : NaN;
    out[i - a] = v;
  }
  return out;
}

function edge(values: Float32Array, fromEnd: boolean): number {
  const n = Math.min(5, values.length);
  let sum = 0;
  let k = 0;
  for (let j = 0; j < values.length && k < n; j++) {
    const v = values[fromEnd ? values.length - 1 - j : j];
    if (!Number.isNaN(v)) {
      sum += v;
      k++;
    }
  }
  return k > 0 ? sum / k : 0;
}

/** Least-squares slope (semitones per 100 ms) and curvature of voiced points over time. */
function shape(values: Float32Array): { slope: number; curve: number } {
  const xs: number[] = [];
  const ys: number[] = [];
  values.forEach((v, i) => {
    if (!Number.isNaN(v)) {
      xs.push(i / 10);
      ys.push(v);
    }
  });
  if (xs.length < 3) return { slope: 0, curve: 0 };
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let sxx = 0;
  let sxy = 0;
  xs.forEach((x, i) => {
    sxx += (x - mx) ** 2;
    sxy += (x - mx) * (ys[i] - my);
  });
  const slope = sxx > 0 ? sxy / sxx : 0;
  // Curvature: mean residual of the middle third against the line (positive = convex, a dip).
  const third = Math.floor(xs.length / 3);
  let mid = 0;
  for (let i = third; i < xs.length - third; i++) mid += ys[i] - (my + slope * (xs[i] - mx));
  return { slope, curve: mid / Math.max(1, xs.length - 2 * third) };
}

/**
 * Feature vector of syllable k of a sequence of spans (finals). Null when the final has fewer
 * than two voiced frames (no tone evidence).
 */
export function toneFeatures(ctx: PitchContext, spans: readonly SyllableSpan[], k: number, neighbourTones?: { prev: number; next: number }): Float32Array | null {
  const st = spanSt(ctx, spans[k]);
  const contour = resampleContour(st, CONTOUR_POINTS, false);
  if (!contour) return null;
  const range = Math.max(RANGE_FLOOR_ST, ctx.rangeSt);
  let voiced = 0;
  st.forEach((v) => (voiced += Number.isNaN(v) ? 0 : 1));
  const { slope, curve } = shape(st);
  const prev = k > 0 ? spanSt(ctx, spans[k - 1]) : null;
  const next = k + 1 < spans.length ? spanSt(ctx, spans[k + 1]) : null;
  const f = new Float32Array(FEATURE_COUNT);
  let j = 0;
  for (const v of contour) f[j++] = v;
  for (const v of contour) f[j++] = v / range;
  f[j++] = slope;
  f[j++] = curve;
  f[j++] = Math.log(Math.max(1, spans[k].endFrame - spans[k].startFrame));
  f[j++] = voiced / Math.max(1, st.length);
  f[j++] = prev ? edge(prev, true) : contour[0];
  f[j++] = next ? edge(next, false) : contour[CONTOUR_POINTS - 1];
  f[j++] = k === 0 ? 1 : 0;
  f[j++] = k === spans.length - 1 ? 1 : 0;
  f[j++] = Math.max(...contour) - Math.min(...contour);
  // Expected tones of the neighbours (one-hot 1–5, all zero when absent): a tone's shape bends
  // towards its neighbours (Xu 1997), so the same contour means different tones in context.
  // The syllable's own expected tone is never an input.
  if (neighbourTones) {
    if (neighbourTones.prev >= 1 && neighbourTones.prev <= 5) f[j + neighbourTones.prev - 1] = 1;
    if (neighbourTones.next >= 1 && neighbourTones.next <= 5) f[j + 5 + neighbourTones.next - 1] = 1;
  }
  return f;
}

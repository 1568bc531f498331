/**
 * The per-frame core of (p)YIN: the cumulative-mean-normalised difference function and the
 * candidate dips with their pYIN probabilities.
 * Sources: de Cheveigné & Kawahara 2002 (YIN, steps 2, 3 and 5); Mauch & Dixon 2014 (pYIN,
 * Beta(2, 18) threshold prior, section 2.1).
 */
import { pitchLoops, type PitchLoops } from './pitch-loops.js';

/** Candidate F0s of every frame, flattened: frame i owns slots [i·perFrame, i·perFrame + count[i]). */
export interface Candidates {
  /** Interpolated lag in samples at the analysis rate. */
  lag: Float32Array;
  /** pYIN prior mass of the thresholds that select this dip. */
  prob: Float32Array;
  count: Uint8Array;
  perFrame: number;
}

/**
 * d'(τ) for τ = 0..maxLag+1 into `out`. `seg` holds the frame's samples, win + maxLag + 2 of
 * them centred on the frame; `segSq` is its running sum of squares, so that
 * d(τ) = e(a) + e(a+τ) − 2·r(τ) (YIN eq. 7) needs only the cross-correlation loop.
 * The two windows compared, seg[a..a+win) and seg[a+τ..a+τ+win) with a = ⌊(maxLag − τ)/2⌋,
 * sit symmetrically about the frame centre for every τ. With YIN's usual fixed reference
 * window the estimate describes a point (maxLag − τ)/2 samples before the centre, which
 * biased gliding F0 by 1–3% (measured on the tone contours of test/dsp/pitch-vowels.test.ts).
 * `shared` gives r(τ) ready-made at r[base + τ] (FrameCorrelations) instead of the loop here.
 */
export function cmndf(seg: Float64Array, segSq: Float64Array, win: number, maxLag: number, out: Float32Array, shared?: { r: Float64Array; base: number }): void {
  out[0] = 1;
  let cum = 0;
  for (let tau = 1; tau <= maxLag + 1; tau++) {
    const a = Math.max(0, (maxLag - tau) >> 1);
    const b = a + tau;
    const r = shared ? shared.r[shared.base + tau] : crossCorrelation(seg, a, b, win);
    const e0 = segSq[a + win] - segSq[a];
    const et = segSq[b + win] - segSq[b];
    const d = Math.max(0, e0 + et - 2 * r);
    cum += d;
    out[tau] = cum > 0 ? (d * tau) / cum : 1;
  }
}

/** Σ seg[a + j]·seg[b + j] over j < win, in four partial sums (breaks the add dependency chain: about 1.5x faster in V8). */
function crossCorrelation(seg: Float64Array, a: number, b: number, win: number): number {
  let r0 = 0;
  let r1 = 0;
  let r2 = 0;
  let r3 = 0;
  let j = 0;
  for (; j + 3 < win; j += 4) {
    r0 += seg[a + j] * seg[b + j];
    r1 += seg[a + j + 1] * seg[b + j + 1];
    r2 += seg[a + j + 2] * seg[b + j + 2];
    r3 += seg[a + j + 3] * seg[b + j + 3];
  }
  for (; j < win; j++) r0 += seg[a + j] * seg[b + j];
  return r0 + r1 + r2 + r3;
}

/**
 * The cross-correlations r(τ) of cmndf for frames on a hop of a whole number of samples,
 * computed once for the stretches that overlapping frames share. For one lag, frame i compares
 * x[s_i + a..+win) with x[s_i + a + τ..+win), with s_i = s_0 + i·hop; both windows are made of
 * blocks of g = gcd(hop, win) samples on a grid that every frame shares, so the products of
 * each block are summed once and a frame's r(τ) is the sum of its win/g blocks: one product
 * per sample and lag instead of win/hop of them (2.5 with the 25 ms window and 10 ms hop). The
 * sums are grouped differently from cmndf's own loop, so r(τ) can differ in its last bits.
 * Frames are served in chunks of CHUNK_FRAMES, each computed when one of its frames is first
 * asked for: a chunk of silent frames (never asked) costs nothing.
 */
export class FrameCorrelations {
  /** Frames per chunk: bounds the buffer (frames × lags) whatever the recording's length. */
  static readonly CHUNK_FRAMES = 128;
  private readonly padded: Float64Array;
  private readonly pad: number;
  private readonly block: number;
  private readonly r: Float64Array;
  private readonly q: Float64Array;
  /** r(τ) of the frame `single` computed last. */
  private readonly one: Float64Array;
  private chunk = -1;
  /** The native loops (pitch-loops.ts), unless the caller keeps to these. */
  private readonly loops: PitchLoops | null;

  /**
   * `x`: the analysed signal; frame i's segment starts at sample `first + i·hop` (may be
   * negative: samples outside the signal count as 0), as cmndf's `seg` of win + maxLag + 2
   * samples.
   */
  constructor(
    x: Float32Array,
    private readonly first: number,
    private readonly hop: number,
    private readonly frames: number,
    private readonly win: number,
    private readonly maxLag: number,
    native = true,
  ) {
    this.block = gcd(hop, win);
    this.pad = Math.abs(first) + win + maxLag + 2;
    this.padded = new Float64Array(x.length + 2 * this.pad + hop);
    this.padded.set(x, this.pad);
    const n = FrameCorrelations.CHUNK_FRAMES;
    this.r = new Float64Array(n * (maxLag + 2));
    this.q = new Float64Array(((n - 1) * hop + win) / this.block + 1);
    this.loops = native ? pitchLoops() : null;
    this.one = new Float64Array(maxLag + 2);
  }

  /** True when the hop and window share blocks long enough for the sharing to pay. */
  static applies(hop: number, win: number): boolean {
    return Number.isInteger(hop) && hop > 0 && gcd(hop, win) >= 8;
  }

  /** r(τ) of frame i at [base + τ] of the returned array, τ = 1..maxLag+1. */
  of(i: number): { r: Float64Array; base: number } {
    const n = FrameCorrelations.CHUNK_FRAMES;
    const chunk = Math.floor(i / n);
    if (chunk !== this.chunk) this.fill(chunk);
    return { r: this.r, base: (i - chunk * n) * (this.maxLag + 2) };
  }

  /**
   * r(τ) of frame i alone, each the same sum of the same block products as `of` gives, for a
   * caller that needs few frames of this signal (its chunk would cost a chunk's frames).
   */
  single(i: number): { r: Float64Array; base: number } {
    const { padded: x, block: g, hop, win, maxLag } = this;
    const perWin = win / g;
    const r = this.one;
    for (let tau = 1; tau <= maxLag + 1; tau++) {
      const a = Math.max(0, (maxLag - tau) >> 1);
      const origin = this.pad + this.first + i * hop + a;
      let sum = 0;
      for (let k = 0; k < perWin; k++) {
        const p = origin + k * g;
        sum += crossCorrelation(x, p, p + tau, g);
      }
      r[tau] = sum;
    }
    return { r, base: 0 };
  }

  private fill(chunk: number): void {
    const { padded: x, block: g, hop, win, maxLag, q, r } = this;
    const n = FrameCorrelations.CHUNK_FRAMES;
    const c0 = chunk * n;
    const count = Math.min(n, this.frames - c0);
    this.chunk = chunk;
    if (this.loops) return this.loops.frameCorrelations(x, this.pad + this.first + c0 * hop, hop, g, win, count, maxLag, q, r);
    const blocks = ((count - 1) * hop + win) / g;
    const perWin = win / g;
    const perHop = hop / g;
    const stride = maxLag + 2;
    for (let tau = 1; tau <= maxLag + 1; tau++) {
      const a = Math.max(0, (maxLag - tau) >> 1);
      const origin = this.pad + this.first + c0 * hop + a;
      for (let m = 0; m < blocks; m++) {
        const p = origin + m * g;
        q[m] = crossCorrelation(x, p, p + tau, g);
      }
      for (let f = 0; f < count; f++) {
        let sum = 0;
        const m0 = f * perHop;
        for (let k = 0; k < perWin; k++) sum += q[m0 + k];
        r[f * stride + tau] = sum;
      }
    }
  }
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/**
 * Threshold prior Beta(2, B). pYIN offers means 0.1, 0.15 and 0.2 (B = 18, 11.33, 8); we use
 * B = 8 (mean 0.2) because telephone-band and low-bit-rate speech (GSM, AMR) has shallower
 * dips than studio speech, while noise dips (d' ≈ 0.8–1) still receive almost no mass.
 */
export const BETA_B = 8;

/** CDF of Beta(2, b) for integer b: the closed form of the regularised incomplete beta. */
export function beta2Cdf(x: number, b = BETA_B): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const q = 1 - x;
  const qb = q ** b;
  return 1 - qb * q - (b + 1) * x * qb;
}

const MIN_PROB = 1e-4;

/**
 * Finds the dips of d' between minLag and maxLag and gives each the pYIN probability: YIN
 * with threshold s answers the first dip whose value is below s, so dip k (in lag order) is
 * chosen for s in (v_k, min over earlier dips of v_j], and receives that interval's prior mass.
 * Keeps the `perFrame` most probable dips of frame `frame`.
 */
export function frameCandidates(d: Float32Array, minLag: number, maxLag: number, frame: number, out: Candidates): void {
  const lags: number[] = [];
  const probs: number[] = [];
  let ceiling = 1;
  for (let tau = minLag; tau <= maxLag; tau++) {
    const b = d[tau];
    if (b >= ceiling || b > d[tau - 1] || b >= d[tau + 1]) continue;
    const p = beta2Cdf(ceiling) - beta2Cdf(b);
    ceiling = b;
    if (p < MIN_PROB) continue;
    const a = d[tau - 1];
    const c = d[tau + 1];
    const den = a - 2 * b + c;
    const shift = den > 0 ? (0.5 * (a - c)) / den : 0;
    lags.push(tau + Math.max(-0.5, Math.min(0.5, shift)));
    probs.push(p);
  }
  const order = probs.map((_, k) => k).sort((i, j) => probs[j] - probs[i]).slice(0, out.perFrame);
  const base = frame * out.perFrame;
  order.forEach((k, slot) => {
    out.lag[base + slot] = lags[k];
    out.prob[base + slot] = probs[k];
  });
  out.count[frame] = order.length;
}

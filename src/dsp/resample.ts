/**
 * Anti-aliased integer decimation for analysis (not for playback): a windowed-sinc low-pass
 * FIR (Hamming window, cutoff at 90% of the new Nyquist frequency) evaluated only at the kept
 * samples, i.e. the polyphase shortcut of filter-then-downsample. 32 taps per output sample
 * leave the band below the cutoff within about 0.5 dB, which is all F0 analysis needs.
 */
import { pitchLoops } from './pitch-loops.js';

const TAPS_PER_SIDE = 16;

const kernels = new Map<number, Float32Array>();

function kernel(factor: number): Float32Array {
  const cached = kernels.get(factor);
  if (cached) return cached;
  const cutoff = 0.9 / (2 * factor); // cycles per input sample
  const len = 2 * TAPS_PER_SIDE * factor + 1;
  const mid = (len - 1) / 2;
  const h = new Float32Array(len);
  let sum = 0;
  for (let i = 0; i < len; i++) {
    const t = i - mid;
    const sinc = t === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * t) / (Math.PI * t);
    const w = 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (len - 1));
    h[i] = sinc * w;
    sum += h[i];
  }
  for (let i = 0; i < len; i++) h[i] /= sum; // unity gain at DC
  kernels.set(factor, h);
  return h;
}

/**
 * Low-passes and keeps every `factor`-th sample. `factor` 1 returns the input unchanged.
 * `native` false keeps to the TypeScript loop where the native one is built (the same outputs,
 * pitch-loops.ts).
 */
export function decimate(x: Float32Array, factor: number, native = true): Float32Array {
  if (factor <= 1) return x;
  const out = new Float32Array(Math.floor(x.length / factor));
  filterInto(x, factor, out, 0, out.length, native);
  return out;
}

/**
 * `decimate(part, factor)` for a stretch of a signal whose decimation `whole` is known, `part`
 * starting at sample `at · factor` of that signal: the outputs whose filter lies wholly inside
 * the stretch are taken from `whole` (the same sums, `fullReachOutputs`), only those near its
 * ends are computed.
 */
export function decimatePart(part: Float32Array, factor: number, whole: Float32Array, at: number, native = true): Float32Array {
  if (factor <= 1) return part;
  const out = new Float32Array(Math.floor(part.length / factor));
  const [lo, hi] = fullReachOutputs(part.length, factor);
  if (hi <= lo) {
    filterInto(part, factor, out, 0, out.length, native);
    return out;
  }
  out.set(whole.subarray(at + lo, at + hi), lo);
  filterInto(part, factor, out, 0, lo, native);
  filterInto(part, factor, out, hi, out.length, native);
  return out;
}

/** Outputs [from, to) of the decimation of `x` into `out`. */
function filterInto(x: Float32Array, factor: number, out: Float32Array, from: number, to: number, native: boolean): void {
  const h = kernel(factor);
  const loops = native && to > from ? pitchLoops() : null;
  if (loops) return loops.decimate(x, factor, h, out, from, to);
  const mid = (h.length - 1) / 2;
  for (let o = from; o < to; o++) {
    const c = o * factor;
    let acc = 0;
    const lo = Math.max(0, mid - c);
    const hi = Math.min(h.length, x.length - c + mid);
    // Four partial sums: breaks the add dependency chain (the products are exact in float64).
    let a1 = 0;
    let a2 = 0;
    let a3 = 0;
    let k = lo;
    const at = c - mid;
    for (; k + 3 < hi; k += 4) {
      acc += h[k] * x[at + k];
      a1 += h[k + 1] * x[at + k + 1];
      a2 += h[k + 2] * x[at + k + 2];
      a3 += h[k + 3] * x[at + k + 3];
    }
    for (; k < hi; k++) acc += h[k] * x[at + k];
    out[o] = acc + a1 + a2 + a3;
  }
}

/**
 * The outputs [lo, hi) of `decimate` on `n` samples whose filter sum lies wholly inside the
 * input. Each equals, bit for bit, the output at the same place of the decimation of any
 * longer signal that holds these samples at a whole number of `factor`-sample steps.
 */
export function fullReachOutputs(n: number, factor: number): [number, number] {
  const outputs = Math.floor(n / Math.max(1, factor));
  if (factor <= 1) return [0, outputs];
  const mid = TAPS_PER_SIDE * factor;
  return [Math.ceil(mid / factor), Math.min(outputs, Math.floor((n - mid - 1) / factor) + 1)];
}

/**
 * The pitch tracker's two heavy loops in native code (native/pitch-loops.c): the decimation
 * filter and the frames' block cross-correlations, the same float64 sums in the same order as
 * the TypeScript loops (resample.ts, yin.ts), so the track is the same bit for bit, about
 * three times faster. Null where the library is not built; the TypeScript loops serve then.
 */
import koffi from 'koffi';
import { nativeLibrary } from '../native.js';

export interface PitchLoops {
  /** Outputs [from, to) of `x` decimated by `factor` with the filter `h` (resample.ts `filterInto`). */
  decimate(x: Float32Array, factor: number, h: Float32Array, out: Float32Array, from: number, to: number): void;
  /**
   * r(τ) of `count` frames into `r` at [f·(maxLag + 2) + τ], from the zero-padded signal `x`
   * with frame 0's blocks from `origin` (yin.ts `FrameCorrelations`); `q` holds one lag's blocks.
   */
  frameCorrelations(x: Float64Array, origin: number, hop: number, block: number, win: number, count: number, maxLag: number, q: Float64Array, r: Float64Array): void;
}

let loops: PitchLoops | null | undefined;

export function pitchLoops(): PitchLoops | null {
  if (loops !== undefined) return loops;
  loops = null;
  const file = nativeLibrary('libkouyu-pitch.so');
  if (!file) return loops;
  let lib: ReturnType<typeof koffi.load>;
  try {
    lib = koffi.load(file);
  } catch {
    return loops; // a library built for another machine: the TypeScript loops serve
  }
  const decimate = lib.func('void kdsp_decimate(void *x, int n, int factor, void *h, int taps, void *out, int from, int to)');
  const correlations = lib.func('void kdsp_frame_correlations(void *x, int origin, int hop, int g, int win, int count, int maxLag, void *q, void *r)');
  loops = {
    decimate: (x, factor, h, out, from, to) => decimate(x, x.length, factor, h, h.length, out, from, to),
    frameCorrelations: (x, origin, hop, block, win, count, maxLag, q, r) => correlations(x, origin, hop, block, win, count, maxLag, q, r),
  };
  return loops;
}

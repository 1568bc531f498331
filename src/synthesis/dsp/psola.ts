/**
 * Time-domain pitch-synchronous overlap-add, TD-PSOLA (Moulines & Charpentier 1990, "Pitch-
 * synchronous waveform processing techniques for text-to-speech synthesis using diphones",
 * Speech Communication 9(5–6)).
 *
 * 1. Analysis marks: in voiced frames one mark per pitch period, each placed on the largest
 *    sample within ±20% of a period from where the previous period predicts it (so grains are
 *    centred on glottal excitation peaks); in unvoiced frames a mark every 10 ms.
 * 2. Grains: two analysis periods of signal around a mark, Hann-windowed.
 * 3. Synthesis: marks are laid out at the target period (sampling rate / target F0) along the
 *    output time axis; each takes the grain of the analysis mark nearest to the analysis time
 *    that maps onto it. Repeating or skipping grains changes duration; changing the spacing
 *    changes F0 while the spectral envelope (formants) of each grain is kept.
 *
 * Pure: typed arrays in, typed array out.
 */

export interface PsolaOptions {
  sampleRate: number;
  /** F0 of the input in Hz per frame of `hopSec`, 0 where unvoiced (e.g. from trackPitch). */
  f0: Float32Array;
  hopSec: number;
  /** Output/input duration ratio at analysis time t (s); > 1 slows down. Default 1. */
  timeScale?: (tSec: number) => number;
  /** Target F0 (Hz) at analysis time t for a source F0 (Hz). Default: unchanged. */
  pitch?: (tSec: number, f0: number) => number;
}

interface Marks {
  pos: Int32Array;
  period: Int32Array;
  f0: Float32Array;
  count: number;
}

const UNVOICED_STEP_SEC = 0.01;

function f0At(f0: Float32Array, hop: number, sample: number): number {
  const i = Math.min(f0.length - 1, Math.max(0, Math.floor(sample / hop)));
  return f0.length ? f0[i] : 0;
}

function analysisMarks(x: Float32Array, sr: number, f0: Float32Array, hop: number): Marks {
  const cap = Math.ceil(x.length / (sr / 500)) + 2;
  const pos = new Int32Array(cap);
  const period = new Int32Array(cap);
  const freq = new Float32Array(cap);
  let n = 0;
  let t = 0;
  let prevVoiced = false;
  while (t < x.length && n < cap) {
    const f = f0At(f0, hop, t);
    const p = f > 0 ? Math.max(2, Math.round(sr / f)) : Math.round(sr * UNVOICED_STEP_SEC);
    let m = t;
    if (f > 0) {
      // Search ±20% of a period (a whole period at the start of a voiced run) for the peak.
      const reach = prevVoiced ? Math.round(0.2 * p) : Math.round(p / 2);
      let best = -Infinity;
      for (let k = Math.max(0, t - reach); k <= Math.min(x.length - 1, t + reach); k++) {
        if (x[k] > best) {
          best = x[k];
          m = k;
        }
      }
      if (n > 0 && m <= pos[n - 1]) m = pos[n - 1] + 1;
    }
    pos[n] = m;
    period[n] = p;
    freq[n] = f;
    n++;
    prevVoiced = f > 0;
    t = m + p;
  }
  return { pos, period, f0: freq, count: n };
}

/** Output time (samples) at the start of each analysis frame: the integral of timeScale. */
function timeMap(length: number, hop: number, sr: number, scale: (t: number) => number): Float64Array {
  const frames = Math.ceil(length / hop) + 1;
  const map = new Float64Array(frames + 1);
  for (let i = 0; i < frames; i++) map[i + 1] = map[i] + hop * Math.max(0.05, scale((i * hop) / sr));
  return map;
}

export function psola(x: Float32Array, opts: PsolaOptions): Float32Array {
  const sr = opts.sampleRate;
  const hop = Math.max(1, Math.round(opts.hopSec * sr));
  const marks = analysisMarks(x, sr, opts.f0, hop);
  if (marks.count === 0) return x.slice();
  const scale = opts.timeScale ?? (() => 1);
  const pitch = opts.pitch ?? ((_t: number, f: number) => f);
  const map = timeMap(x.length, hop, sr, scale);
  const outLen = Math.max(1, Math.round(map[map.length - 1] * (x.length / ((map.length - 1) * hop))));
  const out = new Float32Array(outLen + 1);
  let frame = 0;
  let k = 0;
  let ts = 0;
  while (ts < outLen) {
    // Invert the time map: advance to the frame whose output span holds ts.
    while (frame < map.length - 2 && map[frame + 1] <= ts) frame++;
    const span = map[frame + 1] - map[frame];
    const ta = (frame + (span > 0 ? (ts - map[frame]) / span : 0)) * hop;
    while (k < marks.count - 1 && Math.abs(marks.pos[k + 1] - ta) <= Math.abs(marks.pos[k] - ta)) k++;
    const pa = marks.period[k];
    const fa = marks.f0[k];
    const target = fa > 0 ? pitch(ta / sr, fa) : 0;
    const ps = fa > 0 && target > 0 ? Math.max(2, sr / target) : pa;
    addGrain(x, marks.pos[k], pa, out, Math.round(ts));
    ts += ps;
  }
  return out.subarray(0, outLen);
}

const hannCache = new Map<number, Float32Array>();

/** Hann window of length 2·half − 1 centred on index half − 1 (periods recur, so cache them). */
function hann(half: number): Float32Array {
  let w = hannCache.get(half);
  if (!w) {
    w = new Float32Array(2 * half - 1);
    for (let j = -half + 1; j < half; j++) w[j + half - 1] = 0.5 + 0.5 * Math.cos((Math.PI * j) / half);
    if (hannCache.size < 4096) hannCache.set(half, w);
  }
  return w;
}

function addGrain(x: Float32Array, centre: number, half: number, out: Float32Array, at: number): void {
  const w = hann(half);
  // Clip the grain to both buffers once, then run a branch-free loop.
  const lo = Math.max(-half + 1, -centre, -at);
  const hi = Math.min(half - 1, x.length - 1 - centre, out.length - 1 - at);
  for (let j = lo; j <= hi; j++) out[at + j] += w[j + half - 1] * x[centre + j];
}

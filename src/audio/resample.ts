/**
 * Streaming band-limited resampler (windowed-sinc interpolation, J. O. Smith, "Digital Audio
 * Resampling", bandlimited interpolation with a Blackman-windowed sinc). Used for WAV that
 * arrives in chunks at a rate other than 16 kHz, where the PCM must be available while the
 * upload is still running; whole files of other formats are resampled by ffmpeg instead.
 *
 * Design: the kernel spans ZERO_CROSSINGS zero crossings of the (lower) cutoff frequency on
 * each side; the cutoff sits at 95 % of the lower Nyquist so the Blackman transition band
 * (about 3 zero-crossing widths) leaves little aliasing. The kernel is tabulated at
 * TABLE_STEPS points per zero crossing and linearly interpolated (error well under 16-bit
 * quantisation at these settings). Output sample n is at input position n * inRate / outRate.
 */

const ZERO_CROSSINGS = 16;
const TABLE_STEPS = 512;
const ROLLOFF = 0.95;
const MAX_PHASES = 1000;

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

export class SincResampler {
  private readonly step: number; // input samples per output sample
  private readonly scale: number; // cutoff as a fraction of the input Nyquist (≤ 1)
  private readonly halfWidth: number; // kernel half width in input samples
  private readonly table: Float32Array;
  /** Rational ratio in lowest terms: output n sits at input n·M/L (polyphase when L is small). */
  private readonly L: number;
  private readonly M: number;
  private readonly phases: { first: number; weights: Float32Array }[] | null;
  private buf = new Float32Array(0); // pending input, buf[0] is input index `bufStart`
  private bufStart = 0;
  private produced = 0; // output samples emitted so far
  private received = 0; // input samples received so far

  constructor(readonly inRate: number, readonly outRate: number) {
    if (!(inRate > 0 && outRate > 0)) throw new RangeError('sample rates must be positive');
    this.step = inRate / outRate;
    this.scale = Math.min(1, outRate / inRate) * ROLLOFF;
    this.halfWidth = ZERO_CROSSINGS / this.scale;
    this.table = buildKernelTable();
    const g = Number.isInteger(inRate) && Number.isInteger(outRate) ? gcd(inRate, outRate) : 0;
    this.L = g ? outRate / g : 0;
    this.M = g ? inRate / g : 0;
    // Every common rate pair (8, 11.025, 22.05, 44.1, 48 kHz → 16 kHz) has L ≤ 320: the
    // weights of each phase are computed once and each output is one dot product.
    this.phases = g && this.L <= MAX_PHASES ? this.buildPhases() : null;
  }

  /** Feeds mono samples in [-1, 1); returns every output sample that is now fully determined. */
  push(input: Float32Array): Float32Array {
    this.append(input);
    return this.drain(this.received - this.halfWidth);
  }

  /** Ends the stream (zero padding after the last sample) and returns the remaining output. */
  flush(): Float32Array {
    const total = Math.floor((this.received * this.outRate) / this.inRate);
    const out = this.drain(Infinity, total);
    this.buf = new Float32Array(0);
    return out;
  }

  private buildPhases(): { first: number; weights: Float32Array }[] {
    const phases: { first: number; weights: Float32Array }[] = [];
    for (let p = 0; p < this.L; p++) {
      const frac = p / this.L; // output position minus floor, in input samples
      const first = Math.ceil(frac - this.halfWidth);
      const last = Math.floor(frac + this.halfWidth);
      const weights = new Float32Array(last - first + 1);
      for (let j = first; j <= last; j++) weights[j - first] = this.kernel((frac - j) * this.scale) * this.scale;
      phases.push({ first, weights });
    }
    return phases;
  }

  private append(input: Float32Array): void {
    // Drop samples no future output can reach (left of the next output's kernel).
    const keepFrom = Math.max(this.bufStart, Math.floor(this.produced * this.step - this.halfWidth) - 1);
    const drop = keepFrom - this.bufStart;
    const next = new Float32Array(this.buf.length - drop + input.length);
    next.set(this.buf.subarray(drop));
    next.set(input, this.buf.length - drop);
    this.buf = next;
    this.bufStart = keepFrom;
    this.received += input.length;
  }

  /** Emits outputs whose kernel ends before input position `limit` (and below `maxCount`). */
  private drain(limit: number, maxCount = Infinity): Float32Array {
    const count = Math.max(0, Math.min(maxCount, Math.ceil((limit - this.halfWidth) / this.step)) - this.produced);
    const out = new Float32Array(Number.isFinite(count) ? count : 0);
    for (let i = 0; i < out.length; i++, this.produced++) out[i] = this.phases ? this.polyphaseAt(this.produced) : this.sampleAt(this.produced * this.step);
    return out;
  }

  /** Output n by its precomputed phase; samples outside the received range count as 0. */
  private polyphaseAt(n: number): number {
    const pos = n * this.M;
    const phase = this.phases![pos % this.L];
    const start = Math.floor(pos / this.L) + phase.first - this.bufStart;
    const w = phase.weights;
    const buf = this.buf;
    const from = Math.max(0, -start);
    const to = Math.min(w.length, buf.length - start);
    let acc = 0;
    for (let i = from; i < to; i++) acc += buf[start + i] * w[i];
    return acc;
  }

  /** Σ x[k]·h(t−k) over the kernel support; samples outside the received range count as 0. */
  private sampleAt(t: number): number {
    const lo = Math.max(Math.ceil(t - this.halfWidth), this.bufStart);
    const hi = Math.min(Math.floor(t + this.halfWidth), this.bufStart + this.buf.length - 1);
    let acc = 0;
    for (let k = lo; k <= hi; k++) {
      acc += this.buf[k - this.bufStart] * this.kernel((t - k) * this.scale);
    }
    return acc * this.scale;
  }

  /** Windowed sinc at `x` zero crossings from the centre, by table interpolation. */
  private kernel(x: number): number {
    const pos = Math.abs(x) * TABLE_STEPS;
    const i = Math.floor(pos);
    if (i >= this.table.length - 1) return 0;
    const frac = pos - i;
    return this.table[i] + frac * (this.table[i + 1] - this.table[i]);
  }
}

let cachedTable: Float32Array | null = null;

/** sinc(x)·Blackman(x / ZERO_CROSSINGS) for x in [0, ZERO_CROSSINGS], TABLE_STEPS per unit. */
function buildKernelTable(): Float32Array {
  if (cachedTable) return cachedTable;
  const n = ZERO_CROSSINGS * TABLE_STEPS + 2;
  const table = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const x = i / TABLE_STEPS;
    if (x >= ZERO_CROSSINGS) continue;
    const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
    const w = 0.5 + 0.5 * (x / ZERO_CROSSINGS); // window argument mapped to [0.5, 1] of a full Blackman
    const blackman = 0.42 - 0.5 * Math.cos(2 * Math.PI * w) + 0.08 * Math.cos(4 * Math.PI * w);
    table[i] = sinc * blackman;
  }
  cachedTable = table;
  return table;
}

/** Resamples a whole signal at once (same kernel as the streaming path). */
export function resample(input: Float32Array, inRate: number, outRate: number): Float32Array {
  if (inRate === outRate) return input.slice();
  const r = new SincResampler(inRate, outRate);
  const a = r.push(input);
  const b = r.flush();
  const out = new Float32Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Float samples in [-1, 1) to 16-bit integers with rounding and saturation. */
export function floatToInt16(x: Float32Array): Int16Array {
  const out = new Int16Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const v = Math.round(x[i] * 32768);
    out[i] = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
  }
  return out;
}

/** The samples of several PCM buffers joined end to end. */
export function concatPcm(parts: readonly Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

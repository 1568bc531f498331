/**
 * Band-limited resampling by an arbitrary ratio (Smith & Gossett 1984, "A flexible
 * sampling-rate conversion method", ICASSP): each output sample is a windowed-sinc
 * interpolation of the input at a fractional position; when shrinking the rate the sinc is
 * widened so its cutoff sits below the new Nyquist frequency (anti-aliasing).
 *
 * Used for two things: playing a signal back faster or slower (which scales pitch, duration
 * and formants together; the voice catalogue uses it for the timbre shift), and changing the
 * delivery rate.
 */

const HALF_TAPS = 8; // zero crossings on each side; Hann-windowed
const TABLE_RES = 256; // kernel table entries per zero crossing (linear interpolation between)

/** h(t) = sinc(t)·hann(t / HALF_TAPS) for t in [0, HALF_TAPS], tabulated once. */
const KERNEL = (() => {
  const n = HALF_TAPS * TABLE_RES + 2;
  const table = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const t = i / TABLE_RES;
    const sinc = t === 0 ? 1 : Math.sin(Math.PI * t) / (Math.PI * t);
    table[i] = t >= HALF_TAPS ? 0 : sinc * (0.5 + 0.5 * Math.cos((Math.PI * t) / HALF_TAPS));
  }
  return table;
})();

function kernelAt(t: number): number {
  const a = Math.abs(t) * TABLE_RES;
  const i = Math.floor(a);
  if (i >= KERNEL.length - 1) return 0;
  const f = a - i;
  return KERNEL[i] + f * (KERNEL[i + 1] - KERNEL[i]);
}

/**
 * Reads `x` at positions 0, step, 2·step, … (step in input samples). step > 1 shortens the
 * signal and raises its pitch and formants by the factor `step`.
 */
export function resampleByStep(x: Float32Array, step: number): Float32Array {
  if (!(step > 0)) throw new RangeError('resampleByStep: step must be positive');
  if (Math.abs(step - 1) < 1e-9) return x.slice();
  const n = Math.floor(x.length / step);
  const out = new Float32Array(n);
  const scale = Math.min(1, 1 / step); // cutoff relative to input Nyquist
  const width = HALF_TAPS / scale; // half-width of the kernel in input samples
  for (let o = 0; o < n; o++) {
    const pos = o * step;
    const lo = Math.max(0, Math.ceil(pos - width));
    const hi = Math.min(x.length - 1, Math.floor(pos + width));
    let acc = 0;
    let norm = 0;
    for (let k = lo; k <= hi; k++) {
      const h = kernelAt((k - pos) * scale);
      acc += x[k] * h;
      norm += h;
    }
    out[o] = norm !== 0 ? acc / norm : 0;
  }
  return out;
}

/** Converts from `fromRate` to `toRate` Hz. */
export function resampleRate(x: Float32Array, fromRate: number, toRate: number): Float32Array {
  return fromRate === toRate ? x : resampleByStep(x, fromRate / toRate);
}

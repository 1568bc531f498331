/**
 * Functions that turn an F0 track into what tone and intonation models use: semitones around a
 * speaker reference, the speaker's own register and range, and fixed-length contours.
 */

/**
 * 12·log2(f0 / refHz) per frame; NaN where the frame is unvoiced (f0 ≤ 0), so that callers
 * cannot mistake "no pitch" for "pitch at the reference".
 */
export function toSemitones(f0: ArrayLike<number>, refHz: number): Float32Array {
  if (!(refHz > 0)) throw new RangeError('toSemitones: refHz must be positive');
  const out = new Float32Array(f0.length);
  for (let i = 0; i < f0.length; i++) out[i] = f0[i] > 0 ? 12 * Math.log2(f0[i] / refHz) : NaN;
  return out;
}

export interface SpeakerPitchStats {
  /** Number of voiced frames the figures come from (0: all others are 0). */
  voicedFrames: number;
  /** Median F0 of the voiced frames, Hz: the natural reference for toSemitones. */
  medianHz: number;
  /** 10th and 90th percentiles, Hz: the speaker's working range without outliers. */
  lowHz: number;
  highHz: number;
  /** 12·log2(highHz / lowHz): pitch range in semitones. */
  rangeSemitones: number;
}

/** Median and 10–90% range over voiced frames (f0 > 0), optionally only where voicing ≥ minVoicing. */
export function speakerPitchStats(f0: ArrayLike<number>, voicing?: ArrayLike<number>, minVoicing = 0): SpeakerPitchStats {
  const v: number[] = [];
  for (let i = 0; i < f0.length; i++) {
    if (f0[i] > 0 && (!voicing || voicing[i] >= minVoicing)) v.push(f0[i]);
  }
  if (v.length === 0) return { voicedFrames: 0, medianHz: 0, lowHz: 0, highHz: 0, rangeSemitones: 0 };
  v.sort((a, b) => a - b);
  const at = (q: number) => v[Math.min(v.length - 1, Math.floor(q * v.length))];
  const lowHz = at(0.1);
  const highHz = at(0.9);
  return { voicedFrames: v.length, medianHz: at(0.5), lowHz, highHz, rangeSemitones: 12 * Math.log2(highHz / lowHz) };
}

/**
 * Resamples the voiced part of a contour to `n` equally spaced points by linear interpolation.
 * Unvoiced frames (NaN, or ≤ 0 when `zeroIsUnvoiced`) are bridged: only voiced frames are
 * knots, placed at their own frame positions, and the output spans the first to the last
 * voiced frame. Returns null when fewer than two frames are voiced.
 * Works on Hz (zeroIsUnvoiced = true, default) or semitones (NaN marks unvoiced).
 */
export function resampleContour(values: ArrayLike<number>, n: number, zeroIsUnvoiced = true): Float32Array | null {
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const y = values[i];
    if (Number.isNaN(y) || (zeroIsUnvoiced && y <= 0)) continue;
    xs.push(i);
    ys.push(y);
  }
  if (xs.length < 2 || n < 1) return null;
  const out = new Float32Array(n);
  const x0 = xs[0];
  const x1 = xs[xs.length - 1];
  let k = 0;
  for (let p = 0; p < n; p++) {
    const x = n === 1 ? (x0 + x1) / 2 : x0 + ((x1 - x0) * p) / (n - 1);
    while (k < xs.length - 2 && xs[k + 1] < x) k++;
    const t = (x - xs[k]) / (xs[k + 1] - xs[k]);
    out[p] = ys[k] + Math.max(0, Math.min(1, t)) * (ys[k + 1] - ys[k]);
  }
  return out;
}

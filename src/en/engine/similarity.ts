/**
 * How alike two stretches of the same recording sound: log mel filterbank frames (25 ms
 * Hamming windows every 10 ms, 24 triangular bands from 100 Hz to 7.6 kHz; Davis & Mermelstein
 * 1980) compared by dynamic time warping (Sakoe & Chiba 1978), the mean frame distance along
 * the best path. Used to confirm that a word the aligner took twice was said twice: the two
 * tokens of one word by one speaker lie closer together than either lies to other words.
 * Pure; cost grows with the product of the two lengths (a few thousand frame pairs a word).
 */
import { SAMPLE_RATE, SAMPLES_PER_FRAME } from '../../acoustic/types.js';
import { melFilterBank, melLogEnergies } from '../../dsp/mel.js';
import { powerSpectrum } from '../../dsp/spectrum.js';

const WINDOW = 400;
const FFT = 512;
const BANDS = 24;
const LOW_HZ = 100;
const HIGH_HZ = 7600;

const HAMMING = Float64Array.from({ length: WINDOW }, (_, n) => 0.54 - 0.46 * Math.cos((2 * Math.PI * n) / (WINDOW - 1)));

const spectrumOf = powerSpectrum(FFT);
const FILTERS = melFilterBank({ bands: BANDS, lowHz: LOW_HZ, highHz: HIGH_HZ, fftSize: FFT, sampleRate: SAMPLE_RATE });

/** Log mel frames of frames [startFrame, endFrame) of 16 kHz PCM. */
export function melFrames(pcm: Int16Array, startFrame: number, endFrame: number): Float64Array[] {
  const out: Float64Array[] = [];
  const frame = new Float64Array(FFT);
  const power = new Float64Array(FFT / 2);
  for (let f = startFrame; f < endFrame; f++) {
    const centre = f * SAMPLES_PER_FRAME + SAMPLES_PER_FRAME / 2;
    for (let n = 0; n < WINDOW; n++) {
      const i = centre - WINDOW / 2 + n;
      frame[n] = i >= 0 && i < pcm.length ? (pcm[i] / 32768) * HAMMING[n] : 0;
    }
    spectrumOf(frame, power);
    const v = new Float64Array(BANDS);
    melLogEnergies(FILTERS, power, 1e-10, v);
    out.push(v);
  }
  return out;
}

/** Subtracts the mean frame of `frames` (cepstral mean normalisation in the log mel domain). */
export function meanNormalised(frames: Float64Array[], mean: Float64Array): Float64Array[] {
  return frames.map((v) => v.map((x, b) => x - mean[b]));
}

export function meanFrame(frames: readonly Float64Array[]): Float64Array {
  const m = new Float64Array(BANDS);
  for (const v of frames) for (let b = 0; b < BANDS; b++) m[b] += v[b] / Math.max(1, frames.length);
  return m;
}

/** Mean Euclidean frame distance along the best DTW path (steps right, down, diagonal). */
export function dtwDistance(a: readonly Float64Array[], b: readonly Float64Array[]): number {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return Infinity;
  let prev = new Float64Array(m + 1).fill(Infinity);
  let prevLen = new Float64Array(m + 1);
  prev[0] = 0;
  for (let i = 1; i <= n; i++) {
    const cur = new Float64Array(m + 1).fill(Infinity);
    const curLen = new Float64Array(m + 1);
    for (let j = 1; j <= m; j++) {
      let d = 0;
      for (let k = 0; k < a[i - 1].length; k++) d += (a[i - 1][k] - b[j - 1][k]) ** 2;
      d = Math.sqrt(d);
      let best = prev[j - 1];
      let len = prevLen[j - 1];
      if (prev[j] < best) (best = prev[j]), (len = prevLen[j]);
      if (cur[j - 1] < best) (best = cur[j - 1]), (len = curLen[j - 1]);
      cur[j] = best + d;
      curLen[j] = len + 1;
    }
    prev = cur;
    prevLen = curLen;
  }
  return prev[m] / Math.max(1, prevLen[m]);
}

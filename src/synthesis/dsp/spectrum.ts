/**
 * Spectral centroid of voiced frames, a coarse timbre figure (Grey & Gordon 1978: perceived
 * brightness follows the centroid). Pure.
 */
import { powerSpectrum } from '../../dsp/spectrum.js';

const N = 512;
const spectrumOf = powerSpectrum(N);
const HANN = Float64Array.from({ length: N }, (_, k) => 0.5 - 0.5 * Math.cos((2 * Math.PI * k) / (N - 1)));

/**
 * Mean spectral centroid (Hz, 0–5 kHz band) over frames whose F0 (`f0`, one value per `hopSec`)
 * is non-zero; 512-point Hann frames centred on each voiced frame.
 */
export function spectralCentroid(x: Int16Array | Float32Array, sampleRate: number, f0: Float32Array, hopSec: number): number {
  const maxBin = Math.min(N / 2, Math.floor((5000 * N) / sampleRate));
  let sum = 0;
  let count = 0;
  const frame = new Float64Array(N);
  const power = new Float64Array(N / 2);
  for (let i = 0; i < f0.length; i += 2) {
    if (!(f0[i] > 0)) continue;
    const centre = Math.round((i + 0.5) * hopSec * sampleRate);
    const start = centre - N / 2;
    if (start < 0 || start + N > x.length) continue;
    for (let k = 0; k < N; k++) frame[k] = x[start + k] * HANN[k];
    spectrumOf(frame, power);
    let num = 0;
    let den = 0;
    for (let b = 1; b < maxBin; b++) {
      const m = Math.sqrt(power[b]);
      num += m * ((b * sampleRate) / N);
      den += m;
    }
    if (den > 0) {
      sum += num / den;
      count++;
    }
  }
  return count ? sum / count : 0;
}

/**
 * Spectral centroid of voiced frames, a coarse timbre figure (Grey & Gordon 1978: perceived
 * brightness follows the centroid). Iterative radix-2 FFT (Cooley & Tukey 1965). Pure.
 */

const N = 512;

function fftMagnitude(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j], re[i]];
      [im[i], im[j]] = [im[j], im[i]];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = (-2 * Math.PI) / len;
    for (let i = 0; i < n; i += len) {
      for (let k = 0; k < len / 2; k++) {
        const wr = Math.cos(ang * k);
        const wi = Math.sin(ang * k);
        const a = i + k;
        const b = a + len / 2;
        const tr = re[b] * wr - im[b] * wi;
        const ti = re[b] * wi + im[b] * wr;
        re[b] = re[a] - tr;
        im[b] = im[a] - ti;
        re[a] += tr;
        im[a] += ti;
      }
    }
  }
}

/**
 * Mean spectral centroid (Hz, 0–5 kHz band) over frames whose F0 (`f0`, one value per `hopSec`)
 * is non-zero; 512-point Hann frames centred on each voiced frame.
 */
export function spectralCentroid(x: Int16Array | Float32Array, sampleRate: number, f0: Float32Array, hopSec: number): number {
  const maxBin = Math.min(N / 2, Math.floor((5000 * N) / sampleRate));
  let sum = 0;
  let count = 0;
  const re = new Float64Array(N);
  const im = new Float64Array(N);
  for (let i = 0; i < f0.length; i += 2) {
    if (!(f0[i] > 0)) continue;
    const centre = Math.round((i + 0.5) * hopSec * sampleRate);
    const start = centre - N / 2;
    if (start < 0 || start + N > x.length) continue;
    for (let k = 0; k < N; k++) {
      re[k] = x[start + k] * (0.5 - 0.5 * Math.cos((2 * Math.PI * k) / (N - 1)));
      im[k] = 0;
    }
    fftMagnitude(re, im);
    let num = 0;
    let den = 0;
    for (let b = 1; b < maxBin; b++) {
      const m = Math.hypot(re[b], im[b]);
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

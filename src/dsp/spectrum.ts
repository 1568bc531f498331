/**
 * Power spectra of real frames, for every spectral measure of the repository (the mel spectra
 * of the Mandarin part classifiers and of the English phone classifier, the sibilant band tilt,
 * the English repetition likeness, the synthesised voice's brightness). The transform is
 * fft.js's real FFT: radix 4, on the real signal, its twiddle factors computed once per size.
 * Pure apart from its scratch buffer.
 */
import FFT from 'fft.js';

/**
 * A function that writes the power |X[k]|² of bins k < size / 2 of a real frame of `size`
 * samples (a power of two) into `power` (its length: size / 2, or fewer bins).
 */
export function powerSpectrum(size: number): (frame: Float64Array, power: Float64Array) => void {
  const transform = new FFT(size);
  const spectrum = new Float64Array(2 * size);
  return (frame, power) => {
    transform.realTransform(spectrum, frame);
    for (let k = 0; k < power.length; k++) power[k] = spectrum[2 * k] * spectrum[2 * k] + spectrum[2 * k + 1] * spectrum[2 * k + 1];
  };
}

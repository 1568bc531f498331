/**
 * The log mel spectrum of 16 kHz speech over the whole band, 100 Hz to 8 kHz, and a segment of
 * it as a classifier reads it. The acoustic models hear less: the Mandarin one only up to 4 kHz
 * (it was trained on 8 kHz speech), and both compare frames with the phones' mixtures rather than
 * with the other phones. The classifiers over these features are the Mandarin initials and
 * finals (src/zh/parts) and the English phones (src/en/phone-spectrum).
 *
 * Each 10 ms frame (a 25 ms Hann window from the frame's start, 512-point FFT) gives MEL_BANDS
 * log energies (mel.ts; training may read them through frequency warps), minus the recording's
 * mean of each band (the channel and, in part, the voice). A segment is its frames in thirds,
 * with the CONTEXT_FRAMES frames just before and just after it (a closure, a burst, the
 * transitions into and out of it) and its length.
 */
import { SAMPLES_PER_FRAME } from '../acoustic/types.js';
import { melFilterBank, melLogEnergies, type MelFilterBank } from './mel.js';
import { powerSpectrum } from './spectrum.js';

export const MEL_BANDS = 30;
const SAMPLE_RATE = 16000;
const FFT_SIZE = 512;
const WINDOW_SAMPLES = 400;
const LOW_HZ = 100;
const HIGH_HZ = 8000;
/** Frames before and after a segment that are read with it. */
const CONTEXT_FRAMES = 3;
/** log of this added to each band's energy: silence of digital zeros stays finite. */
const ENERGY_FLOOR = 1e-2;

const WINDOW = Float64Array.from({ length: WINDOW_SAMPLES }, (_, t) => 0.5 - 0.5 * Math.cos((2 * Math.PI * t) / (WINDOW_SAMPLES - 1)));
const filterCache = new Map<number, MelFilterBank>();
/** The filters per warp (training reads each recording through several). */
function filters(warp: number): MelFilterBank {
  let bank = filterCache.get(warp);
  if (!bank) filterCache.set(warp, (bank = melFilterBank({ bands: MEL_BANDS, lowHz: LOW_HZ, highHz: HIGH_HZ, fftSize: FFT_SIZE, sampleRate: SAMPLE_RATE, warp })));
  return bank;
}

const spectrumOf = powerSpectrum(FFT_SIZE);

/** Log mel spectra of 16 kHz audio, one per 10 ms frame, each band less its mean over the recording. */
export function melSpectra(pcm: Int16Array, warp = 1): Float32Array[] {
  const bank = filters(warp);
  const n = Math.floor(pcm.length / SAMPLES_PER_FRAME);
  const frame = new Float64Array(FFT_SIZE);
  const power = new Float64Array(FFT_SIZE / 2);
  const mean = new Float64Array(MEL_BANDS);
  const out: Float32Array[] = [];
  for (let f = 0; f < n; f++) {
    const off = f * SAMPLES_PER_FRAME;
    const len = Math.min(WINDOW_SAMPLES, pcm.length - off);
    for (let t = 0; t < len; t++) frame[t] = pcm[off + t] * WINDOW[t];
    frame.fill(0, len);
    spectrumOf(frame, power);
    const v = new Float32Array(MEL_BANDS);
    melLogEnergies(bank, power, ENERGY_FLOOR, v);
    for (let b = 0; b < MEL_BANDS; b++) mean[b] += v[b] / n;
    out.push(v);
  }
  for (const v of out) for (let b = 0; b < MEL_BANDS; b++) v[b] -= mean[b];
  return out;
}

/** Mean spectrum of frames [start, end) (at least one frame, clipped to the recording). */
function meanOf(spectra: readonly Float32Array[], start: number, end: number): number[] {
  const a = Math.min(Math.max(0, start), spectra.length - 1);
  const b = Math.min(spectra.length, Math.max(a + 1, end));
  const v = new Array<number>(MEL_BANDS).fill(0);
  for (let f = a; f < b; f++) for (let i = 0; i < MEL_BANDS; i++) v[i] += spectra[f][i] / (b - a);
  return v;
}

/** A segment's features (5 × MEL_BANDS + 1: see the file comment); null when the recording has no frames. */
export function segmentFeatures(spectra: readonly Float32Array[], s: number, e: number): number[] | null {
  if (spectra.length === 0) return null;
  const third = (e - s) / 3;
  return [
    ...meanOf(spectra, s - CONTEXT_FRAMES, s),
    ...meanOf(spectra, s, Math.round(s + third)),
    ...meanOf(spectra, Math.round(s + third), Math.round(s + 2 * third)),
    ...meanOf(spectra, Math.round(s + 2 * third), e),
    ...meanOf(spectra, e, e + CONTEXT_FRAMES),
    Math.log(Math.max(1, e - s)),
  ];
}

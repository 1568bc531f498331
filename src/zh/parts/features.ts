/**
 * What the parts of a syllable sound like, for telling its initial (b, p, zh, x, none, ...) and
 * its final (an, ang, iu, ...): the log mel spectrum over the whole band of 16 kHz speech, 100 Hz
 * to 8 kHz. The acoustic model hears only up to 4 kHz (it was trained on 8 kHz speech), and much
 * of what separates fricatives and affricates lies above (docs/mandarin-engine.md, "Initials and
 * finals heard from the whole band").
 *
 * Each 10 ms frame (a 25 ms Hann window from the frame's start, 512-point FFT) gives MEL_BANDS
 * log energies (src/dsp/mel.ts; training also reads them through frequency warps), minus the
 * recording's mean of each band (the channel and, in part, the voice).
 * A part is its aligned frames in thirds, with the frames just before and just after it (a
 * closure, a burst, the transitions between initial and final) and its length. The initial is
 * the syllable's first phone (for a syllable of one phone, its first ONSET_FRAMES frames), the
 * final its last phone.
 */
import { SAMPLES_PER_FRAME } from '../../acoustic/types.js';
import { melFilterBank, melLogEnergies, type MelFilterBank } from '../../dsp/mel.js';
import { powerSpectrum } from '../../dsp/spectrum.js';

export const MEL_BANDS = 30;
const SAMPLE_RATE = 16000;
const FFT_SIZE = 512;
const WINDOW_SAMPLES = 400;
const LOW_HZ = 100;
const HIGH_HZ = 8000;
/** Frames before and after a part that are read with it. */
const CONTEXT_FRAMES = 3;
/** Onset of a syllable aligned as one phone (a final alone). */
const ONSET_FRAMES = 4;
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

/** The parts of a syllable the classifiers judge. */
export type SyllablePart = 'initial' | 'final';

/** A part's frames: see the file comment. */
export function partSpan(phones: readonly { startFrame: number; endFrame: number }[], part: SyllablePart): { startFrame: number; endFrame: number } {
  if (part === 'final') return phones[phones.length - 1];
  const first = phones[0];
  return { startFrame: first.startFrame, endFrame: phones.length >= 2 ? first.endFrame : Math.min(first.endFrame, first.startFrame + ONSET_FRAMES) };
}

/** A part's features (5 × MEL_BANDS + 1); null when the recording has no frames. */
export function partFeatures(spectra: readonly Float32Array[], phones: readonly { startFrame: number; endFrame: number }[], part: SyllablePart): number[] | null {
  if (spectra.length === 0 || phones.length === 0) return null;
  const { startFrame: s, endFrame: e } = partSpan(phones, part);
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

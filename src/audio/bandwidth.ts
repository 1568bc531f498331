/**
 * Whether a recording carries speech above 4 kHz: frame energies and the share of energy above
 * 4.5 kHz over the loudest frames. Telephone-band speech (8 kHz, upsampled to 16 kHz) has
 * almost none, so judgements that read the high band (the English engine's narrowband leniency,
 * the Mandarin sibilant check) are made only on wideband speech. Pure: samples in, numbers out.
 */
import { SAMPLES_PER_FRAME } from '../acoustic/types.js';
import type { DecodedAudio } from './decode.js';

/** Share of energy above 4.5 kHz under which speech counts as narrowband (−50 dB; wideband speech: about −40 to −27 dB, telephone band upsampled: about −60 dB). */
export const NARROWBAND_SHARE = 1e-5;
const HP_TAPS = 31;

/**
 * High-pass FIR at 4.5 kHz (windowed sinc, Hamming, 31 taps; Oppenheim & Schafer ch. 7):
 * the impulse of an all-pass minus the low-pass. Built once.
 */
const HIGH_PASS: Float64Array = (() => {
  const h = new Float64Array(HP_TAPS);
  const fc = 4500 / 16000;
  const mid = (HP_TAPS - 1) / 2;
  for (let n = 0; n < HP_TAPS; n++) {
    const k = n - mid;
    const sinc = k === 0 ? 2 * fc : Math.sin(2 * Math.PI * fc * k) / (Math.PI * k);
    const w = 0.54 - 0.46 * Math.cos((2 * Math.PI * n) / (HP_TAPS - 1));
    h[n] = (k === 0 ? 1 : 0) - sinc * w;
  }
  return h;
})();

/**
 * Energy share above 4.5 kHz over the loudest frames (top quarter by energy, where speech is),
 * at 16 kHz. Telephone-band speech upsampled to 16 kHz has almost none; wideband speech has
 * fricatives and bursts well above it.
 */
export function highBandShare(pcm: Int16Array, energyDb: Float32Array): number {
  const sorted = Float32Array.from(energyDb).sort();
  const floor = sorted[Math.floor(sorted.length * 0.75)] ?? 0;
  let high = 0;
  let total = 0;
  for (let f = 0; f < energyDb.length; f++) {
    if (energyDb[f] < floor) continue;
    for (let i = f * SAMPLES_PER_FRAME; i < (f + 1) * SAMPLES_PER_FRAME; i++) {
      let y = 0;
      // The first samples have fewer than HP_TAPS before them: the missing ones count as 0.
      const taps = Math.min(HP_TAPS, i + 1);
      for (let t = 0; t < taps; t++) y += HIGH_PASS[t] * pcm[i - t];
      high += y * y;
      total += pcm[i] * pcm[i];
    }
  }
  return total > 0 ? high / total : 0;
}

export function frameEnergyDb(pcm: Int16Array): Float32Array {
  const frames = Math.floor(pcm.length / SAMPLES_PER_FRAME);
  const out = new Float32Array(frames);
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    const base = f * SAMPLES_PER_FRAME;
    for (let i = 0; i < SAMPLES_PER_FRAME; i++) {
      const s = pcm[base + i] / 32768;
      sum += s * s;
    }
    out[f] = Math.max(-100, 10 * Math.log10(sum / SAMPLES_PER_FRAME + 1e-10));
  }
  return out;
}

/** Speech that carries its band above 4 kHz: not sent at 8 kHz or less, nor upsampled from it. */
export function isWideband(audio: Pick<DecodedAudio, 'pcm' | 'lowSampleRate'>): boolean {
  return !audio.lowSampleRate && highBandShare(audio.pcm, frameEnergyDb(audio.pcm)) >= NARROWBAND_SHARE;
}

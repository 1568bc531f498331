/**
 * Frame-level signal measurements the prosody judgements need, on the backends' 10 ms grid:
 * log energy per frame and F0 (pYIN through src/dsp/pitch.ts). Pure: typed arrays in and out.
 */
import { trackPitch } from '../../dsp/pitch.js';
import { SAMPLES_PER_FRAME } from '../../acoustic/types.js';

export interface SignalFrames {
  /** Frame energy in dB relative to full scale (RMS of 10 ms, floor −100). */
  energyDb: Float32Array;
  /** F0 in Hz per 10 ms frame, 0 when unvoiced. */
  f0: Float32Array;
  /** True when the speech has no energy above 4 kHz (telephone band upsampled to 16 kHz). */
  narrowband?: boolean;
}

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

export function measureSignal(pcm: Int16Array, sampleRate = 16000): SignalFrames {
  const energyDb = frameEnergyDb(pcm);
  const f0 = trackPitch(pcm, sampleRate, { hopMs: 10 }).f0;
  return { energyDb, f0, narrowband: highBandShare(pcm, energyDb) < NARROWBAND_SHARE };
}

/** Mean of `values` over frames [start, end), or NaN for an empty range. */
export function meanOver(values: ArrayLike<number>, start: number, end: number, skipZero = false): number {
  let sum = 0;
  let n = 0;
  for (let i = Math.max(0, start); i < Math.min(values.length, end); i++) {
    if (skipZero && values[i] <= 0) continue;
    sum += values[i];
    n++;
  }
  return n === 0 ? NaN : sum / n;
}

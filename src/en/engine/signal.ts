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
  return { energyDb, f0 };
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

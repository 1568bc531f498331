/**
 * Frame-level signal measurements the prosody judgements need, on the backends' 10 ms grid:
 * log energy per frame and F0 (pYIN through src/dsp/pitch.ts). Pure: typed arrays in and out.
 */
import { trackPitch } from '../../dsp/pitch.js';
import { frameEnergyDb, highBandShare, NARROWBAND_SHARE } from '../../audio/bandwidth.js';

export interface SignalFrames {
  /** Frame energy in dB relative to full scale (RMS of 10 ms, floor −100). */
  energyDb: Float32Array;
  /** F0 in Hz per 10 ms frame, 0 when unvoiced. */
  f0: Float32Array;
  /** True when the speech has no energy above 4 kHz (telephone band upsampled to 16 kHz). */
  narrowband?: boolean;
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

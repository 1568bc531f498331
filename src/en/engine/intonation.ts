/**
 * Sentence-final intonation and pitch liveliness from F0 (pure).
 *
 * rear_tone: the F0 slope over the voiced frames of the last read word, in semitones per
 * second, by least squares; above +RISE_ST_PER_S a rise, below −FALL_ST_PER_S a fall, else
 * flat (thresholds after 't Hart, Collier & Cohen 1990: movements under about 1.5 semitones
 * are not heard as intonational). Liveliness: the 10-90 percentile F0 range in semitones
 * over the utterance; flat reading has a narrow range (Hincks 2005 on pitch variation).
 */
import type { ReadingEvidence } from './evidence.js';
import type { SignalFrames } from './signal.js';

export const RISE_ST_PER_S = 4;
export const FALL_ST_PER_S = 4;

export type RearTone = 'rise' | 'fall' | 'flat';

export interface IntonationMeasures {
  rearTone: RearTone;
  finalSlopeStPerS: number;
  /** 10-90 percentile F0 range over read speech, semitones (0 when unvoiced). */
  rangeSt: number;
  medianHz: number;
}

export function measureIntonation(ev: ReadingEvidence, signal: SignalFrames): IntonationMeasures {
  const read = ev.words.filter((w) => w.status === 'read');
  const voiced: number[] = [];
  for (let f = ev.speechStart; f < ev.speechEnd && f < signal.f0.length; f++) if (signal.f0[f] > 0) voiced.push(signal.f0[f]);
  voiced.sort((a, b) => a - b);
  const q = (p: number) => voiced[Math.min(voiced.length - 1, Math.floor(p * voiced.length))];
  const medianHz = voiced.length ? q(0.5) : 0;
  const rangeSt = voiced.length > 5 ? 12 * Math.log2(q(0.9) / q(0.1)) : 0;
  const last = read[read.length - 1];
  const slope = last ? finalSlope(signal.f0, last.startFrame, last.endFrame, medianHz) : 0;
  const rearTone: RearTone = slope > RISE_ST_PER_S ? 'rise' : slope < -FALL_ST_PER_S ? 'fall' : 'flat';
  return { rearTone, finalSlopeStPerS: slope, rangeSt, medianHz };
}

/** Least-squares slope of F0 (semitones re the median) against time over voiced frames, st/s. */
function finalSlope(f0: Float32Array, start: number, end: number, refHz: number): number {
  if (refHz <= 0) return 0;
  const xs: number[] = [];
  const ys: number[] = [];
  for (let f = Math.max(0, start); f < Math.min(f0.length, end); f++) {
    if (f0[f] <= 0) continue;
    xs.push(f / 100);
    ys.push(12 * Math.log2(f0[f] / refHz));
  }
  if (xs.length < 5) return 0;
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
  }
  return sxx > 0 ? sxy / sxx : 0;
}

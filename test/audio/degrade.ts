/**
 * Deterministic degradations of real speech for quality-warning tests and calibration:
 * gain (attenuation, or amplification with hard clipping), additive white or babble noise at
 * a given SNR (relative to the active speech level), truncation in the middle of the last
 * word, silence, and pure noise.
 */
import { detectSpeech } from '../../src/audio/vad.js';

/** Mulberry32: small seeded PRNG so every run produces the same noise. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function saturate(v: number): number {
  const r = Math.round(v);
  return r > 32767 ? 32767 : r < -32768 ? -32768 : r;
}

export function gain(pcm: Int16Array, db: number): Int16Array {
  const g = Math.pow(10, db / 20);
  return pcm.map((v) => saturate(v * g));
}

/** Gaussian white noise with unit variance (Box–Muller). */
export function whiteNoise(n: number, seed = 1): Float64Array {
  const r = prng(seed);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.sqrt(-2 * Math.log(r() + 1e-12)) * Math.cos(2 * Math.PI * r());
  return out;
}

/** Babble: the sum of other talkers' recordings, each looped and offset. */
export function babble(n: number, talkers: Int16Array[]): Float64Array {
  const out = new Float64Array(n);
  talkers.forEach((t, k) => {
    const offset = Math.floor((k * t.length) / 3);
    for (let i = 0; i < n; i++) out[i] += t[(i + offset) % t.length];
  });
  return out;
}

/** Mean power of `pcm` over its detected speech (the active speech level). */
export function activeSpeechPower(pcm: Int16Array, sampleRate = 16000): number {
  let sum = 0, count = 0;
  for (const s of detectSpeech(pcm, sampleRate)) {
    const a = Math.floor((s.startMs * sampleRate) / 1000), b = Math.min(pcm.length, Math.floor((s.endMs * sampleRate) / 1000));
    for (let i = a; i < b; i++) sum += pcm[i] * pcm[i];
    count += b - a;
  }
  return count ? sum / count : 0;
}

/** Adds `noise` scaled so that active speech power / noise power = snrDb. */
export function mixAtSnr(pcm: Int16Array, noise: Float64Array, snrDb: number): Int16Array {
  let np = 0;
  for (let i = 0; i < pcm.length; i++) np += noise[i] * noise[i];
  np /= pcm.length;
  const g = Math.sqrt(activeSpeechPower(pcm) / (np * Math.pow(10, snrDb / 10)));
  return pcm.map((v, i) => saturate(v + g * noise[i]));
}

/** Cuts the recording in the middle of its last speech segment (mid-word truncation). */
export function truncateMidWord(pcm: Int16Array, sampleRate = 16000): Int16Array {
  const segs = detectSpeech(pcm, sampleRate);
  const last = segs[segs.length - 1];
  if (!last) throw new Error('no speech to truncate');
  // Cut right after the loudest 10 ms frame in the second half of the last segment: inside a
  // vowel, not a pause, and with most of the utterance kept.
  const from = Math.floor((((last.startMs + last.endMs) / 2) * sampleRate) / 1000);
  const to = Math.floor((last.endMs * sampleRate) / 1000);
  const hop = sampleRate / 100;
  let best = from, bestE = -1;
  for (let i = from; i + hop <= to; i += hop) {
    let e = 0;
    for (let k = i; k < i + hop; k++) e += pcm[k] * pcm[k];
    if (e > bestE) { bestE = e; best = i; }
  }
  return pcm.slice(0, best + hop);
}

export function silence(seconds: number, sampleRate = 16000): Int16Array {
  return new Int16Array(Math.round(seconds * sampleRate));
}

/** Pure white noise at an RMS level in dBFS. */
export function noiseOnly(seconds: number, rmsDbfs: number, seed = 7, sampleRate = 16000): Int16Array {
  const n = whiteNoise(Math.round(seconds * sampleRate), seed);
  const g = 32768 * Math.pow(10, rmsDbfs / 20);
  return Int16Array.from(n, (v) => saturate(v * g));
}

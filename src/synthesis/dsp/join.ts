/**
 * Joining recorded units: silence trimming by short-time energy, overlap-add with a raised-
 * cosine crossfade at each join (the simplest form of the OLA smoothing used in
 * concatenative synthesis; Dutoit 1997, "An Introduction to Text-to-Speech Synthesis", ch. 10),
 * and loudness scaling. Pure: typed arrays in, typed arrays out.
 */

/**
 * Cuts leading and trailing stretches whose 5 ms RMS stays below `thresholdDb` relative to the
 * loudest 5 ms block (default −35 dB), keeping `padSec` (default 10 ms) of margin.
 */
export function trimSilence(x: Float32Array, sampleRate: number, thresholdDb = -35, padSec = 0.01): Float32Array {
  const block = Math.max(1, Math.round(sampleRate * 0.005));
  const nb = Math.floor(x.length / block);
  if (nb === 0) return x;
  const rms = new Float32Array(nb);
  let peak = 0;
  for (let b = 0; b < nb; b++) {
    let s = 0;
    for (let i = b * block; i < (b + 1) * block; i++) s += x[i] * x[i];
    rms[b] = Math.sqrt(s / block);
    if (rms[b] > peak) peak = rms[b];
  }
  if (peak === 0) return x.subarray(0, 0);
  const floor = peak * Math.pow(10, thresholdDb / 20);
  let first = 0;
  while (first < nb && rms[first] < floor) first++;
  let last = nb - 1;
  while (last > first && rms[last] < floor) last--;
  const pad = Math.round(sampleRate * padSec);
  const start = Math.max(0, first * block - pad);
  const end = Math.min(x.length, (last + 1) * block + pad);
  return x.subarray(start, end);
}

/** A piece of the output: samples, or a pause of `pauseSec` seconds. */
export type Piece = { samples: Float32Array } | { pauseSec: number };

/**
 * Concatenates pieces; consecutive sample pieces overlap by `fadeSec` (default 15 ms) with
 * complementary raised-cosine gains, so joins have neither clicks nor a level dip for
 * correlated material. Pauses are inserted as digital silence with short fades on both sides.
 */
export function joinPieces(pieces: Piece[], sampleRate: number, fadeSec = 0.015): Float32Array {
  const fade = Math.max(1, Math.round(sampleRate * fadeSec));
  let total = 0;
  for (const p of pieces) total += 'samples' in p ? p.samples.length : Math.round(p.pauseSec * sampleRate);
  const out = new Float32Array(total + fade);
  let at = 0;
  let prevWasAudio = false;
  for (const p of pieces) {
    if (!('samples' in p)) {
      at += Math.round(p.pauseSec * sampleRate);
      prevWasAudio = false;
      continue;
    }
    const s = p.samples;
    const ov = prevWasAudio ? Math.min(fade, s.length >> 1, at) : 0;
    const start = at - ov;
    for (let i = 0; i < s.length; i++) {
      let g = 1;
      if (i < ov) g = 0.5 - 0.5 * Math.cos((Math.PI * (i + 0.5)) / ov);
      out[start + i] = (i < ov ? out[start + i] * (1 - g) : 0) + g * s[i];
    }
    at = start + s.length;
    prevWasAudio = true;
  }
  return out.subarray(0, at);
}

/** Fades the first and last `sec` seconds in and out (raised cosine). In place. */
export function fadeEdges(x: Float32Array, sampleRate: number, sec = 0.005): Float32Array {
  const n = Math.min(x.length >> 1, Math.round(sampleRate * sec));
  for (let i = 0; i < n; i++) {
    const g = 0.5 - 0.5 * Math.cos((Math.PI * (i + 0.5)) / n);
    x[i] *= g;
    x[x.length - 1 - i] *= g;
  }
  return x;
}

/** Gain that puts the 99.9th-percentile absolute sample (from a 20 000-sample subset) at `targetPeak`. */
export function peakGain(x: Float32Array, targetPeak: number): number {
  if (x.length === 0) return 1;
  const step = Math.max(1, Math.floor(x.length / 20000));
  const sample = new Float32Array(Math.ceil(x.length / step));
  for (let i = 0, k = 0; i < x.length; i += step, k++) sample[k] = Math.abs(x[i]);
  sample.sort();
  const ref = sample[Math.min(sample.length - 1, Math.floor(sample.length * 0.999))];
  return ref > 0 ? targetPeak / ref : 1;
}

/** Float to 16-bit PCM, times `gain`, with clipping. */
export function toInt16(x: Float32Array, gain = 1): Int16Array {
  const out = new Int16Array(x.length);
  const g = gain * 32767;
  for (let i = 0; i < x.length; i++) {
    const v = x[i] * g;
    out[i] = v > 32767 ? 32767 : v < -32767 ? -32767 : v; // Int16Array stores truncate toward zero
  }
  return out;
}

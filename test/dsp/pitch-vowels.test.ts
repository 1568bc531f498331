/**
 * Source-filter vowels with known F0: a harmonic source with a −12 dB/octave tilt (all
 * harmonics below 4 kHz, band-limited so the F0 is exact at every sample) through three
 * formant resonators (Klatt-style second-order sections) for /a/, /i/, /u/. F0 follows the
 * citation contours of the four tones in a low (male, 110 Hz) and a high (female, 220 Hz)
 * register. Formants near 2·F0 are the classic cause of octave errors, which this catches.
 * Tolerance: ±2% of the true F0 on at least 97% of the frames more than 3 frames inside each
 * syllable, and no frame off by more than 10%.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { trackPitch } from '../../src/dsp/pitch.js';

const RATE = 16000;
const VOWELS: Record<string, [number, number][]> = {
  a: [[800, 80], [1200, 90], [2500, 120]],
  i: [[300, 60], [2300, 100], [3000, 120]],
  u: [[300, 60], [800, 80], [2300, 100]],
};

/** F0 multiplier over normalised time t ∈ [0, 1] for each tone (shapes after Chao's 55/35/214/51). */
const TONES: Record<number, (t: number) => number> = {
  1: () => 1.25,
  2: (t) => 0.95 + 0.45 * t * t,
  3: (t) => (t < 0.6 ? 1.0 - 0.3 * (t / 0.6) : 0.7 + 0.5 * ((t - 0.6) / 0.4)),
  4: (t) => 1.5 - 0.75 * t,
};

function vowel(formants: [number, number][], f0At: (t: number) => number, seconds: number): Float32Array {
  const n = Math.round(seconds * RATE);
  const src = new Float32Array(n);
  const phases = new Float64Array(60);
  for (let i = 0; i < n; i++) {
    const f0 = f0At(i / n);
    let s = 0;
    for (let k = 1; k * f0 < 4000 && k < 60; k++) {
      phases[k] += (2 * Math.PI * f0 * k) / RATE;
      s += Math.sin(phases[k]) / (k * k);
    }
    src[i] = s;
  }
  let x = src;
  for (const [freq, bw] of formants) {
    const r = Math.exp((-Math.PI * bw) / RATE);
    const c1 = 2 * r * Math.cos((2 * Math.PI * freq) / RATE);
    const c2 = -r * r;
    const y = new Float32Array(n);
    for (let i = 0; i < n; i++) y[i] = (1 - r) * x[i] + c1 * (y[i - 1] ?? 0) + c2 * (y[i - 2] ?? 0);
    x = y;
  }
  let peak = 0;
  for (const v of x) peak = Math.max(peak, Math.abs(v));
  return x.map((v) => (0.5 * v) / peak);
}

test('four tones × three vowels × two registers: F0 within 2% on ≥ 97% of frames, never off by 10%', () => {
  const seconds = 0.4;
  for (const base of [110, 220]) {
    for (const [name, formants] of Object.entries(VOWELS)) {
      for (const tone of [1, 2, 3, 4]) {
        const f0At = (t: number) => base * TONES[tone](t);
        const x = vowel(formants, f0At, seconds);
        const { f0, hopMs } = trackPitch(x, RATE);
        let good = 0;
        let total = 0;
        for (let i = 3; i < f0.length - 3; i++) {
          const truth = f0At(((i + 0.5) * hopMs) / 1000 / seconds);
          const err = f0[i] > 0 ? Math.abs(f0[i] / truth - 1) : 1;
          assert.ok(err < 0.1, `${base} Hz /${name}/ tone ${tone} frame ${i}: ${f0[i].toFixed(1)} vs ${truth.toFixed(1)} Hz`);
          if (err <= 0.02) good++;
          total++;
        }
        assert.ok(good / total >= 0.97, `${base} Hz /${name}/ tone ${tone}: ${good}/${total} frames within 2%`);
      }
    }
  }
});

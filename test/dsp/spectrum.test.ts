import { test } from 'node:test';
import assert from 'node:assert/strict';
import { powerSpectrum } from '../../src/dsp/spectrum.js';

test('power spectrum equals the direct DFT power of a seeded real signal of 64 points', () => {
  const n = 64;
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
  const x = Float64Array.from({ length: n }, rand);
  const power = new Float64Array(n / 2);
  powerSpectrum(n)(x, power);
  for (let k = 0; k < n / 2; k++) {
    let sr = 0;
    let si = 0;
    for (let t = 0; t < n; t++) {
      sr += x[t] * Math.cos((-2 * Math.PI * k * t) / n);
      si += x[t] * Math.sin((-2 * Math.PI * k * t) / n);
    }
    assert.ok(Math.abs(power[k] - (sr * sr + si * si)) < 1e-9, `bin ${k}`);
  }
});

test('a cosine of 5 cycles in 32 points puts its power into bin 5 alone; the same function serves frame after frame', () => {
  const spectrum = powerSpectrum(32);
  const power = new Float64Array(16);
  for (const cycles of [5, 3]) {
    spectrum(Float64Array.from({ length: 32 }, (_, t) => Math.cos((2 * Math.PI * cycles * t) / 32)), power);
    for (let k = 0; k < 16; k++) assert.ok(Math.abs(power[k] - (k === cycles ? 256 : 0)) < 1e-9, `bin ${k}`);
  }
});

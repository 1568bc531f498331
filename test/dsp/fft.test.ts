import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fft } from '../../src/dsp/fft.js';

test('fft equals the direct DFT on a seeded signal of 64 points', () => {
  const n = 64;
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
  const x = Array.from({ length: n }, () => [rand(), rand()]);
  const re = Float64Array.from(x.map((v) => v[0]));
  const im = Float64Array.from(x.map((v) => v[1]));
  fft(re, im);
  for (let k = 0; k < n; k++) {
    let sr = 0;
    let si = 0;
    for (let t = 0; t < n; t++) {
      const a = (-2 * Math.PI * k * t) / n;
      sr += x[t][0] * Math.cos(a) - x[t][1] * Math.sin(a);
      si += x[t][0] * Math.sin(a) + x[t][1] * Math.cos(a);
    }
    assert.ok(Math.abs(re[k] - sr) < 1e-9 && Math.abs(im[k] - si) < 1e-9, `bin ${k}`);
  }
});

test('a cosine of 5 cycles in 32 points puts half its length into bins 5 and 27', () => {
  const re = Float64Array.from({ length: 32 }, (_, t) => Math.cos((2 * Math.PI * 5 * t) / 32));
  const im = new Float64Array(32);
  fft(re, im);
  for (let k = 0; k < 32; k++) assert.ok(Math.abs(Math.hypot(re[k], im[k]) - (k === 5 || k === 27 ? 16 : 0)) < 1e-9, `bin ${k}`);
});

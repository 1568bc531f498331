/**
 * Pitch tracker on synthetic signals whose F0 is known exactly. Tolerance: ±2% of the true F0
 * on every voiced frame away from the edges (frames whose window reaches past the signal).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { trackPitch } from '../../src/dsp/pitch.js';

const RATE = 16000;
const EDGE = 3; // frames at each end whose window is partly zero padding

function synth(seconds: number, freqAt: (t: number) => number, harmonics = 1, rate = RATE): Float32Array {
  const x = new Float32Array(Math.round(rate * seconds));
  const phase = new Float64Array(harmonics);
  for (let i = 0; i < x.length; i++) {
    const f = freqAt(i / rate);
    let s = 0;
    for (let k = 0; k < harmonics; k++) {
      phase[k] += (2 * Math.PI * f * (k + 1)) / rate;
      s += (0.4 / (k + 1)) * Math.sin(phase[k] + k);
    }
    x[i] = s;
  }
  return x;
}

function assertTracks(x: Float32Array, freqAt: (t: number) => number, rate = RATE, tolerance = 0.02): void {
  const { f0, hopMs } = trackPitch(x, rate);
  assert.equal(f0.length, Math.floor((x.length / rate) * 100));
  for (let i = EDGE; i < f0.length - EDGE; i++) {
    const truth = freqAt(((i + 0.5) * hopMs) / 1000);
    assert.ok(f0[i] > 0, `frame ${i} should be voiced (true F0 ${truth.toFixed(1)} Hz)`);
    const err = Math.abs(f0[i] / truth - 1);
    assert.ok(err <= tolerance, `frame ${i}: ${f0[i].toFixed(2)} Hz vs ${truth.toFixed(2)} Hz (${(err * 100).toFixed(2)}%)`);
  }
}

test('pure sines from 65 to 480 Hz are tracked within 2%', () => {
  for (const hz of [65, 90, 130, 220, 300, 480]) assertTracks(synth(0.6, () => hz), () => hz);
});

test('harmonic complexes (10 partials, 1/k amplitudes) are tracked within 2%, no octave errors', () => {
  for (const hz of [80, 150, 260, 420]) assertTracks(synth(0.6, () => hz, 10), () => hz);
});

test('a harmonic complex with a missing fundamental still gives the fundamental within 2%', () => {
  const hz = 140;
  const x = synth(0.6, () => hz, 8);
  const pure = synth(0.6, () => hz, 1);
  for (let i = 0; i < x.length; i++) x[i] -= pure[i]; // remove the first partial
  assertTracks(x, () => hz);
});

test('rising and falling glides (one octave per 0.5 s, like tones 2 and 4) are tracked within 2%', () => {
  const rise = (t: number) => 110 * 2 ** (t / 0.5);
  const fall = (t: number) => 360 * 2 ** (-t / 0.5);
  assertTracks(synth(0.5, rise, 6), rise);
  assertTracks(synth(0.5, fall, 6), fall);
});

test('other sample rates (8, 22.05, 44.1 kHz) give the same answer within 2%', () => {
  for (const rate of [8000, 22050, 44100]) assertTracks(synth(0.5, () => 180, 6, rate), () => 180, rate);
});

test('white noise and digital silence are unvoiced', () => {
  let seed = 12345;
  const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32) - 0.5;
  const noise = new Float32Array(RATE).map(() => rand());
  const n = trackPitch(noise, RATE);
  const voicedNoise = n.f0.filter((v) => v > 0).length;
  assert.ok(voicedNoise <= 2, `noise: ${voicedNoise} of ${n.f0.length} frames voiced (allowed 2)`);
  assert.ok(Math.max(...n.voicing) < 0.3, 'noise voicing probability stays below 0.3');
  const s = trackPitch(new Int16Array(RATE), RATE);
  assert.equal(s.f0.filter((v) => v > 0).length, 0);
  assert.equal(Math.max(...s.voicing), 0);
});

test('voiced-silence-voiced: the gap is unvoiced and the voiced parts are tracked', () => {
  const x = synth(0.9, () => 200, 5);
  x.fill(0, RATE * 0.3, RATE * 0.6);
  const { f0 } = trackPitch(x, RATE);
  for (let i = 34; i < 56; i++) assert.equal(f0[i], 0, `frame ${i} in the gap`);
  for (const i of [10, 20, 70, 80]) assert.ok(Math.abs(f0[i] / 200 - 1) < 0.02, `frame ${i}: ${f0[i]}`);
});

test('Int16 input equals Float32 input scaled by 1/32768 (within 0.1%)', () => {
  const x = synth(0.4, () => 160, 4);
  const i16 = Int16Array.from(x, (v) => Math.round(v * 32767));
  const a = trackPitch(x, RATE).f0;
  const b = trackPitch(i16, RATE).f0;
  for (let i = EDGE; i < a.length - EDGE; i++) assert.ok(Math.abs(a[i] / b[i] - 1) < 0.001);
});

test('options: hopMs changes the frame count, a narrowed range excludes an out-of-range F0', () => {
  const x = synth(1, () => 200, 4);
  assert.equal(trackPitch(x, RATE, { hopMs: 5 }).f0.length, 200);
  const narrowed = trackPitch(x, RATE, { minHz: 60, maxHz: 150 }).f0;
  // 200 Hz is outside 60–150 Hz: frames are either unvoiced or at the subharmonic 100 Hz.
  for (let i = EDGE; i < narrowed.length - EDGE; i++) assert.ok(narrowed[i] === 0 || Math.abs(narrowed[i] / 100 - 1) < 0.02);
  assert.throws(() => trackPitch(x, RATE, { minHz: 300, maxHz: 200 }), RangeError);
  assert.equal(trackPitch(new Float32Array(10), RATE).f0.length, 0);
});

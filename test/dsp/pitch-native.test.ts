/**
 * The pitch tracker's native loops (native/pitch-loops.c) against its TypeScript loops: the
 * decimation filter and the frames' block cross-correlations give the same numbers, bit for bit,
 * on a synthetic signal (views into a larger buffer included) and the whole track is the same on
 * real recordings. Skipped where the native library is not built (the TypeScript serves then).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { decodeAudio } from '../../src/audio/decode.js';
import { PitchAnalysis, trackPitch } from '../../src/dsp/pitch.js';
import { pitchLoops } from '../../src/dsp/pitch-loops.js';
import { decimate, decimatePart } from '../../src/dsp/resample.js';
import { FrameCorrelations } from '../../src/dsp/yin.js';
import { SHARED_DATA_DIR } from '../helpers/app.js';
import { ENGLISH_SENTENCE, MANDARIN_SENTENCE } from '../audio/fixtures.js';

const built = pitchLoops() !== null;

function signal(n: number, seed = 7): Float32Array {
  const x = new Float32Array(n);
  const noise = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5) * 0.2;
  for (let i = 0; i < n; i++) x[i] = 0.3 * Math.sin((2 * Math.PI * 173 * i) / 16000) + 0.1 * Math.sin((2 * Math.PI * 1900 * i) / 16000) + noise();
  return x;
}

test('native decimation equals the TypeScript filter, ends and views included', { skip: !built && 'native/build/libkouyu-pitch.so not built' }, () => {
  const buffer = signal(16000 + 333);
  for (const factor of [2, 3, 5]) {
    for (const x of [buffer, buffer.subarray(101, 9000), buffer.subarray(0, 40)]) {
      assert.deepEqual(decimate(x, factor), decimate(x, factor, false), `factor ${factor}, ${x.length} samples at ${x.byteOffset}`);
    }
    const whole = decimate(buffer, factor);
    const part = buffer.subarray(factor * 250, factor * 2000);
    assert.deepEqual(decimatePart(part, factor, whole, 250), decimatePart(part, factor, whole, 250, false));
    assert.deepEqual(decimatePart(part, factor, whole, 250), decimate(part, factor, false), 'a part from the whole equals its own decimation');
  }
});

test('native block cross-correlations equal the TypeScript sums for every frame and lag', { skip: !built && 'native/build/libkouyu-pitch.so not built' }, () => {
  const hop = 80;
  const win = 200;
  const maxLag = 134;
  const frames = FrameCorrelations.CHUNK_FRAMES * 2 + 17;
  const x = decimate(signal(frames * hop * 2), 2, false);
  const first = Math.round(0.5 * hop - (win + maxLag) / 2);
  const native = new FrameCorrelations(x, first, hop, frames, win, maxLag);
  const typescript = new FrameCorrelations(x, first, hop, frames, win, maxLag, false);
  for (let i = 0; i < frames; i++) {
    const a = native.of(i);
    const b = typescript.of(i);
    const single = typescript.single(i);
    for (let tau = 1; tau <= maxLag + 1; tau++) {
      assert.ok(Object.is(a.r[a.base + tau], b.r[b.base + tau]), `frame ${i}, lag ${tau}: ${a.r[a.base + tau]} against ${b.r[b.base + tau]}`);
      assert.ok(Object.is(single.r[single.base + tau], b.r[b.base + tau]), `frame ${i} alone, lag ${tau}`);
    }
  }
});

test('on real recordings the native loops give the same track, whole and over stretches', { skip: !built && 'native/build/libkouyu-pitch.so not built' }, async () => {
  const harvard = path.join(SHARED_DATA_DIR, 'en', 'harvard', 'resources');
  const files = [MANDARIN_SENTENCE, ENGLISH_SENTENCE, path.join(harvard, fs.readdirSync(harvard).filter((f) => /\.(flac|wav)$/.test(f)).sort()[0])];
  for (const file of files) {
    const { pcm, sampleRate } = await decodeAudio(fs.readFileSync(file));
    const native = trackPitch(pcm, sampleRate);
    const typescript = trackPitch(pcm, sampleRate, { native: false });
    assert.ok(native.f0.some((f) => f > 0), `${path.basename(file)}: voiced frames expected`);
    assert.deepEqual(native, typescript, `${path.basename(file)}: whole`);
    const n = new PitchAnalysis(pcm, sampleRate);
    const t = new PitchAnalysis(pcm, sampleRate, { native: false });
    const stretch = { from: 12, to: n.frameCount - 9 };
    assert.deepEqual(n.track(stretch), t.track(stretch), `${path.basename(file)}: stretch`);
  }
});

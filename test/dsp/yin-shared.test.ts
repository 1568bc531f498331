/**
 * The shared cross-correlations of the pitch tracker (FrameCorrelations) against the sum they
 * replace, computed directly over each frame's zero-padded segment: every lag of every frame,
 * including frames whose segment reaches past either end of the signal and frames on both
 * sides of a chunk boundary; and the whole tracker on real recordings with the shared sums and
 * with per-frame ones.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { decodeAudio } from '../../src/audio/decode.js';
import { trackPitch } from '../../src/dsp/pitch.js';
import { FrameCorrelations } from '../../src/dsp/yin.js';
import { SHARED_DATA_DIR } from '../helpers/app.js';
import { ENGLISH_SENTENCE } from '../audio/fixtures.js';

/** A voiced-like signal with noise, so that no lag's sum is trivially zero. */
function signal(n: number): Float32Array {
  const x = new Float32Array(n);
  let seed = 12345;
  const noise = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5) * 0.1;
  for (let i = 0; i < n; i++) x[i] = 0.4 * Math.sin((2 * Math.PI * 140 * i) / 8000) + 0.2 * Math.sin((2 * Math.PI * 280 * i) / 8000 + 1) + noise();
  return x;
}

function direct(x: Float32Array, start: number, tau: number, a: number, win: number): number {
  const at = (j: number) => (j >= 0 && j < x.length ? x[j] : 0);
  let r = 0;
  for (let j = 0; j < win; j++) r += at(start + a + j) * at(start + a + j + tau);
  return r;
}

test('shared cross-correlations equal the direct sums for every frame and lag', () => {
  // The tracker's set-up at 8 kHz: 10 ms hop, 25 ms window, lags up to 60 Hz.
  const hop = 80;
  const win = 200;
  const maxLag = 134;
  const frames = FrameCorrelations.CHUNK_FRAMES + 40;
  const x = signal(frames * hop);
  const first = Math.round(0.5 * hop - (win + maxLag) / 2);
  assert.ok(FrameCorrelations.applies(hop, win));
  const shared = new FrameCorrelations(x, first, hop, frames, win, maxLag);
  const check = [0, 1, 2, FrameCorrelations.CHUNK_FRAMES - 1, FrameCorrelations.CHUNK_FRAMES, frames - 2, frames - 1];
  for (const i of [...check, 5, 3]) {
    const { r, base } = shared.of(i);
    for (let tau = 1; tau <= maxLag + 1; tau++) {
      const a = Math.max(0, (maxLag - tau) >> 1);
      const want = direct(x, first + i * hop, tau, a, win);
      assert.ok(Math.abs(r[base + tau] - want) <= 1e-9 * Math.max(1, Math.abs(want)), `frame ${i}, lag ${tau}: ${r[base + tau]} against ${want}`);
    }
  }
});

test('a hop that is not a whole number of samples, or shares no block with the window, is computed directly', () => {
  assert.equal(FrameCorrelations.applies(110.25, 276), false);
  assert.equal(FrameCorrelations.applies(81, 200), false);
  assert.equal(FrameCorrelations.applies(80, 200), true);
});

test('on real recordings the tracker gives the same F0 and voicing with shared and with per-frame sums', async () => {
  const firstOf = (dir: string, n: number) => fs.readdirSync(dir).filter((f) => /\.(flac|wav)$/.test(f)).sort().slice(0, n).map((f) => path.join(dir, f));
  const files = [...firstOf(path.join(SHARED_DATA_DIR, 'zh', 'aishell-s0150'), 4), ...firstOf(path.join(SHARED_DATA_DIR, 'en', 'harvard', 'resources'), 2), ENGLISH_SENTENCE];
  for (const file of files) {
    const { pcm, sampleRate } = await decodeAudio(fs.readFileSync(file));
    const shared = trackPitch(pcm, sampleRate);
    const own = trackPitch(pcm, sampleRate, { shareFrames: false });
    assert.ok(shared.f0.some((f) => f > 0), `${path.basename(file)}: voiced frames expected`);
    assert.deepEqual(shared.f0, own.f0, `${path.basename(file)}: F0`);
    assert.deepEqual(shared.voicing, own.voicing, `${path.basename(file)}: voicing`);
  }
});

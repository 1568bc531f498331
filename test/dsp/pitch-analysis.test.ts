/**
 * One pitch analysis of a recording, tracked over stretches of it (PitchAnalysis.track), against
 * the tracker run on each stretch's samples alone: the same F0, voicing and level, bit for bit,
 * for stretches inside the recording, at either end, shorter than the analysis window, empty,
 * and at rates where a frame is not a whole number of analysed samples.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { decodeAudio } from '../../src/audio/decode.js';
import { PitchAnalysis, trackPitch, type PitchTrack } from '../../src/dsp/pitch.js';
import { ENGLISH_SENTENCE, MANDARIN_SENTENCE } from '../audio/fixtures.js';

function assertSame(got: PitchTrack, want: PitchTrack, what: string): void {
  assert.deepEqual(got.f0, want.f0, `${what}: F0`);
  assert.deepEqual(got.voicing, want.voicing, `${what}: voicing`);
  assert.deepEqual(got.levelDb, want.levelDb, `${what}: level`);
}

/** Stretches [from, to) of a recording of `frames` frames: seeded, plus the edge cases. */
function stretches(frames: number): [number, number][] {
  let seed = 20261201;
  const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  const out: [number, number][] = [[0, frames], [0, frames - 7], [9, frames], [1, 2], [40, 44], [50, 50], [frames - 3, frames]];
  for (let k = 0; k < 12; k++) {
    const from = rand(frames);
    out.push([from, from + 1 + rand(frames - from)]);
  }
  return out;
}

function checkRecording(pcm: Int16Array, sampleRate: number, name: string): void {
  const analysis = new PitchAnalysis(pcm, sampleRate);
  const whole = analysis.track();
  assert.ok(whole.f0.some((f) => f > 0), `${name}: voiced frames expected`);
  assertSame(whole, trackPitch(pcm, sampleRate), `${name}, whole`);
  const hop = (sampleRate * 10) / 1000;
  for (const [from, to] of stretches(analysis.frameCount)) {
    const alone = trackPitch(pcm.subarray(Math.round(from * hop), Math.round(to * hop)), sampleRate);
    assertSame(analysis.track({ from, to }), alone, `${name}, frames ${from}-${to}`);
  }
  // The stretches' frames the whole track left out do not enter it later.
  assertSame(analysis.track(), trackPitch(pcm, sampleRate), `${name}, whole after the stretches`);
}

test('stretches tracked from one analysis equal the tracker on their own samples (16 kHz)', async () => {
  for (const file of [MANDARIN_SENTENCE, ENGLISH_SENTENCE]) {
    const { pcm, sampleRate } = await decodeAudio(fs.readFileSync(file));
    checkRecording(pcm, sampleRate, file.split('/').pop()!);
  }
});

test('the same at 8 kHz (no decimation) and at 44.1 kHz (a frame is not a whole number of analysed samples)', async () => {
  const { pcm } = await decodeAudio(fs.readFileSync(MANDARIN_SENTENCE));
  // Every other sample, and a plain linear resampling: the tracker's input need not be clean audio here.
  const narrow = pcm.filter((_, i) => i % 2 === 0);
  checkRecording(narrow, 8000, '8 kHz');
  const wide = Int16Array.from({ length: Math.floor((pcm.length * 44100) / 16000) }, (_, i) => {
    const t = (i * 16000) / 44100;
    const j = Math.floor(t);
    return Math.round(pcm[j] + (t - j) * ((pcm[j + 1] ?? 0) - pcm[j]));
  });
  checkRecording(wide, 44100, '44.1 kHz');
});

test('a stretch outside the recording is empty, and one that runs past its end stops at its last whole frame', async () => {
  const { pcm, sampleRate } = await decodeAudio(fs.readFileSync(MANDARIN_SENTENCE));
  const analysis = new PitchAnalysis(pcm, sampleRate);
  const n = analysis.frameCount;
  assert.equal(analysis.track({ from: n + 5, to: n + 10 }).f0.length, 0);
  assertSame(analysis.track({ from: n - 20, to: n + 50 }), analysis.track({ from: n - 20, to: n }), 'past the end');
});

test('frames a stretch analysed under its own gate do not enter the whole track, whatever the order', () => {
  // A loud second, then a second 38 or 54 dB quieter by turns every 30 ms: its louder
  // steps pass the whole recording's silence gate and its quieter ones only the stretch's own.
  const rate = 16000;
  const pcm = new Int16Array(2 * rate);
  for (let i = 0; i < pcm.length; i++) {
    const t = i / rate;
    const voice = Math.sin(2 * Math.PI * 150 * t) + 0.5 * Math.sin(2 * Math.PI * 300 * t) + 0.3 * Math.sin(2 * Math.PI * 450 * t);
    const level = i < rate ? 0.5 : Math.floor(i / (0.03 * rate)) % 2 === 0 ? 0.5 * 10 ** (-38 / 20) : 0.5 * 10 ** (-54 / 20);
    pcm[i] = Math.round(32767 * 0.5 * level * voice);
  }
  const analysis = new PitchAnalysis(pcm, rate);
  const quiet = analysis.track({ from: 100, to: 200 });
  assert.ok(quiet.f0.filter((f) => f > 0).length > 50, 'the quiet second is voiced on its own');
  assertSame(analysis.track(), trackPitch(pcm, rate), 'whole after the quiet stretch');
});

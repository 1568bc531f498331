import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { decodeAudio } from '../../src/audio/decode.js';
import { SileroVad } from '../../src/audio/silero-vad.js';
import { detectSpeech, energyVad, speechSeconds, type SpeechSegment, type VoiceActivityDetector } from '../../src/audio/vad.js';
import { SHARED_DATA_DIR } from '../helpers/app.js';
import { noiseOnly, silence } from './degrade.js';
import { concatPcm } from '../../src/audio/resample.js';

const FILES = [
  'zh/aishell-s0150/BAC009S0150W0002.flac',
  'en/librivox/sense_and_sensibility_01_austen_64kb-0870.flac',
  'en/ljspeech/wavs/LJ001-0004.flac',
  'en/harvard/resources/export_10.flac',
];

const pcms: Int16Array[] = [];
let silero: SileroVad;
before(async () => {
  for (const f of FILES) pcms.push((await decodeAudio(fs.readFileSync(path.join(SHARED_DATA_DIR, f)))).pcm);
  silero = await SileroVad.create();
});
after(async () => silero.close());

/** Share of 10 ms frames on which two segmentations agree. */
function agreement(a: SpeechSegment[], b: SpeechSegment[], totalMs: number): number {
  const frames = Math.floor(totalMs / 10);
  const mark = (segs: SpeechSegment[]) => {
    const m = new Uint8Array(frames);
    for (const s of segs) m.fill(1, Math.floor(s.startMs / 10), Math.min(frames, Math.ceil(s.endMs / 10)));
    return m;
  };
  const x = mark(a), y = mark(b);
  let same = 0;
  for (let i = 0; i < frames; i++) if (x[i] === y[i]) same++;
  return same / frames;
}

test('energy VAD: segments are ordered, inside the file, and cover most of read speech', () => {
  for (const pcm of pcms) {
    const totalMs = (pcm.length / 16000) * 1000;
    const segs = detectSpeech(pcm, 16000);
    assert.ok(segs.length >= 1);
    for (let i = 0; i < segs.length; i++) {
      assert.ok(segs[i].startMs >= 0 && segs[i].endMs <= totalMs && segs[i].startMs < segs[i].endMs);
      if (i > 0) assert.ok(segs[i].startMs > segs[i - 1].endMs, 'segments do not overlap');
    }
    const share = speechSeconds(segs) / (totalMs / 1000);
    assert.ok(share > 0.5 && share <= 1, `speech share ${share.toFixed(2)}`);
  }
});

test('energy VAD finds a 1.5 s pause inserted between two utterances (±150 ms)', () => {
  const a = pcms[1], b = pcms[3];
  const gapStartMs = (a.length / 16000) * 1000;
  const joined = concatPcm([a, noiseOnly(1.5, -70), b]);
  const segs = detectSpeech(joined, 16000);
  const before = segs.filter((s) => s.endMs <= gapStartMs + 150);
  const after = segs.filter((s) => s.startMs >= gapStartMs + 1500 - 150);
  assert.ok(before.length >= 1 && after.length >= 1, JSON.stringify(segs));
  assert.equal(before.length + after.length, segs.length, 'no segment inside the pause');
});

test('energy VAD: nothing in silence, in stationary noise at any level, or in an empty buffer', () => {
  assert.deepEqual(detectSpeech(silence(2), 16000), []);
  for (const level of [-60, -40, -20]) assert.deepEqual(detectSpeech(noiseOnly(2, level, 3), 16000), [], `${level} dBFS`);
  assert.deepEqual(detectSpeech(new Int16Array(0), 16000), []);
});

test('energy and Silero VAD agree on at least 85 % of 10 ms frames of real read speech', async () => {
  const detectors: VoiceActivityDetector[] = [energyVad, silero];
  for (const pcm of pcms) {
    const [e, s] = await Promise.all(detectors.map((d) => d.detect(pcm, 16000)));
    const agree = agreement(e, s, (pcm.length / 16000) * 1000);
    assert.ok(agree >= 0.85, `agreement ${agree.toFixed(2)}`);
  }
});

test('Silero VAD: high probability in speech, low in silence and noise', async () => {
  const probs = await silero.probabilities(pcms[1], 16000);
  const sorted = Float32Array.from(probs).sort();
  assert.ok(sorted[Math.floor(sorted.length / 2)] > 0.8, 'median window probability in read speech');
  assert.deepEqual(await silero.detect(silence(2), 16000), []);
  assert.deepEqual(await silero.detect(noiseOnly(2, -30, 5), 16000), []);
  await assert.rejects(silero.probabilities(pcms[0], 8000), RangeError);
});

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { decodeAudio } from '../../src/audio/decode.js';
import { resample, SincResampler } from '../../src/audio/resample.js';
import { StreamingIntake } from '../../src/audio/stream.js';
import { ApiError } from '../../src/errors.js';
import { tempDir } from '../helpers/app.js';
import { ffmpeg, MANDARIN_SENTENCE, referencePcm } from './fixtures.js';

let dir = '';
before(() => {
  dir = tempDir('kouyu-stream-');
  ffmpeg(['-i', MANDARIN_SENTENCE, '-ar', '16000', '-ac', '1', '-c:a', 'pcm_s16le', path.join(dir, 'a16.wav')]);
  ffmpeg(['-i', MANDARIN_SENTENCE, '-ar', '44100', '-ac', '2', '-c:a', 'pcm_s16le', path.join(dir, 'st44.wav')]);
  ffmpeg(['-i', MANDARIN_SENTENCE, '-c:a', 'libopus', '-b:a', '24k', path.join(dir, 'a.opus')]);
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Feeds a file in chunks of varying size (odd sizes split samples and the header). */
function feed(file: Buffer, sizes = [7, 33, 1000, 3201, 4096]): { intake: StreamingIntake; pcmGrowth: number[]; views: Int16Array[] } {
  const intake = new StreamingIntake();
  const pcmGrowth: number[] = [];
  const views: Int16Array[] = [];
  for (let at = 0, k = 0; at < file.length; k++) {
    const n = sizes[k % sizes.length];
    intake.push(file.subarray(at, at + n));
    at += n;
    const pcm = intake.pcmSoFar();
    pcmGrowth.push(pcm?.length ?? -1);
    if (pcm && k % 10 === 0) views.push(pcm);
  }
  return { intake, pcmGrowth, views };
}

function snrDb(ref: Int16Array, test: Int16Array, skip: number): number {
  let s = 0, e = 0;
  for (let i = skip; i < ref.length - skip; i++) {
    s += ref[i] * ref[i];
    e += (ref[i] - test[i]) ** 2;
  }
  return 10 * Math.log10(s / Math.max(e, 1));
}

test('16 kHz mono WAV streamed in odd chunks equals the whole-file decode exactly', async () => {
  const file = fs.readFileSync(path.join(dir, 'a16.wav'));
  const { intake, pcmGrowth, views } = feed(file);
  assert.equal(intake.bytes, file.length);
  assert.ok(intake.raw.equals(file));
  // PCM is available while chunks arrive, and only grows.
  assert.ok(pcmGrowth.some((n) => n > 0 && n < pcmGrowth[pcmGrowth.length - 1]));
  for (let i = 1; i < pcmGrowth.length; i++) assert.ok(pcmGrowth[i] >= pcmGrowth[i - 1]);
  const streamed = await intake.finish();
  const whole = await decodeAudio(file);
  assert.deepEqual(streamed.pcm, whole.pcm);
  assert.equal(streamed.durationSec, whole.durationSec);
  // Views handed out earlier still hold the same samples (prefixes of the final PCM).
  assert.ok(views.length > 3);
  for (const v of views) assert.deepEqual(v, whole.pcm.subarray(0, v.length));
});

test('44.1 kHz stereo WAV is downmixed and resampled in-process: same as whole-file decode, close to ffmpeg', async () => {
  const file = fs.readFileSync(path.join(dir, 'st44.wav'));
  const { intake } = feed(file);
  assert.ok((intake.pcmSoFar()?.length ?? 0) > 0);
  const streamed = await intake.finish();
  assert.deepEqual(streamed.source, { format: 'wav', sampleRate: 44100, channels: 2 });
  const whole = await decodeAudio(file);
  assert.deepEqual(streamed.pcm, whole.pcm);
  // Against ffmpeg's resampler: lengths agree to one sample, waveforms to better than 30 dB SNR.
  const ref = referencePcm(path.join(dir, 'st44.wav'));
  assert.ok(Math.abs(streamed.pcm.length - ref.length) <= 1);
  const n = Math.min(streamed.pcm.length, ref.length);
  const snr = snrDb(ref.subarray(0, n), streamed.pcm.subarray(0, n), 800);
  assert.ok(snr > 30, `SNR ${snr.toFixed(1)} dB`);
});

test('chunked resampling equals one-shot resampling of the same signal', () => {
  const x = new Float32Array(44100);
  for (let i = 0; i < x.length; i++) x[i] = 0.5 * Math.sin((2 * Math.PI * 440 * i) / 44100);
  const whole = resample(x, 44100, 16000);
  assert.equal(whole.length, 16000);
  // A 440 Hz sine at 16 kHz: compare to the analytic samples away from the edges (tolerance 1e-3).
  for (let i = 200; i < 15800; i += 97) assert.ok(Math.abs(whole[i] - 0.5 * Math.sin((2 * Math.PI * 440 * i) / 16000)) < 1e-3);
  const r = new SincResampler(44100, 16000);
  const parts: number[] = [];
  for (let at = 0, k = 0; at < x.length; k++) {
    const n = [1, 17, 441, 4000][k % 4];
    parts.push(...r.push(x.subarray(at, at + n)));
    at += n;
  }
  parts.push(...r.flush());
  assert.equal(parts.length, whole.length);
  for (let i = 0; i < whole.length; i++) assert.ok(Math.abs(parts[i] - whole[i]) < 1e-6, `sample ${i}`);
  // A rate pair without a small rational ratio takes the direct (non-polyphase) path: same accuracy.
  const y = Float32Array.from({ length: 16001 }, (_, i) => 0.5 * Math.sin((2 * Math.PI * 440 * i) / 16001));
  const z = resample(y, 16001, 16000);
  assert.equal(z.length, 16000);
  for (let i = 200; i < 15800; i += 97) assert.ok(Math.abs(z[i] - 0.5 * Math.sin((2 * Math.PI * 440 * i) / 16000)) < 1e-3);
});

test('non-WAV containers are kept raw and decoded at finish', async () => {
  const file = fs.readFileSync(path.join(dir, 'a.opus'));
  const { intake } = feed(file, [500, 1500]);
  assert.equal(intake.pcmSoFar(), null);
  const d = await intake.finish();
  assert.equal(d.source.format, 'ogg-opus');
  assert.ok(Math.abs(d.durationSec - 2.429) < 0.05);
});

test('the 10 MB limit is enforced as bytes arrive', () => {
  const intake = new StreamingIntake();
  const chunk = Buffer.alloc(1024 * 1024);
  fs.readFileSync(path.join(dir, 'a16.wav')).copy(chunk, 0, 0, 44);
  for (let i = 0; i < 10; i++) intake.push(chunk);
  assert.throws(() => intake.push(Buffer.alloc(1)), (err: unknown) => err instanceof ApiError && err.code === 40001 && err.message === 'audio larger than 10 MB');
});

test('a malformed WAV header in the first chunk is refused', () => {
  const header = Buffer.from(fs.readFileSync(path.join(dir, 'a16.wav')).subarray(0, 44));
  header.writeUInt16LE(0, 22); // zero channels
  const intake = new StreamingIntake();
  assert.throws(() => intake.push(header), (err: unknown) => err instanceof ApiError && err.code === 40001);
});

test('an empty stream is refused at finish', async () => {
  await assert.rejects(new StreamingIntake().finish(), (err: unknown) => err instanceof ApiError && err.message === 'audio is empty');
});

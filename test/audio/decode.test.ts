import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { decodeAudio, minDurationError, MAX_AUDIO_BYTES } from '../../src/audio/decode.js';
import { detectFormat } from '../../src/audio/format.js';
import { parseWavHeader } from '../../src/audio/wav.js';
import { ApiError } from '../../src/errors.js';
import { tempDir } from '../helpers/app.js';
import { ENGLISH_SENTENCE, ffmpeg, hasAmrWbEncoder, makeFormatFixtures, referencePcm, soxDuration, type FormatFixture } from './fixtures.js';

/** Encoders add or drop priming samples (AAC ~46 ms, WMA ~40 ms): durations agree within 0.1 s. */
const DURATION_TOLERANCE_S = 0.1;

let dir = '';
let fixtures: FormatFixture[] = [];
let sourceSeconds = 0;

before(() => {
  dir = tempDir('kouyu-audio-');
  fixtures = makeFormatFixtures(ENGLISH_SENTENCE, dir);
  sourceSeconds = soxDuration(ENGLISH_SENTENCE);
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

async function rejects40001(input: Buffer, message: RegExp, opts?: Parameters<typeof decodeAudio>[1]): Promise<void> {
  await assert.rejects(decodeAudio(input, opts), (err: unknown) => {
    assert.ok(err instanceof ApiError, `expected ApiError, got ${String(err)}`);
    assert.equal(err.code, 40001);
    assert.equal(err.status, 400);
    assert.match(err.message, message);
    return true;
  });
}

test('every accepted format decodes to 16 kHz mono with the source duration', async () => {
  const names = fixtures.map((f) => f.name);
  for (const want of ['mp3', 'm4a (aac)', 'aac (adts)', 'amr-nb', '3gp (amr-nb)', 'ogg vorbis', 'opus', 'webm (opus)', 'flac', 'wma']) {
    assert.ok(names.includes(want), `fixture ${want} generated`);
  }
  for (const f of fixtures) {
    const input = fs.readFileSync(f.file);
    const d = await decodeAudio(input);
    assert.equal(d.sampleRate, 16000);
    assert.ok(Math.abs(d.durationSec - sourceSeconds) <= DURATION_TOLERANCE_S, `${f.name}: ${d.durationSec} s vs ${sourceSeconds} s`);
    assert.equal(d.pcm.length, Math.round(d.durationSec * 16000));
    assert.ok(d.source.format.startsWith(f.format), `${f.name}: format ${d.source.format}, expected ${f.format}`);
    assert.equal(d.source.sampleRate, f.sampleRate, `${f.name}: source rate`);
    assert.equal(d.source.channels, f.channels, `${f.name}: source channels`);
    assert.equal(d.lowSampleRate, f.sampleRate <= 8000, `${f.name}: lowSampleRate`);
    // Real speech survived: RMS within 25 dB of full scale minus a wide margin (not silence, not noise burst).
    let sum = 0;
    for (const v of d.pcm) sum += v * v;
    const rmsDb = 10 * Math.log10(sum / d.pcm.length / 32768 ** 2);
    assert.ok(rmsDb > -45 && rmsDb < -10, `${f.name}: RMS ${rmsDb.toFixed(1)} dBFS`);
  }
});

test('amr-wb and amr-wb in 3gp decode through sox', { skip: hasAmrWbEncoder() ? false : 'libvo-amrwbenc0 not installed' }, async () => {
  for (const name of ['amr-wb', '3gp (amr-wb)']) {
    const f = fixtures.find((x) => x.name === name);
    assert.ok(f, `${name} fixture`);
    const d = await decodeAudio(fs.readFileSync(f.file));
    assert.ok(Math.abs(d.durationSec - sourceSeconds) <= DURATION_TOLERANCE_S);
    assert.equal(d.source.sampleRate, 16000);
  }
});

test('16 kHz mono WAV takes the in-process path and matches the samples exactly', async () => {
  const wav = fixtures.find((f) => f.name === 'wav 16 kHz mono');
  assert.ok(wav);
  const d = await decodeAudio(fs.readFileSync(wav.file));
  assert.deepEqual(d.pcm, referencePcm(ENGLISH_SENTENCE));
});

test('format is detected from content, not the file name', () => {
  const mp3 = fs.readFileSync(path.join(dir, 'a.mp3'));
  assert.equal(detectFormat(mp3), 'mp3');
  assert.equal(detectFormat(fs.readFileSync(path.join(dir, 'a.amr'))), 'amr-nb');
  assert.equal(detectFormat(fs.readFileSync(path.join(dir, 'amr.3gp'))), '3gp-amr-nb');
  assert.equal(detectFormat(fs.readFileSync(path.join(dir, 'aac.3gp'))), '3gp');
  assert.equal(detectFormat(fs.readFileSync(path.join(dir, 'a.opus'))), 'ogg-opus');
  assert.equal(detectFormat(fs.readFileSync(path.join(dir, 'a.ogg'))), 'ogg-vorbis');
  assert.equal(detectFormat(Buffer.from('hello world, this is text')), null);
  // MP3 without an ID3 tag is recognised by two consecutive frame headers.
  const bare = path.join(dir, 'bare.mp3');
  ffmpeg(['-i', ENGLISH_SENTENCE, '-c:a', 'libmp3lame', '-b:a', '64k', '-id3v2_version', '0', '-write_xing', '0', bare]);
  const bareBytes = fs.readFileSync(bare);
  assert.notEqual(bareBytes.toString('latin1', 0, 3), 'ID3');
  assert.equal(detectFormat(bareBytes), 'mp3');
});

test('a file cut short decodes what arrived (streams) or is refused (index at the end)', async () => {
  const mp3 = fs.readFileSync(path.join(dir, 'a.mp3'));
  const half = await decodeAudio(mp3.subarray(0, mp3.length >> 1));
  assert.ok(Math.abs(half.durationSec - sourceSeconds / 2) < 0.3, `half mp3: ${half.durationSec} s`);
  const wav = fs.readFileSync(path.join(dir, 'a16.wav'));
  const parsed = parseWavHeader(wav);
  assert.ok(parsed.ok);
  const halfWav = await decodeAudio(wav.subarray(0, parsed.header.dataOffset + 16000 * 2 + 1));
  assert.equal(halfWav.pcm.length, 16000);
  // ffmpeg writes the MP4 index (moov) last: without it nothing can be decoded.
  const m4a = fs.readFileSync(path.join(dir, 'a.m4a'));
  await rejects40001(m4a.subarray(0, m4a.length >> 1), /could not be decoded/);
});

test('bad inputs give 400 40001 with the cause', async () => {
  await rejects40001(Buffer.alloc(0), /^audio is empty$/);
  const wav = fs.readFileSync(path.join(dir, 'a16.wav'));
  await rejects40001(wav.subarray(0, 20), /truncated WAV header/);
  const mp4 = fs.readFileSync(path.join(dir, 'a.m4a'));
  await rejects40001(mp4.subarray(0, 40), /could not be decoded/);
  const random = Buffer.alloc(64 * 1024);
  let x = 12345;
  for (let i = 0; i < random.length; i++) random[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
  await rejects40001(random, /unsupported or unrecognised audio format/);
  await rejects40001(Buffer.from('RIFF but really a text file\n'.repeat(40)), /unsupported or unrecognised|could not be decoded/);
  await rejects40001(Buffer.from('Just a plain text file.\n'.repeat(100)), /unsupported or unrecognised audio format/);
  // FLAC and Vorbis headers followed by garbage or nothing (the sox route).
  const flac = fs.readFileSync(path.join(dir, 'a.flac'));
  await rejects40001(Buffer.concat([flac.subarray(0, 42), random.subarray(0, 4000)]), /could not be decoded/);
  const ogg = fs.readFileSync(path.join(dir, 'a.ogg'));
  await rejects40001(ogg.subarray(0, 200), /could not be decoded/);
  // A header claiming MP3 followed by garbage: ffmpeg finds no frames.
  await rejects40001(Buffer.concat([Buffer.from('ID3\x03\x00\x00\x00\x00\x00\x00', 'latin1'), Buffer.alloc(4000, 7)]), /could not be decoded/);
});

test('11 MB upload is refused before decoding', async () => {
  const big = Buffer.alloc(11 * 1024 * 1024);
  fs.readFileSync(path.join(dir, 'a16.wav')).copy(big);
  assert.ok(big.length > MAX_AUDIO_BYTES);
  await rejects40001(big, /^audio larger than 10 MB$/);
});

test('six minutes of audio is refused as longer than 5 minutes', async () => {
  // Both files are far under 10 MB (6 min of 8 kHz 16-bit PCM is 5.8 MB), so only the duration limit applies.
  const sixMin = path.join(dir, 'six.mp3');
  ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=8000:duration=360', '-c:a', 'libmp3lame', '-b:a', '8k', sixMin]);
  await rejects40001(fs.readFileSync(sixMin), /^audio longer than 5 minutes$/);
  const wav = path.join(dir, 'six.wav');
  ffmpeg(['-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono', '-t', '360', '-c:a', 'pcm_s16le', wav]);
  await rejects40001(fs.readFileSync(wav), /^audio longer than 5 minutes$/);
});

test('minDurationError refuses audio shorter than 1 second', async () => {
  const short = path.join(dir, 'short.wav');
  ffmpeg(['-i', ENGLISH_SENTENCE, '-t', '0.6', '-ar', '16000', '-ac', '1', short]);
  const d = await decodeAudio(fs.readFileSync(short));
  assert.ok(Math.abs(d.durationSec - 0.6) < 0.01);
  const err = minDurationError(d);
  assert.ok(err instanceof ApiError);
  assert.equal(err.code, 40001);
  assert.equal(err.message, 'audio shorter than 1 second');
  assert.equal(minDurationError(await decodeAudio(fs.readFileSync(path.join(dir, 'a16.wav')))), null);
});

test('decoding is a pure function of the upload: resampled FLAC, Ogg Vorbis and AMR come out the same twice', async () => {
  // 22.05 kHz and 44.1 kHz sources make sox resample, where its automatic dither used to add
  // random noise to every decode.
  const cases: [string, string[]][] = [
    ['b22.flac', ['-ar', '22050', '-c:a', 'flac']],
    ['b44.ogg', ['-ar', '44100', '-c:a', 'libvorbis']],
  ];
  for (const [name, args] of cases) {
    const file = path.join(dir, name);
    ffmpeg(['-i', ENGLISH_SENTENCE, ...args, file]);
    const input = fs.readFileSync(file);
    const [a, b] = [await decodeAudio(input), await decodeAudio(input)];
    assert.equal(a.pcm.length, b.pcm.length, name);
    assert.ok(Buffer.from(a.pcm.buffer, a.pcm.byteOffset, a.pcm.byteLength).equals(Buffer.from(b.pcm.buffer, b.pcm.byteOffset, b.pcm.byteLength)), `${name}: two decodes differ`);
  }
  const amr = fixtures.find((f) => f.name === 'amr-nb');
  assert.ok(amr, 'the AMR-NB fixture exists');
  const input = fs.readFileSync(amr.file);
  const [a, b] = [await decodeAudio(input), await decodeAudio(input)];
  assert.deepEqual(a.pcm, b.pcm);
});

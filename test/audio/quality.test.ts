import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { decodeAudio } from '../../src/audio/decode.js';
import { analyzeQuality, QUALITY_THRESHOLDS } from '../../src/audio/quality.js';
import { SHARED_DATA_DIR } from '../helpers/app.js';
import { babble, gain, mixAtSnr, noiseOnly, silence, truncateMidWord, whiteNoise } from './degrade.js';

/** Clean native read speech from five corpora (see each folder's SOURCE.md). */
const CLEAN = [
  'zh/aishell-s0150/BAC009S0150W0001.flac',
  'zh/aishell-s0150/BAC009S0150W0007.flac',
  'zh/aishell-s0150/BAC009S0150W0013.flac',
  'en/librivox/sense_and_sensibility_01_austen_64kb-0870.flac',
  'en/ljspeech/wavs/LJ001-0002.flac',
  'en/harvard/resources/export_1.flac',
  'en/harvard/resources/export_12.flac',
  'en/alphanumeric-accented/audio_data/Addresses/R_14L9qNxUlipFmsF.flac',
];
/** Real phone recordings with audible background noise (measured SNR 2.5 and 9.6 dB). */
const REAL_NOISY = ['R_5hBj9gxvIoDecnz.flac', 'R_4shv1y28wS6SaPv.flac'].map((f) => `en/alphanumeric-accented/audio_data/Addresses/${f}`);

const pcmOf = new Map<string, Int16Array>();
before(async () => {
  for (const f of [...CLEAN, ...REAL_NOISY]) pcmOf.set(f, (await decodeAudio(fs.readFileSync(path.join(SHARED_DATA_DIR, f)))).pcm);
});

const codes = (pcm: Int16Array) => analyzeQuality(pcm, 16000).warnings.map((w) => w.code);
const clean = () => CLEAN.map((f) => pcmOf.get(f)!);

test('clean real recordings raise no warning', () => {
  for (const f of CLEAN) {
    const q = analyzeQuality(pcmOf.get(f)!, 16000);
    assert.deepEqual(q.warnings, [], `${f}: ${JSON.stringify(q.metrics)}`);
    assert.ok(q.metrics.speechSeconds > 1, `${f}: speech found`);
    assert.ok(q.metrics.snrDb !== null && q.metrics.snrDb > QUALITY_THRESHOLDS.NOISY_SNR_DB);
  }
});

test('warnings carry the exact codes and messages of the spec', () => {
  const q = analyzeQuality(silence(2), 16000);
  assert.deepEqual(q.warnings, [
    { code: 1001, message: 'No valid audio detected!' },
    { code: 1002, message: 'Audio volume too low!' },
  ]);
  const all = [
    analyzeQuality(gain(clean()[3], 30), 16000).warnings.find((w) => w.code === 1003),
    analyzeQuality(mixAtSnr(clean()[3], whiteNoise(clean()[3].length), 0), 16000).warnings.find((w) => w.code === 1004),
    analyzeQuality(truncateMidWord(clean()[3]), 16000).warnings.find((w) => w.code === 1005),
  ];
  assert.deepEqual(all, [
    { code: 1003, message: 'Audio volume too high!' },
    { code: 1004, message: 'Audio noisy!' },
    { code: 1005, message: 'Audio not complete!' },
  ]);
});

test('1001: silence and pure noise contain no valid audio', () => {
  assert.ok(codes(silence(3)).includes(1001));
  for (const level of [-50, -30, -15]) assert.deepEqual(codes(noiseOnly(3, level)), [1001], `white noise at ${level} dBFS`);
});

test('1002: speech attenuated by 30 dB is too low, and only that', () => {
  for (const pcm of clean()) {
    assert.deepEqual(codes(gain(pcm, -30)), [1002]);
  }
});

test('1003: speech amplified into hard clipping is too high', () => {
  for (const pcm of clean()) {
    const c = codes(gain(pcm, 30));
    assert.ok(c.includes(1003), `got ${c}`);
  }
  // +6 dB on the loudest clean file leaves its peaks below full scale: no warning.
  assert.ok(!codes(gain(pcmOf.get(CLEAN[3])!, 6)).includes(1003));
});

test('1004: white and babble noise at 5 dB SNR are noisy; at 20 dB they are not', () => {
  clean().forEach((pcm, i) => {
    // Babble: the seven other recordings talking at once.
    const others = clean().filter((t) => t !== pcm);
    assert.ok(codes(mixAtSnr(pcm, whiteNoise(pcm.length, i + 1), 5)).includes(1004), `white 5 dB #${i}`);
    assert.ok(codes(mixAtSnr(pcm, babble(pcm.length, others), 5)).includes(1004), `babble 5 dB #${i}`);
    assert.ok(!codes(mixAtSnr(pcm, whiteNoise(pcm.length, i + 1), 20)).includes(1004), `white 20 dB #${i}`);
    assert.ok(!codes(mixAtSnr(pcm, babble(pcm.length, others), 20)).includes(1004), `babble 20 dB #${i}`);
  });
  // Measured SNR tracks the mixed SNR (white noise, ±4 dB tolerance).
  const pcm = pcmOf.get(CLEAN[3])!;
  const snr = analyzeQuality(mixAtSnr(pcm, whiteNoise(pcm.length, 9), 10), 16000).metrics.snrDb!;
  assert.ok(Math.abs(snr - 10) <= 4, `measured ${snr.toFixed(1)} dB for 10 dB mixed`);
});

test('1004 on real noisy phone recordings', () => {
  for (const f of REAL_NOISY) assert.ok(codes(pcmOf.get(f)!).includes(1004), f);
});

test('1005: speech cut mid-word is not complete; the intact recording is', () => {
  for (const pcm of clean()) {
    const cut = truncateMidWord(pcm);
    assert.ok(cut.length < pcm.length);
    const q = analyzeQuality(cut, 16000);
    assert.ok(q.metrics.trailingSpeech, `cut at ${(cut.length / 16).toFixed(0)} ms`);
    assert.ok(q.warnings.some((w) => w.code === 1005));
    assert.equal(analyzeQuality(pcm, 16000).metrics.trailingSpeech, false);
  }
});

test('metrics: levels of a full-scale-relative sine are exact within 0.1 dB', () => {
  // A sine of amplitude 0.5 FS: peak −6.02 dBFS, RMS −9.03 dBFS.
  const sine = Int16Array.from({ length: 16000 }, (_, i) => Math.round(16384 * Math.sin((2 * Math.PI * 200 * i) / 16000)));
  const m = analyzeQuality(sine, 16000).metrics;
  assert.ok(Math.abs(m.peakDbfs + 6.02) < 0.1, `peak ${m.peakDbfs}`);
  assert.ok(Math.abs(m.rmsDbfs + 9.03) < 0.1, `rms ${m.rmsDbfs}`);
  assert.equal(m.clippedRatio, 0);
});

/** Metering increments for evaluation, TTS and ASR. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { asrUsage, countChars, evaluationUsage, roundSeconds, ttsUsage } from '../../src/metering/meters.js';

const subject = { tenantId: 't_1', meterKey: 'ak_1' };

test('characters are code points: Chinese, emoji and spaces count once each', () => {
  assert.equal(countChars('床前明月光'), 5);
  assert.equal(countChars('hi 👋🏽'), 5); // h, i, space, wave, skin-tone modifier
  assert.equal(countChars(''), 0);
});

test('an evaluation meters one call, the reference characters and the audio seconds', () => {
  assert.deepEqual(evaluationUsage(subject, 'Good morning, 老师', 3.14159), [
    { tenantId: 't_1', appKey: 'ak_1', meter: 'evaluation.calls', quantity: 1 },
    { tenantId: 't_1', appKey: 'ak_1', meter: 'evaluation.chars', quantity: 16 },
    { tenantId: 't_1', appKey: 'ak_1', meter: 'evaluation.audio_seconds', quantity: 3.142 },
  ]);
});

test('TTS meters characters as tts.standard, ASR seconds as asr.stream; console calls use their meter key', () => {
  assert.deepEqual(ttsUsage({ tenantId: 't_1', meterKey: 'console:teacher' }, '你好，世界'), [
    { tenantId: 't_1', appKey: 'console:teacher', meter: 'tts.standard', quantity: 5 },
  ]);
  assert.deepEqual(asrUsage(subject, 12.0004), [{ tenantId: 't_1', appKey: 'ak_1', meter: 'asr.stream', quantity: 12 }]);
});

test('seconds are rounded to the millisecond and must be finite and non-negative', () => {
  assert.equal(roundSeconds(0.0015), 0.002);
  assert.throws(() => roundSeconds(-1), RangeError);
  assert.throws(() => roundSeconds(Number.NaN), RangeError);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/errors.js';
import { parseEvaluationConfig } from '../../src/evaluation/config.js';

const base = { coreType: 'sentence', referenceText: '你好', language: 'zh-CN' };

function rejects(config: Record<string, unknown>, message: RegExp) {
  assert.throws(
    () => parseEvaluationConfig(config),
    (err: unknown) => err instanceof ApiError && err.code === 40001 && err.status === 400 && message.test(err.message),
    JSON.stringify(config),
  );
}

test('defaults follow the spec table', () => {
  const c = parseEvaluationConfig({ coreType: 'word', referenceText: 'apple' });
  assert.equal(c.language, 'en-US');
  assert.equal(c.slack, 0);
  assert.equal(c.scale, 100);
  assert.equal(c.precision, 1);
  assert.equal(c.gradeBand, 4);
  assert.equal(c.phonemeOutput, true);
  assert.equal(c.includeReport, true);
  assert.equal(c.includeAsrText, true);
  assert.equal(c.includeStandardAudio, false);
  assert.equal(c.taskType, 'free');
  assert.equal(c.openLevel, 2);
  assert.equal(c.paragraphNeedWordScore, 0);
  assert.equal(c.genre, null);
  assert.deepEqual(c.reportSlots, {});
});

test('missing fields are named; refText counts as missing', () => {
  rejects({ referenceText: 'x' }, /missing coreType/);
  rejects({ coreType: 'word' }, /missing referenceText/);
  rejects({ coreType: 'word', refText: 'x' }, /missing referenceText.*refText/);
});

test('enumerations, bounds and kind/language combinations', () => {
  rejects({ ...base, coreType: 'sent.eval.cn' }, /coreType must be one of/);
  rejects({ ...base, language: 'fr-FR' }, /language must be one of/);
  rejects({ ...base, referenceText: 'a'.repeat(1001) }, /longer than 1000/);
  rejects({ ...base, slack: 1.5 }, /slack/);
  rejects({ ...base, scale: 0 }, /scale/);
  rejects({ ...base, scale: 101 }, /scale/);
  rejects({ ...base, scale: 9.5 }, /scale must be an integer/);
  rejects({ ...base, precision: 0 }, /precision/);
  rejects({ ...base, precision: 2 }, /precision/);
  rejects({ ...base, gradeBand: 5 }, /gradeBand/);
  rejects({ ...base, agegroup: 4 }, /agegroup/);
  rejects({ ...base, keyPoints: Array.from({ length: 21 }, (_, i) => `p${i}`) }, /at most 20/);
  rejects({ ...base, reportPrompt: 'x'.repeat(601) }, /reportPrompt/);
  rejects({ ...base, reportSlots: Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`k${i}`, 'v'])) }, /at most 8/);
  rejects({ ...base, reportSlots: { focus: 'x'.repeat(121) } }, /reportSlots.focus/);
  rejects({ ...base, coreType: 'pinyin' }, /refPinyin is required/);
  rejects({ coreType: 'alpha', referenceText: 'A B', language: 'zh-CN' }, /alpha is not available for language zh-CN/);
  rejects({ coreType: 'connected', referenceText: 'x', language: 'en-GB' }, /connected/);
  assert.equal(parseEvaluationConfig({ ...base, referenceText: '好'.repeat(1000) }).referenceText.length, 1000);
});

test('gradeBand wins over agegroup; agegroup maps onto bands', () => {
  assert.equal(parseEvaluationConfig({ ...base, agegroup: 1 }).gradeBand, 1);
  assert.equal(parseEvaluationConfig({ ...base, agegroup: 2 }).gradeBand, 2);
  assert.equal(parseEvaluationConfig({ ...base, agegroup: 3 }).gradeBand, 4);
  assert.equal(parseEvaluationConfig({ ...base, agegroup: 1, gradeBand: 3 }).gradeBand, 3);
});

test('reportPrompt becomes the focus slot with placeholders stripped; empty slots equal none', () => {
  assert.deepEqual(parseEvaluationConfig({ ...base, reportPrompt: 'Stress tones ${overall} please' }).reportSlots, { focus: 'Stress tones please' });
  assert.deepEqual(parseEvaluationConfig({ ...base, reportSlots: {} }).reportSlots, {});
  assert.deepEqual(parseEvaluationConfig({ ...base, reportSlots: { focus: 'tones' }, reportPrompt: 'other' }).reportSlots, { focus: 'tones' });
  assert.deepEqual(parseEvaluationConfig({ ...base, reportVariables: { a: 1 } }).reportSlots, {});
});

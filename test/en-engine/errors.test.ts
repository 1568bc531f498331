import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/errors.js';
import { parseEvaluationConfig } from '../../src/evaluation/config.js';
import { audio, closeEngine, englishEngine, SO762 } from './setup.js';

after(closeEngine);

/** Configs are built field by field here so the engine's own checks are reached (the parser checks length too). */
function raw(fields: Record<string, unknown>) {
  return { ...parseEvaluationConfig({ coreType: 'sentence', referenceText: 'x', language: 'en-US' }), ...fields };
}

async function rejects(fields: Record<string, unknown>, pattern: RegExp) {
  const { engine } = await englishEngine();
  const pcm = await audio(...SO762.file);
  await assert.rejects(engine.assess(raw(fields), pcm), (e: unknown) => e instanceof ApiError && e.code === 40001 && pattern.test(e.message));
}

test('text of only punctuation is 40001', async () => {
  await rejects({ referenceText: '... ?! —' }, /word/i);
});

test('more than 1,000 characters is 40001 in the parser and in the engine', async () => {
  const long = 'read '.repeat(201);
  assert.throws(() => parseEvaluationConfig({ coreType: 'sentence', referenceText: long }), (e: unknown) => e instanceof ApiError && e.code === 40001);
  await rejects({ referenceText: long }, /1,?000/);
});

test('alpha accepts only single letters', async () => {
  await rejects({ coreType: 'alpha', referenceText: 'A BC D' }, /letter/i);
});

test('a kind or language the English engine does not score is 40001', async () => {
  await rejects({ coreType: 'open' }, /coreType/);
  await rejects({ language: 'zh-CN' }, /zh-CN/);
});

/**
 * Round trip: synthesise a text, score the audio with the project's own evaluation engines
 * against the same text. Standard audio is what learners imitate, so it must score high.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { createInThreadBackend } from '../../src/acoustic/backend.js';
import type { AcousticBackend } from '../../src/acoustic/types.js';
import type { Assessment } from '../../src/assessment/types.js';
import { decodeAudio } from '../../src/audio/decode.js';
import { loadEnglishLexicon } from '../../src/en/lexicon/index.js';
import { createEnglishEngine } from '../../src/en/engine/index.js';
import { parseEvaluationConfig } from '../../src/evaluation/config.js';
import { synthesizeWith, type SynthesisOverrides } from '../../src/synthesis/synthesize.js';
import type { SynthesisRequest } from '../../src/synthesis/types.js';
import { createMandarinEngine } from '../../src/zh/engine/engine.js';
import { REPO_ROOT, testConfig } from '../helpers/app.js';
import { request, testEngines } from './helpers.js';

const backends: AcousticBackend[] = [];
after(async () => {
  for (const b of backends) await b.close();
});

async function synthesizeAndScore(
  req: SynthesisRequest,
  assess: (text: string, audio: Awaited<ReturnType<typeof decodeAudio>>) => Promise<Assessment>,
  overrides: SynthesisOverrides = {},
): Promise<{ overall: number; correct: number; total: number; status: string }> {
  const r = await synthesizeWith(await testEngines(), { ...req, format: 'wav' }, overrides);
  const a = await assess(req.text, await decodeAudio(r.audio));
  // Units of the reference text (readType 0 inside it, 2 omitted); insertions are extra units.
  const read = a.units.filter((u) => u.charType === 0 && (u.readType === 0 || u.readType === 2));
  return {
    overall: a.overall,
    correct: read.filter((u) => u.readStatus === 'correct').length,
    total: read.length,
    status: read.map((u) => u.readStatus[0]).join(''),
  };
}

test('Mandarin standard audio scores high with the Mandarin engine (Ekho female and male)', async () => {
  const models = path.join(REPO_ROOT, 'models');
  const backend = createInThreadBackend(testConfig(), { langs: ['zh'] });
  backends.push(backend);
  const engine = await createMandarinEngine({ backend, modelsDir: models });
  const assess = (text: string, audio: Awaited<ReturnType<typeof decodeAudio>>) =>
    engine.assess(parseEvaluationConfig({ coreType: 'sentence', language: 'zh-CN', referenceText: text }), audio);
  for (const [voice, text] of [
    ['female', '今天天气很好，我们一起去公园散步吧。'],
    ['male', '床前明月光，疑是地上霜。举头望明月，低头思故乡。'],
  ]) {
    const s = await synthesizeAndScore(request({ text, voice }), assess);
    // Measured 94–97 overall with every character or all but one correct; tolerance 85 and 90%.
    assert.ok(s.overall >= 85, `${voice}: overall ${s.overall.toFixed(1)} ${s.status}`);
    assert.ok(s.correct >= 0.9 * s.total, `${voice}: ${s.correct}/${s.total} correct ${s.status}`);
  }
  // The eSpeak Mandarin voice is read back less well (measured 82–90 on this sentence).
  const es = await synthesizeAndScore(request({ text: '今天天气很好，我们一起去公园散步吧。', voice: 'xiaofeng' }), assess);
  assert.ok(es.overall >= 75, `xiaofeng: overall ${es.overall.toFixed(1)} ${es.status}`);
});

test('English standard audio scores high with the English engine (en-US female, en-GB male)', async () => {
  const backend = createInThreadBackend(testConfig(), { langs: ['en'] });
  backends.push(backend);
  const engine = createEnglishEngine({ backend, lexicon: await loadEnglishLexicon() });
  for (const [voice, language, text] of [
    ['female', 'en-US', 'The birch canoe slid on the smooth planks.'],
    ['male', 'en-GB', 'She sells sea shells by the sea shore.'],
  ] as const) {
    const assess = (t: string, audio: Awaited<ReturnType<typeof decodeAudio>>) =>
      engine.assess(parseEvaluationConfig({ coreType: 'sentence', language, referenceText: t }), audio);
    const s = await synthesizeAndScore(request({ text, voice, language }), assess);
    // Measured 93–97 with every word or all but one correct; tolerance 85 and one word.
    assert.ok(s.overall >= 85, `${voice} ${language}: overall ${s.overall.toFixed(1)} ${s.status}`);
    assert.ok(s.correct >= s.total - 1, `${voice} ${language}: ${s.correct}/${s.total} correct ${s.status}`);
  }
});

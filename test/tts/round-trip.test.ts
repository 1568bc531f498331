/**
 * TTS → evaluation of the same text: the standard audio a learner imitates must itself be
 * judged a good reading by the scoring engine (Mandarin: the recorded voice and an eSpeak-based voice).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.js';
import { createAccount, evaluationForm } from '../helpers/gateway.js';

const CASES = [
  { language: 'zh-CN', voice: 'female', text: '春天来了，小草从地里钻出来。', min: 70 },
  { language: 'zh-CN', voice: 'sv_m_boyin', text: '我们明天去银行办事。', min: 70 },
] as const;

test('synthesised readings score high when evaluated against their own text', async (t) => {
  const { app } = await buildTestApp();
  t.after(() => app.close());
  const account = await createAccount(app, { tier: 'enterprise' });
  const headers = { 'x-app-key': account.appKey };
  for (const c of CASES) {
    const tts = await app.inject({ method: 'POST', url: '/api/v1/tts/generate', payload: { text: c.text, language: c.language, voice: c.voice, format: 'wav' }, headers });
    assert.equal(tts.statusCode, 200, tts.body);
    const audio = (await app.inject({ method: 'GET', url: tts.json().data.audioUrl })).rawPayload;
    const form = evaluationForm({ coreType: 'sentence', language: c.language, referenceText: c.text, includeReport: false }, audio);
    const res = await app.inject({ method: 'POST', url: '/api/v1/evaluate', payload: form.payload, headers: { ...form.headers, ...headers } });
    assert.equal(res.statusCode, 200, res.body);
    const { result } = res.json();
    t.diagnostic(`${c.language} ${c.voice}: overall ${result.overall}, pronunciation ${result.pronunciation}, integrity ${result.integrity}`);
    assert.ok(result.overall >= c.min, `${c.voice} "${c.text}": overall ${result.overall} < ${c.min}`);
    assert.ok(result.integrity >= 90, `${c.voice}: integrity ${result.integrity}`);
  }
});

/**
 * The report writer end to end: the model path against a small local chat-completions server
 * started here (good, malformed, off-schema, slow, refusing, failing and rejecting answers),
 * the trial tier's daily AI-report cap (42902), and a report frozen through storage and lookup.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Principal } from '../../src/auth/types.js';
import type { LlmConfig } from '../../src/config.js';
import { ApiError } from '../../src/errors.js';
import type { EvaluationInput } from '../../src/evaluation/types.js';
import { createLimitBackend } from '../../src/gateway/limiters.js';
import { lookupReport } from '../../src/records/routes.js';
import { containsNumber } from '../../src/report/numbers.js';
import { LEGACY_RUBRIC_VERSION, REPORT_RUBRIC_VERSION } from '../../src/report/rubric.js';
import { createReportWriter } from '../../src/report/writer.js';
import type { Report } from '../../src/report/types.js';
import type { KouyuStorage } from '../../src/storage/index.js';
import { REPO_ROOT, testConfig } from '../helpers/app.js';
import { openMigrated } from '../storage/backends.js';
import { ZH_AUDIO, ZH_TEXT, assess, closeReadings } from './readings.js';

type Mode = 'good' | 'malformed' | 'off-schema' | 'slow' | 'refusal' | 'error' | 'context' | 'english';
let mode: Mode = 'good';
let lastRequest: { headers: http.IncomingHttpHeaders; body: any; url: string } | null = null;
let server: http.Server;
let baseUrl = '';
let reading: Awaited<ReturnType<typeof assess>>;

const GOOD = {
  summary: '整体读得流畅。这次得了九十分。最需要注意的是「重要」的「要」的声调。',
  dimensions: { integrity: '内容读得完整。', accuracy: '字音清楚，「要」的声调需要注意。', fluency: '读得连贯。', reading_skill: '停连得当。', emotion: '感情自然。' },
  dimensionSuggestions: {
    integrity: [],
    accuracy: ['把「国」的韵母读完整'],
    fluency: ['注意「要」读第四声，从高处落下来'],
    reading_skill: ['句末语调自然收住'],
    emotion: ['语速放慢一些，给听众思考的时间', '想象正在给同学讲解'],
  },
  skillInsights: [
    { aspect: '对象感', observation: '读「重要指标」时有强调，像在提醒听的人。', quote: '重要指标', confidence: 'medium' },
    { aspect: '情景再现', observation: '编造的引文。', quote: '房价上涨', confidence: 'high' },
    { aspect: '内在语', observation: '含数字的引文。', quote: '有一个', confidence: 'low' },
  ],
};

function answer(content: string, extra: Record<string, unknown> = {}) {
  return { id: 'c1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content, ...extra }, finish_reason: 'stop' }] };
}

function respond(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

before(async () => {
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      lastRequest = { headers: req.headers, body: JSON.parse(raw), url: req.url ?? '' };
      const off = structuredClone(GOOD) as Record<string, any>;
      delete off.dimensions.emotion;
      const english = { ...GOOD, summary: 'A good reading overall with clear words.', dimensions: Object.fromEntries(Object.keys(GOOD.dimensions).map((k) => [k, 'Fine.'])) };
      switch (mode) {
        case 'good': return respond(res, 200, answer(JSON.stringify(GOOD)));
        case 'malformed': return respond(res, 200, answer('{"summary": "未闭合'));
        case 'off-schema': return respond(res, 200, answer(JSON.stringify(off)));
        case 'english': return respond(res, 200, answer(JSON.stringify(english)));
        case 'refusal': return respond(res, 200, answer('', { refusal: 'I cannot help with that.' }));
        case 'error': return respond(res, 500, { error: { message: 'overloaded', type: 'server_error' } });
        case 'context': return respond(res, 400, { error: { message: "This model's maximum context length is 8192 tokens.", type: 'invalid_request_error', code: 'context_length_exceeded' } });
        case 'slow': return void setTimeout(() => respond(res, 200, answer(JSON.stringify(GOOD))), 1500);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  reading = await assess(ZH_AUDIO.w0133, { language: 'zh-CN', referenceText: ZH_TEXT.w0133 });
});
after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await closeReadings();
});

const llm = (): LlmConfig => ({ baseUrl, apiKey: 'sk-test', model: 'test-model', timeoutMs: 400 });
const principal = (tier: Principal['tier'], tenantId = 't_1'): Principal => ({ method: 'appKey', tenantId, tier, meterKey: 'ak', key: null, user: null });
const input = (p: Principal): EvaluationInput => ({ principal: p, channel: 'native-http', config: reading.config, audio: Buffer.alloc(0), receivedAt: Date.now() });
const scored = () => ({ result: {}, warnings: [], assessment: reading.a, engineStages: {} });
const writerWith = (cfg: LlmConfig, cap = 100) => createReportWriter({ llm: cfg, limitBackend: createLimitBackend(null), trialDailyAiReports: cap });
const templateOnly = () => writerWith({ baseUrl: null, apiKey: null, model: 'x', timeoutMs: 400 });
const body = (r: Report) => [r.summary, ...Object.values(r.dimensions), ...r.suggestions, ...Object.values(r.dimensionSuggestions).flat(), ...(r.skillInsights ?? []).flatMap((i) => [i.observation, i.quote])];

test('model path: strict JSON schema request, validated answer with numbers, tone and pace rules enforced', async () => {
  mode = 'good';
  const rep = await writerWith(llm()).writeAssessment(reading.a, reading.config);
  assert.equal(rep.source, 'llm');
  assert.equal(lastRequest!.url, '/v1/chat/completions');
  assert.equal(lastRequest!.headers.authorization, 'Bearer sk-test');
  assert.equal(lastRequest!.body.model, 'test-model');
  assert.equal(lastRequest!.body.response_format.type, 'json_schema');
  assert.equal(lastRequest!.body.response_format.json_schema.strict, true);
  assert.doesNotMatch(JSON.stringify(lastRequest!.body.messages), /"scores"|overall/, 'the prompt carries levels, not scores');
  for (const t of body(rep)) assert.equal(containsNumber(t), false, t);
  assert.equal(rep.summary, '整体读得流畅。最需要注意的是「重要」的「要」的声调。');
  assert.ok(rep.dimensionSuggestions.accuracy.includes('注意「要」读第四声，从高处落下来'), 'tone advice moved under accuracy');
  assert.ok(rep.dimensionSuggestions.fluency.includes('【语速】语速放慢一些，给听众思考的时间'), 'pace advice moved under fluency with the marker');
  assert.deepEqual(rep.dimensionSuggestions.emotion, ['想象正在给同学讲解']);
  assert.deepEqual(rep.skillInsights, [GOOD.skillInsights[0]], 'only the insight quoting the reference verbatim and without numbers stays');
  const template = await templateOnly().writeAssessment(reading.a, reading.config);
  assert.equal(rep.rubricVersion, REPORT_RUBRIC_VERSION);
  assert.deepEqual(rep.dimensionScores, template.dimensionScores);
  assert.deepEqual(rep.dimensionTree, template.dimensionTree);
});

test('malformed, off-schema, wrong-language, slow, refusing and failing answers fall back to the template', async () => {
  const template = await templateOnly().writeAssessment(reading.a, reading.config);
  for (const m of ['malformed', 'off-schema', 'english', 'slow', 'refusal', 'error'] as Mode[]) {
    mode = m;
    const started = performance.now();
    const rep = await writerWith(llm()).writeAssessment(reading.a, reading.config);
    assert.equal(rep.source, 'template-fallback', m);
    assert.deepEqual({ ...rep, source: 'template' }, template, `${m}: the fallback is the template report`);
    if (m === 'slow') assert.ok(performance.now() - started < 1400, 'the timeout (400 ms) cuts the wait short of the 1.5 s answer');
  }
});

test('an upstream refusal of the request itself is 400 40001 with the upstream message', async () => {
  mode = 'context';
  await assert.rejects(writerWith(llm()).writeAssessment(reading.a, reading.config), (err: unknown) => {
    assert.ok(err instanceof ApiError);
    assert.equal(err.code, 40001);
    assert.equal(err.status, 400);
    assert.equal(err.message, "This model's maximum context length is 8192 tokens.");
    return true;
  });
});

test('trial tenants get 429 42902 after their daily AI reports; other tiers and template reports are not capped', async () => {
  mode = 'good';
  const writer = writerWith(llm(), 2);
  for (let i = 0; i < 2; i++) assert.equal((await writer.write(scored(), reading.config, input(principal('trial'))))!.source, 'llm');
  await assert.rejects(writer.write(scored(), reading.config, input(principal('trial'))), (err: unknown) => {
    assert.ok(err instanceof ApiError);
    assert.equal(err.code, 42902);
    assert.equal(err.status, 429);
    assert.ok(Number(err.headers['Retry-After']) > 0 && Number(err.headers['Retry-After']) <= 86400);
    return true;
  });
  assert.equal((await writer.write(scored(), reading.config, input(principal('trial', 't_2'))))!.source, 'llm', 'another tenant has its own count');
  for (let i = 0; i < 3; i++) assert.equal((await writer.write(scored(), reading.config, input(principal('standard'))))!.source, 'llm');
  const offline = templateOnly();
  for (let i = 0; i < 3; i++) assert.equal((await offline.write(scored(), reading.config, input(principal('trial'))))!.source, 'template');
  // The early check before scoring and the write of the same call count once.
  const once = writerWith(llm(), 1);
  const call = input(principal('trial', 't_3'));
  await once.checkReportQuota(call.principal, call.config, call);
  assert.equal((await once.write(scored(), call.config, call))!.source, 'llm');
  await assert.rejects(once.checkReportQuota(call.principal, call.config, input(principal('trial', 't_3'))), /daily cap/);
});

test('no report for results without a read-aloud assessment', async () => {
  assert.equal(await templateOnly().write({ result: {}, warnings: [], engineStages: {} }, reading.config, input(principal('standard'))), null);
});

let storage: KouyuStorage;
test('a written report is frozen: lookup returns exactly what was stored; legacy records keep their values', async () => {
  storage = await openMigrated(testConfig());
  try {
    const tenant = await storage.admin.createTenant({ name: 'r', tier: 'standard' });
    const report = await templateOnly().writeAssessment(reading.a, reading.config);
    const response = { recordId: 'eval_report_1', eof: 1, result: { overall: 90 }, report, warnings: [] };
    await storage.ledger.commitSuccess({ record: { id: 'eval_report_1', tenantId: tenant.id, appKey: null, kind: 'sentence', rubricVersion: REPORT_RUBRIC_VERSION, response }, usage: [] });
    const view = await lookupReport(storage.records, tenant.id, 'eval_report_1');
    assert.deepEqual(view.report, JSON.parse(JSON.stringify(report)));
    const legacy = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'test/fixtures/legacy-record.json'), 'utf8'));
    assert.equal(legacy.rubricVersion, LEGACY_RUBRIC_VERSION);
    await storage.ledger.commitSuccess({ record: { id: legacy.id, tenantId: tenant.id, appKey: null, kind: legacy.kind, rubricVersion: legacy.rubricVersion, response: legacy.response }, usage: [] });
    const old = (await lookupReport(storage.records, tenant.id, legacy.id)).report as Record<string, any>;
    assert.deepEqual(old.dimensionScores, legacy.response.report.dimensionScores, 'legacy values unchanged');
    assert.equal(old.rubricVersion, LEGACY_RUBRIC_VERSION);
    assert.equal('tone' in old.dimensions, false, 'only the presentation merge applies');
  } finally {
    await storage.close();
  }
});

/**
 * Report lookup and console usage through a real listening server with the real
 * authentication hook, and a server restart that loses no record or usage row.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { Config } from '../../src/config.js';
import { evaluationUsage } from '../../src/metering/meters.js';
import { addDays, beijingDay } from '../../src/storage/day.js';
import { REPO_ROOT, testConfig } from '../helpers/app.js';
import { createAccount, signatureHeaders, type TestAccount } from '../helpers/gateway.js';

const legacy = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'test/fixtures/legacy-record.json'), 'utf8'));
const current = {
  recordId: 'eval_current_1',
  eof: 1,
  result: { overall: 91.5, tone: 88, words: [{ word: '好', scores: { overall: 90 } }], warning: [] },
  report: { source: 'template', summary: '读得很好', rubricVersion: 'v20260705a', dimensions: { accuracy: '准确' }, dimensionSuggestions: { accuracy: [] } },
  warnings: [],
};

let config: Config;
let app: FastifyInstance;
let base: string;
let alice: TestAccount;
let bob: TestAccount;

async function start(): Promise<void> {
  app = await buildApp(config, { warmSpeech: false });
  await app.storage.migrate();
  base = await app.listen({ port: 0, host: '127.0.0.1' });
}

before(async () => {
  config = testConfig();
  await start();
  alice = await createAccount(app);
  bob = await createAccount(app);
  for (const [id, rubric, response] of [[current.recordId, 'v20260705a', current], [legacy.id, legacy.rubricVersion, legacy.response]] as const) {
    const ok = await app.storage.ledger.commitSuccess({
      record: { id, tenantId: alice.tenantId, appKey: alice.appKey, kind: 'sentence', rubricVersion: rubric, response },
      usage: evaluationUsage({ tenantId: alice.tenantId, meterKey: alice.appKey }, '床前明月光', 3.5),
    });
    assert.equal(ok, true);
  }
});
after(async () => app.close());

const get = (url: string, headers: Record<string, string>) => fetch(`${base}${url}`, { headers });

test('the owner reads a record with an API key, a Bearer token or an empty-set signature', async () => {
  const ways: Record<string, string>[] = [
    { 'x-app-key': alice.appKey },
    { authorization: `Bearer ${alice.token}` },
    signatureHeaders(alice.appKey, alice.secret, ''),
  ];
  for (const headers of ways) {
    const res = await get(`/api/v1/report/${current.recordId}`, headers);
    assert.equal(res.status, 200);
    const body = (await res.json()) as { code: number; message: string; data: unknown; timestamp: number };
    assert.equal(body.code, 0);
    assert.equal(typeof body.timestamp, 'number');
    assert.deepEqual(body.data, { recordId: current.recordId, score: current.result, report: current.report });
  }
});

test('a legacy record comes back with its tone merged into accuracy and nothing else changed', async () => {
  const res = await get(`/api/v1/report/${legacy.id}`, { 'x-app-key': alice.appKey });
  const { data } = (await res.json()) as { data: { score: unknown; report: Record<string, any> } };
  assert.deepEqual(data.score, legacy.response.result);
  const stored = legacy.response.report;
  assert.equal(data.report.dimensions.accuracy, `${stored.dimensions.accuracy} ${stored.dimensions.tone}`);
  assert.deepEqual(data.report.dimensionSuggestions.accuracy, [...stored.dimensionSuggestions.accuracy, ...stored.dimensionSuggestions.tone]);
  assert.deepEqual(data.report.dimensionScores, stored.dimensionScores);
  assert.equal(data.report.rubricVersion, 'v20260705a-legacy');
});

test("another tenant's record and an unknown id are both 400 40001 naming the record", async () => {
  for (const [id, headers] of [[current.recordId, { 'x-app-key': bob.appKey }], ['eval_nope', { 'x-app-key': alice.appKey }]] as const) {
    const res = await get(`/api/v1/report/${id}`, headers);
    assert.equal(res.status, 400);
    const body = (await res.json()) as { code: number; message: string };
    assert.deepEqual([body.code, body.message], [40001, `record ${id} not found`]);
  }
});

test('console usage answers Bearer tokens only, with the tenant\'s own rows', async () => {
  const today = beijingDay();
  // From yesterday, so a run across 00:00 Beijing time still sees the rows written in before().
  const res = await get(`/api/v1/console/usage?from=${addDays(today, -1)}&to=${today}`, { authorization: `Bearer ${alice.token}` });
  assert.equal(res.status, 200);
  const { data } = (await res.json()) as { data: { rows: { appKey: string; meter: string; quantity: number }[]; totals: Record<string, number> } };
  assert.deepEqual(data.totals, { 'evaluation.audio_seconds': 7, 'evaluation.calls': 2, 'evaluation.chars': 10 });
  assert.ok(data.rows.every((row) => row.appKey === alice.appKey));
  const bobs = (await (await get('/api/v1/console/usage', { authorization: `Bearer ${bob.token}` })).json()) as { data: { rows: unknown[] } };
  assert.deepEqual(bobs.data.rows, []);
  const byKey = await get('/api/v1/console/usage', { 'x-app-key': alice.appKey });
  assert.equal(byKey.status, 401);
  const bad = await get('/api/v1/console/usage?from=2026-13-01', { authorization: `Bearer ${alice.token}` });
  assert.equal(bad.status, 400);
  assert.equal(((await bad.json()) as { code: number }).code, 40001);
});

test('a restarted server still serves every record, usage row, key and token', async () => {
  await app.close();
  await start();
  const res = await get(`/api/v1/report/${current.recordId}`, { 'x-app-key': alice.appKey });
  assert.equal(res.status, 200);
  assert.deepEqual(((await res.json()) as { data: { score: unknown } }).data.score, current.result);
  const usage = await get('/api/v1/console/usage', { authorization: `Bearer ${alice.token}` });
  assert.equal(usage.status, 200, 'the token issued before the restart is still valid');
  assert.equal(((await usage.json()) as { data: { totals: Record<string, number> } }).data.totals['evaluation.calls'], 2);
});

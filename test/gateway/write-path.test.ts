/**
 * The write-path machinery end to end against a real listening server: idempotent
 * duplicates, tier concurrency, sandbox and quota exhaustion, rate limits, and a restart.
 * The probe route stands in for an evaluation (same pipeline, no speech work).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildOptions } from '../../src/app.js';
import { beijingDay } from '../../src/storage/day.js';
import { buildTestApp, listenOnLoopback, testConfig } from '../helpers/app.js';
import { createAccount, evaluationForm, type TestAccount } from '../helpers/gateway.js';
import { redisAvailable } from '../helpers/services.js';

async function listen(app: FastifyInstance): Promise<string> {
  return `http://${await listenOnLoopback(app)}`;
}

function evaluate(base: string, account: TestAccount, config: Record<string, unknown>, headers: Record<string, string> = {}) {
  const form = evaluationForm({ coreType: 'sentence', referenceText: 'hello world', ...config });
  return fetch(`${base}/api/v1/_probe/evaluate`, { method: 'POST', body: new Uint8Array(form.payload), headers: { ...form.headers, 'x-app-key': account.appKey, ...headers } });
}

async function callsToday(app: FastifyInstance, account: TestAccount): Promise<number> {
  const day = beijingDay();
  const rows = await app.storage.usage.query(account.tenantId, { from: day, to: day, meter: 'evaluation.calls' });
  return rows.reduce((sum, r) => sum + r.quantity, 0);
}

/** The app on the embedded stores, or on Redis; null when Redis does not answer. */
async function appFor(backend: 'embedded' | 'redis'): Promise<FastifyInstance | null> {
  if (backend === 'redis' && !(await redisAvailable())) return null;
  const env: Record<string, string> = backend === 'redis' ? { REDIS_URL: 'redis://127.0.0.1:6379' } : {};
  return (await buildTestApp(env, { probeRoutes: true })).app;
}

for (const backend of ['embedded', 'redis'] as const) {
  test(`50 concurrent duplicates with one idempotency key: one execution, one metering unit, identical bytes (${backend})`, async (t) => {
    const app = await appFor(backend);
    if (!app) return t.skip('no Redis server answers on 127.0.0.1:6379');
    t.after(() => app.close());
    const account = await createAccount(app, { tier: 'trial' });
    const base = await listen(app);
    const key = `idem-${Math.random().toString(36).slice(2)}`;
    const audio = Buffer.alloc(48000, 7);
    const form = evaluationForm({ coreType: 'sentence', referenceText: 'hello world', delayMs: 300 }, audio);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        fetch(`${base}/api/v1/_probe/evaluate`, {
          method: 'POST',
          body: new Uint8Array(form.payload),
          headers: { ...form.headers, 'x-app-key': account.appKey, 'idempotency-key': key },
        }),
      ),
    );
    const bodies = await Promise.all(responses.map((r) => r.text()));
    assert.deepEqual(new Set(responses.map((r) => r.status)), new Set([200]));
    assert.equal(new Set(bodies).size, 1, 'every response has the same bytes');
    assert.equal(responses.filter((r) => r.headers.get('idempotency-replayed') === 'true').length, 49);
    assert.equal(app.probes!.evaluations, 1);
    assert.equal(await callsToday(app, account), 1);

    // Later, the same request replays; a different request with the key is 40903.
    const again = await fetch(`${base}/api/v1/_probe/evaluate`, { method: 'POST', body: new Uint8Array(form.payload), headers: { ...form.headers, 'x-app-key': account.appKey, 'idempotency-key': key } });
    assert.equal(await again.text(), bodies[0]);
    const other = await evaluate(base, account, { referenceText: 'something else' }, { 'idempotency-key': key });
    assert.equal(other.status, 409);
    assert.equal((await other.json()).code, 40903);
    assert.equal(app.probes!.evaluations, 1);
  });

  test(`tier concurrency overflow is refused at once with 42901 and not charged (${backend})`, async (t) => {
    const app = await appFor(backend);
    if (!app) return t.skip('no Redis server answers on 127.0.0.1:6379');
    t.after(() => app.close());
    const account = await createAccount(app, { tier: 'trial' });
    const base = await listen(app);
    const order: string[] = [];
    const calls = Array.from({ length: 3 }, (_, i) =>
      evaluate(base, account, { delayMs: 800 + i * 50 }).then(async (r) => {
        order.push(String(r.status));
        return { status: r.status, retryAfter: r.headers.get('retry-after'), body: await r.json() };
      }),
    );
    const results = await Promise.all(calls);
    const refused = results.filter((r) => r.status === 429);
    assert.equal(refused.length, 1, JSON.stringify(results));
    assert.equal(refused[0].body.code, 42901);
    assert.equal(refused[0].retryAfter, '1');
    assert.equal(order[0], '429', 'the refusal arrives before the admitted evaluations finish');
    assert.equal(await callsToday(app, account), 2);
    // Slots are given back: the next call is admitted.
    assert.equal((await evaluate(base, account, {})).status, 200);
  });
}

test('a duplicate still processing after the wait gets 40901 with Retry-After; bad keys are 40001', async (t) => {
  const { app } = await buildTestApp({}, { probeRoutes: true, idempotencyWaitMs: 200 });
  t.after(() => app.close());
  const account = await createAccount(app);
  const base = await listen(app);
  const first = evaluate(base, account, { delayMs: 1500 }, { 'idempotency-key': 'slow-1' });
  await new Promise((r) => setTimeout(r, 100));
  const second = await evaluate(base, account, { delayMs: 1500 }, { 'idempotency-key': 'slow-1' });
  assert.equal(second.status, 409);
  assert.equal((await second.json()).code, 40901);
  assert.equal(second.headers.get('retry-after'), '1');
  assert.equal((await first).status, 200);

  for (const bad of ['has space', 'x'.repeat(201), 'ümlaut']) {
    const res = await evaluate(base, account, {}, { 'idempotency-key': bad });
    assert.equal(res.status, 400, bad);
    assert.equal((await res.json()).code, 40001);
  }
  const longest = await evaluate(base, account, {}, { 'idempotency-key': 'k'.repeat(200) });
  assert.equal(longest.status, 200);
});

test('sandbox daily cap gives 42903 until 00:00 Beijing time; failed calls are not metered', async (t) => {
  const { app } = await buildTestApp({ KOUYU_SANDBOX_DAILY_CALLS: '2' }, { probeRoutes: true });
  t.after(() => app.close());
  const account = await createAccount(app, { sandbox: true });
  const base = await listen(app);
  assert.equal((await evaluate(base, account, {})).status, 200);
  assert.equal((await evaluate(base, account, {})).status, 200);
  const capped = await evaluate(base, account, {});
  assert.equal(capped.status, 429);
  assert.equal((await capped.json()).code, 42903);
  const retryAfter = Number(capped.headers.get('retry-after'));
  assert.ok(retryAfter > 0 && retryAfter <= 86400);
  assert.equal(await callsToday(app, account), 2);
});

test('plan quota then balance are spent; both empty gives 40902 and nothing is metered', async (t) => {
  const { app } = await buildTestApp({}, { probeRoutes: true });
  t.after(() => app.close());
  const account = await createAccount(app, { quota: 1, balance: 1 });
  const base = await listen(app);
  assert.equal((await evaluate(base, account, {})).status, 200);
  assert.equal((await evaluate(base, account, {})).status, 200);
  const empty = await evaluate(base, account, {});
  assert.equal(empty.status, 409);
  assert.equal((await empty.json()).code, 40902);
  const key = await app.storage.keys.findByAppKey(account.appKey);
  assert.equal(key!.quota, 0);
  assert.equal(key!.balance, 0);
  assert.equal(await callsToday(app, account), 2);
  assert.equal(app.probes!.evaluations, 2);
});

test('TTS/ASR per-key limit and the per-IP gateway limit answer 3001; probes are never limited', async (t) => {
  const { app } = await buildTestApp({ KOUYU_RATE_TTS_ASR_PER_MIN: '3', KOUYU_RATE_IP_PER_MIN: '8' }, { probeRoutes: true });
  t.after(() => app.close());
  const account = await createAccount(app); // the login inside uses one IP point
  const tts = () => app.inject({ method: 'POST', url: '/api/v1/_probe/tts', payload: { text: 'hi' }, headers: { 'x-app-key': account.appKey } });
  for (let i = 0; i < 3; i++) assert.equal((await tts()).statusCode, 200);
  const limited = await tts();
  assert.equal(limited.statusCode, 429);
  assert.equal(limited.json().code, 3001);
  assert.ok(Number(limited.headers['retry-after']) >= 1);
  for (let i = 0; i < 3; i++) await app.inject({ method: 'GET', url: '/api/v1/report/x', headers: { 'x-app-key': account.appKey } });
  const ipLimited = await app.inject({ method: 'GET', url: '/api/v1/report/x', headers: { 'x-app-key': account.appKey } });
  assert.equal(ipLimited.json().code, 3001);
  assert.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
});

test('a restart loses no record and no usage row', async (t) => {
  const config = testConfig();
  const options: BuildOptions = { probeRoutes: true, warmSpeech: false };
  const first = await buildApp(config, options);
  await first.storage.migrate();
  const account = await createAccount(first);
  const base = await listen(first);
  const res = await evaluate(base, account, {});
  const { recordId } = await res.json();
  await first.close();

  const second = await buildApp(config, options);
  t.after(() => second.close());
  await second.storage.migrate();
  const lookup = await second.inject({ method: 'GET', url: `/api/v1/report/${recordId}`, headers: { 'x-app-key': account.appKey } });
  assert.equal(lookup.statusCode, 200);
  assert.equal(lookup.json().data.recordId, recordId);
  assert.equal(await callsToday(second, account), 1);
});

test('shutdown lets an in-flight evaluation finish and store its record; new requests get 503', async (t) => {
  const config = testConfig();
  const app = await buildApp(config, { probeRoutes: true, warmSpeech: false });
  await app.storage.migrate();
  const account = await createAccount(app);
  const base = await listen(app);
  const inflight = evaluate(base, account, { delayMs: 700 });
  await new Promise((r) => setTimeout(r, 150));
  const closing = app.close();
  const res = await inflight;
  assert.equal(res.status, 200);
  const { recordId } = await res.json();
  await closing;

  const reopened = await buildApp(config, { warmSpeech: false });
  t.after(() => reopened.close());
  await reopened.storage.migrate();
  const lookup = await reopened.inject({ method: 'GET', url: `/api/v1/report/${recordId}`, headers: { 'x-app-key': account.appKey } });
  assert.equal(lookup.statusCode, 200);
});

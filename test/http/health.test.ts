import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.js';

test('healthz answers while the app serves; unknown routes get the 40400 envelope', async (t) => {
  const { app } = await buildTestApp();
  t.after(() => app.close());
  const health = await app.inject({ method: 'GET', url: '/healthz' });
  assert.equal(health.statusCode, 200);
  assert.deepEqual(health.json(), { status: 'ok' });

  const missing = await app.inject({ method: 'GET', url: '/nope' });
  assert.equal(missing.statusCode, 404);
  const body = missing.json();
  assert.equal(body.code, 40400);
  assert.equal(typeof body.message, 'string');
  assert.ok(Number.isInteger(body.timestamp) && body.timestamp > 1.7e12);
});

test('readyz is 503 until every tracked start-up task has finished', async (t) => {
  const { app } = await buildTestApp();
  t.after(() => app.close());
  let finish!: () => void;
  app.readiness.track('slow-task', new Promise<void>((resolve) => (finish = resolve)));
  assert.equal((await app.inject({ method: 'GET', url: '/readyz' })).statusCode, 503);
  finish();
  await new Promise((r) => setImmediate(r));
  const ready = await app.inject({ method: 'GET', url: '/readyz' });
  assert.equal(ready.statusCode, 200);
  assert.equal(ready.json().checks['slow-task'], 'ready');
});

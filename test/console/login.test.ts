/** POST /api/v1/auth/login through the app, and the OpenAPI document of this part's routes. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildTestApp } from '../helpers/app.js';

let app: FastifyInstance;
let tenantId: string;

before(async () => {
  ({ app } = await buildTestApp());
  await app.ready();
  await app.storage.migrate();
  tenantId = (await app.storage.admin.createTenant({ name: 'school', tier: 'trial' })).id;
  await app.storage.admin.createUser({ tenantId, username: 'teacher', password: 's3cret-pass' });
});
after(async () => app.close());

const login = (payload: unknown) => app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: payload as object });

test('right credentials give a Bearer JWT in the envelope', async () => {
  const before = Date.now();
  const res = await login({ username: 'teacher', password: 's3cret-pass' });
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json();
  assert.equal(body.code, 0);
  assert.equal(body.message, 'success');
  assert.equal(typeof body.timestamp, 'number');
  const data = body.data;
  assert.deepEqual(Object.keys(data).sort(), ['accessToken', 'expiresAt', 'expiresIn', 'tenantId', 'tokenType', 'username']);
  assert.equal(data.tokenType, 'Bearer');
  assert.equal(data.tenantId, tenantId);
  assert.equal(data.username, 'teacher');
  assert.equal(data.expiresIn, app.config.jwtTtlSeconds);
  // expiresAt is whole seconds: within [before - 1 s, now] + TTL
  assert.ok(data.expiresAt >= before - 1000 + data.expiresIn * 1000 && data.expiresAt <= Date.now() + data.expiresIn * 1000, 'expiresAt tolerance 1 s');
  const claims = await app.jwt.verify(data.accessToken);
  assert.equal(claims.tenantId, tenantId);
  assert.equal((await app.storage.users.findById(claims.userId))?.username, 'teacher');
});

test('a wrong password and an unknown user give the same 401 40100', async () => {
  for (const payload of [{ username: 'teacher', password: 'wrong' }, { username: 'nobody', password: 's3cret-pass' }]) {
    const res = await login(payload);
    assert.equal(res.statusCode, 401);
    const body = res.json();
    assert.equal(body.code, 40100);
    assert.equal(body.message, 'invalid username or password');
    assert.equal(typeof body.timestamp, 'number');
    assert.equal('data' in body, false);
  }
});

test('a malformed body is 400 40001', async () => {
  for (const payload of [{ username: 'teacher' }, { username: '', password: 'x' }, { username: 'teacher', password: { nested: true } }]) {
    const res = await login(payload);
    assert.equal(res.statusCode, 400, JSON.stringify(payload));
    assert.equal(res.json().code, 40001);
  }
  const notJson = await app.inject({ method: 'POST', url: '/api/v1/auth/login', headers: { 'content-type': 'application/json' }, payload: '{' });
  assert.equal(notJson.json().code, 40001);
});

test('/openapi.json documents login, console usage and report lookup', async () => {
  const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const loginOp = doc.paths['/api/v1/auth/login'].post;
  assert.deepEqual(loginOp.requestBody.content['application/json'].schema.required, ['username', 'password']);
  const usageOp = doc.paths['/api/v1/console/usage'].get;
  assert.deepEqual(usageOp.parameters.map((p: { name: string }) => p.name).sort(), ['appKey', 'from', 'meter', 'to']);
  assert.deepEqual(usageOp.security, [{ bearer: [] }]);
  assert.ok(doc.paths['/api/v1/report/{recordId}'].get, 'report lookup documented');
});

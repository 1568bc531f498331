/**
 * Every endpoint that exists, tried with each authentication method: the outcome must be
 * the spec's (Authentication section: which method each endpoint accepts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createJwtService } from '../../src/auth/jwt.js';
import { buildTestApp, loopbackClient } from '../helpers/app.js';
import { createAccount, evaluationForm, multipart, signatureHeaders, signForm, signJson, type TestAccount } from '../helpers/gateway.js';
import { formPayload } from '../../src/auth/signature.js';

type Method = 'appKey' | 'bearer' | 'signature' | 'none';

interface Row {
  name: string;
  accepts: Method[];
  request(account: TestAccount, method: Method): { method: 'GET' | 'POST' | 'DELETE'; url: string; headers: Record<string, string>; payload?: Buffer | object };
}

function credentials(account: TestAccount, method: Method, signed: () => Record<string, string>): Record<string, string> {
  switch (method) {
    case 'appKey':
      return { 'x-app-key': account.appKey };
    case 'bearer':
      return { authorization: `Bearer ${account.token}` };
    case 'signature':
      return signed();
    case 'none':
      return {};
  }
}

const rows: Row[] = [
  {
    name: 'GET /api/v1/report/{recordId}',
    accepts: ['appKey', 'bearer', 'signature'],
    request: (a, m) => ({ method: 'GET', url: '/api/v1/report/eval_missing', headers: credentials(a, m, () => signatureHeaders(a.appKey, a.secret, '')) }),
  },
  {
    name: 'GET /api/v1/console/usage',
    accepts: ['bearer'],
    request: (a, m) => ({
      method: 'GET',
      url: '/api/v1/console/usage?from=2026-11-01&to=2026-11-02',
      headers: credentials(a, m, () => signatureHeaders(a.appKey, a.secret, 'from=2026-11-01&to=2026-11-02')),
    }),
  },
  {
    name: 'POST /api/v1/evaluate',
    accepts: ['appKey', 'bearer', 'signature'],
    request: (a, m) => {
      // A config the validation refuses (missing referenceText): authentication passed if the answer is 400.
      const form = evaluationForm({ coreType: 'sentence' });
      return { method: 'POST', url: '/api/v1/evaluate', payload: form.payload, headers: { ...form.headers, ...credentials(a, m, () => signForm(a, form.parts)) } };
    },
  },
  {
    name: 'POST /{coreType} (compat)',
    accepts: ['signature'],
    request: (a, m) => {
      const parts = [{ name: 'audio', value: Buffer.alloc(10), filename: 'a.wav' }, { name: 'language', value: 'en-US' }];
      const form = multipart(parts);
      return { method: 'POST', url: '/sent.eval', payload: form.payload, headers: { ...form.headers, ...credentials(a, m, () => signForm(a, parts)) } };
    },
  },
  {
    name: 'POST /api/v1/tts/generate',
    accepts: ['appKey', 'bearer', 'signature'],
    request: (a, m) => {
      const body = { text: '', voice: 'nobody' };
      return { method: 'POST', url: '/api/v1/tts/generate', payload: body, headers: credentials(a, m, () => signJson(a, body)) };
    },
  },
  {
    name: 'POST /api/v1/asr/recognize',
    accepts: ['appKey', 'bearer', 'signature'],
    request: (a, m) => {
      const parts = [{ name: 'language', value: 'xx' }];
      const form = multipart(parts);
      return { method: 'POST', url: '/api/v1/asr/recognize', payload: form.payload, headers: { ...form.headers, ...credentials(a, m, () => signForm(a, parts)) } };
    },
  },
  {
    name: 'GET /api/v1/console/tts/voices',
    accepts: ['bearer'],
    request: (a, m) => ({ method: 'GET', url: '/api/v1/console/tts/voices', headers: credentials(a, m, () => signatureHeaders(a.appKey, a.secret, '')) }),
  },
  {
    name: 'POST /api/v1/console/tts/voices',
    accepts: ['bearer'],
    request: (a, m) => {
      const parts = [{ name: 'name', value: 'x' }];
      const form = multipart(parts);
      return { method: 'POST', url: '/api/v1/console/tts/voices', payload: form.payload, headers: { ...form.headers, ...credentials(a, m, () => signForm(a, parts)) } };
    },
  },
  {
    name: 'DELETE /api/v1/console/tts/voices/{id}',
    accepts: ['bearer'],
    request: (a, m) => ({ method: 'DELETE', url: '/api/v1/console/tts/voices/vi_none', headers: credentials(a, m, () => signatureHeaders(a.appKey, a.secret, '')) }),
  },
  {
    name: 'POST /api/v1/_probe/evaluate (evaluation write path)',
    accepts: ['appKey', 'bearer', 'signature'],
    request: (a, m) => {
      const form = evaluationForm({ coreType: 'sentence', referenceText: 'hello' });
      return { method: 'POST', url: '/api/v1/_probe/evaluate', payload: form.payload, headers: { ...form.headers, ...credentials(a, m, () => signForm(a, form.parts)) } };
    },
  },
  {
    name: 'POST /api/v1/_probe/tts (JSON write path)',
    accepts: ['appKey', 'bearer', 'signature'],
    request: (a, m) => {
      const body = { text: '你好', speed: 50 };
      return { method: 'POST', url: '/api/v1/_probe/tts', payload: body, headers: credentials(a, m, () => signJson(a, body)) };
    },
  },
];

test('each endpoint accepts exactly the spec’s authentication methods', async (t) => {
  const { app } = await buildTestApp({}, { probeRoutes: true });
  t.after(() => app.close());
  const inject = await loopbackClient(app);
  const account = await createAccount(app);
  for (const row of rows) {
    for (const method of ['appKey', 'bearer', 'signature', 'none'] as Method[]) {
      const res = await inject(row.request(account, method));
      const body = res.json();
      if (row.accepts.includes(method)) {
        assert.ok(res.statusCode !== 401 && res.statusCode !== 403, `${row.name} with ${method}: got ${res.statusCode} ${res.body}`);
      } else {
        assert.equal(res.statusCode, 401, `${row.name} with ${method}`);
        assert.equal(body.code, 40100, `${row.name} with ${method}`);
        assert.match(body.message, method === 'none' ? /missing credentials/ : /accepts only/);
      }
    }
  }
});

test('public addresses need no credentials', async (t) => {
  const { app } = await buildTestApp();
  t.after(() => app.close());
  const inject = await loopbackClient(app);
  for (const url of ['/healthz', '/openapi.json']) assert.equal((await inject({ method: 'GET', url })).statusCode, 200, url);
  // Audio addresses answer 404 for unknown files, never 401.
  assert.equal((await inject({ method: 'GET', url: '/tts/audio/a_0123456789abcdefghij.wav' })).statusCode, 404);
  assert.equal((await inject({ method: 'GET', url: '/compat/audio/eval_0123456789ab.wav' })).statusCode, 404);
});

test('login needs no credentials; a wrong password is 40100', async (t) => {
  const { app } = await buildTestApp();
  t.after(() => app.close());
  const inject = await loopbackClient(app);
  const account = await createAccount(app);
  const bad = await inject({ method: 'POST', url: '/api/v1/auth/login', payload: { username: account.username, password: 'wrong' } });
  assert.equal(bad.statusCode, 401);
  assert.equal(bad.json().code, 40100);
});

test('bearer: an appKey in the header is 2002 token invalid; an expired token is 2001', async (t) => {
  const { app, config } = await buildTestApp();
  t.after(() => app.close());
  const inject = await loopbackClient(app);
  const account = await createAccount(app);
  const asBearer = await inject({ method: 'GET', url: '/api/v1/report/x', headers: { authorization: `Bearer ${account.appKey}` } });
  assert.equal(asBearer.json().code, 2002);
  assert.equal(asBearer.json().message, 'token invalid');

  const user = (await app.storage.users.verifyLogin(account.username, account.password))!;
  const past = createJwtService(config, () => Date.now() - 2 * (config.jwtTtlSeconds + 60) * 1000);
  const { token } = await past.issue(user);
  const expired = await inject({ method: 'GET', url: '/api/v1/report/x', headers: { authorization: `Bearer ${token}` } });
  assert.equal(expired.json().code, 2001);
});

test('signature: tampered parameters, skewed timestamps, replayed nonces and wrong secrets are refused', async (t) => {
  const { app } = await buildTestApp({}, { probeRoutes: true });
  t.after(() => app.close());
  const inject = await loopbackClient(app);
  const account = await createAccount(app);
  const form = evaluationForm({ coreType: 'sentence', referenceText: 'hello' });
  const send = (headers: Record<string, string>, body: { payload: Buffer; headers: Record<string, string> } = form) =>
    inject({ method: 'POST', url: '/api/v1/_probe/evaluate', payload: body.payload, headers: { ...body.headers, ...headers } });

  const good = signForm(account, form.parts, { nonce: 'n-1' });
  assert.equal((await send(good)).statusCode, 200);
  const replay = await send(good);
  assert.equal(replay.statusCode, 401);
  assert.match(replay.json().message, /nonce already used/);

  const tampered = evaluationForm({ coreType: 'sentence', referenceText: 'hellO' });
  const res = await send(signForm(account, form.parts), tampered);
  assert.equal(res.statusCode, 401);
  assert.match(res.json().message, /signature mismatch/);

  for (const skew of [-301, 301]) {
    const skewed = await send(signForm(account, form.parts, { timestamp: Math.floor(Date.now() / 1000) + skew }));
    assert.equal(skewed.statusCode, 401, `skew ${skew}`);
    assert.match(skewed.json().message, /300 s/);
  }
  const withinWindow = await send(signForm(account, form.parts, { timestamp: Math.floor(Date.now() / 1000) - 290 }));
  assert.equal(withinWindow.statusCode, 200);

  const wrongSecret = await send(signForm({ ...account, secret: account.secret + 'x' }, form.parts));
  assert.equal(wrongSecret.statusCode, 401);

  // The alternative form of the native endpoint: config's top-level scalars instead of its raw text.
  const alt = await send(signatureHeaders(account.appKey, account.secret, 'coreType=sentence&referenceText=hello'));
  assert.equal(alt.statusCode, 200);
  // Every text part is signed: an extra part left out of the payload fails.
  const extra = evaluationForm({ coreType: 'sentence', referenceText: 'hello' }, undefined, [{ name: 'userId', value: 'u1' }]);
  const unsignedExtra = await send(signatureHeaders(account.appKey, account.secret, formPayload([{ name: 'config', value: extra.configText }])), extra);
  assert.equal(unsignedExtra.statusCode, 401);
});

test('unknown and disabled keys are refused', async (t) => {
  const { app } = await buildTestApp();
  t.after(() => app.close());
  const inject = await loopbackClient(app);
  const account = await createAccount(app);
  const unknown = await inject({ method: 'GET', url: '/api/v1/report/x', headers: { 'x-app-key': 'ak_nope' } });
  assert.equal(unknown.statusCode, 401);
  assert.equal(unknown.json().code, 40100);
  await app.storage.admin.setEnabled(account.appKey, false);
  const disabled = await inject({ method: 'GET', url: '/api/v1/report/x', headers: { 'x-app-key': account.appKey } });
  assert.equal(disabled.statusCode, 403);
  assert.equal(disabled.json().code, 40300);
  const viaQuery = await inject({ method: 'GET', url: `/api/v1/report/x?api_key=${account.appKey}` });
  assert.equal(viaQuery.statusCode, 403);
});

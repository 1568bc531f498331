/**
 * Idempotent replay on the real evaluation routes, over HTTP against a listening server with
 * a real recording: native `POST /api/v1/evaluate` and compat `POST /{coreType}`. A repeat of
 * the same request with the same `Idempotency-Key` gets the original bytes back with
 * `Idempotency-Replayed: true`, and leaves one record, one metered call and one charge; the
 * same key on a different request is 409 40903 and changes nothing.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { createAccount, listeningAppWithAccount, evaluationForm, multipart, signForm, type Part, type TestAccount } from '../helpers/gateway.js';
import { charged, ledger } from '../helpers/ledger.js';
import { englishRecording, type Recording } from '../helpers/recordings.js';

let app: FastifyInstance;
let base: string;
let account: TestAccount;
let en: Recording;

before(async () => {
  ({ app, base, account } = await listeningAppWithAccount('http', { tier: 'enterprise', quota: 10, balance: 5 }));
  en = await englishRecording(1);
});
after(() => app.close());

const newKey = (prefix: string) => `${prefix}-${randomBytes(6).toString('hex')}`;

async function native(config: Record<string, unknown>, audio: Buffer, key: string | null) {
  const form = evaluationForm(config, audio);
  const res = await fetch(`${base}/api/v1/evaluate`, {
    method: 'POST',
    body: new Uint8Array(form.payload),
    headers: { ...form.headers, 'x-app-key': account.appKey, ...(key === null ? {} : { 'idempotency-key': key }) },
  });
  return { res, text: await res.text() };
}

/** A compat request, signed afresh each time (a new nonce), as a retrying client would. */
async function compat(kind: string, parts: Part[], key: string) {
  const form = multipart(parts);
  const res = await fetch(`${base}/${kind}`, {
    method: 'POST',
    body: new Uint8Array(form.payload),
    headers: { ...form.headers, ...signForm(account, parts), 'idempotency-key': key },
  });
  return { res, text: await res.text() };
}

test('native POST /api/v1/evaluate: a repeat with the key replays the bytes; evaluated, stored and charged once', async () => {
  const config = { coreType: 'sentence', language: 'en-US', referenceText: en.text };
  const key = newKey('native');
  const start = await ledger(app, account);

  const first = await native(config, en.wav, key);
  assert.equal(first.res.status, 200, first.text);
  assert.equal(first.res.headers.get('idempotency-replayed'), null, 'the first answer is not a replay');
  const body = JSON.parse(first.text);
  assert.match(body.recordId, /^eval_/);
  assert.equal(typeof body.result.overall, 'number');

  const second = await native(config, en.wav, key);
  assert.equal(second.res.status, 200);
  assert.equal(second.res.headers.get('idempotency-replayed'), 'true');
  assert.equal(second.text, first.text, 'byte-identical body');
  assert.equal(second.res.headers.get('content-type'), first.res.headers.get('content-type'));
  assert.equal(second.res.headers.get('server-timing'), first.res.headers.get('server-timing'), 'the stored Server-Timing is replayed');
  assert.deepEqual(await ledger(app, account), charged(start, 1));

  // The stored record is the one replayed.
  const lookup = await fetch(`${base}/api/v1/report/${body.recordId}`, { headers: { 'x-app-key': account.appKey } });
  assert.deepEqual((await lookup.json()).data.score, body.result);

  // Same key, different request (another reference text; then other audio bytes): 40903, nothing written.
  for (const [what, cfg, audio] of [
    ['reference text', { ...config, referenceText: `${en.text} again` }, en.wav],
    ['audio', config, Buffer.concat([en.wav, Buffer.alloc(3200)])],
  ] as const) {
    const other = await native(cfg, audio, key);
    assert.equal(other.res.status, 409, `${what}: ${other.text}`);
    const error = JSON.parse(other.text);
    assert.equal(error.code, 40903, what);
    assert.equal(typeof error.message, 'string');
    assert.equal(typeof error.timestamp, 'number');
  }
  assert.deepEqual(await ledger(app, account), charged(start, 1));

  // The same request without a key is evaluated again: a new record and a new charge.
  const unkeyed = await native(config, en.wav, null);
  assert.equal(unkeyed.res.status, 200);
  assert.notEqual(JSON.parse(unkeyed.text).recordId, body.recordId);
  assert.deepEqual(await ledger(app, account), charged(start, 2));
});

test('compat POST /sent.eval: a re-signed repeat with the key replays the bytes; a changed form or path is 40903', async () => {
  const parts: Part[] = [
    { name: 'audio', value: en.wav, filename: 'a.wav' },
    { name: 'refText', value: en.text },
    { name: 'language', value: 'en-US' },
    { name: 'timing', value: '1' },
  ];
  const key = newKey('compat');
  const start = await ledger(app, account);

  const first = await compat('sent.eval', parts, key);
  assert.equal(first.res.status, 200, first.text);
  assert.equal(first.res.headers.get('idempotency-replayed'), null);
  const body = JSON.parse(first.text);
  assert.deepEqual(Object.keys(body).sort(), ['eof', 'recordId', 'result', 'timing']);

  const second = await compat('sent.eval', parts, key);
  assert.equal(second.res.status, 200, second.text);
  assert.equal(second.res.headers.get('idempotency-replayed'), 'true');
  assert.equal(second.text, first.text, 'byte-identical body, timing included');
  assert.equal(second.res.headers.get('server-timing'), first.res.headers.get('server-timing'));
  assert.deepEqual(await ledger(app, account), charged(start, 1));

  const changed = await compat('sent.eval', parts.map((p) => (p.name === 'timing' ? { ...p, value: '0' } : p)), key);
  assert.equal(changed.res.status, 409, changed.text);
  assert.equal(JSON.parse(changed.text).code, 40903);
  const otherPath = await compat('sent.eval.pro', parts, key);
  assert.equal(otherPath.res.status, 409, otherPath.text);
  assert.equal(JSON.parse(otherPath.text).code, 40903);
  assert.deepEqual(await ledger(app, account), charged(start, 1));

  // A third identical repeat still replays the first answer.
  const third = await compat('sent.eval', parts, key);
  assert.equal(third.text, first.text);
  assert.equal(third.res.headers.get('idempotency-replayed'), 'true');
});

test('a key is scoped to its tenant: another tenant with the same key and request gets its own evaluation', async () => {
  const other = await createAccount(app, { tier: 'enterprise', quota: 3 });
  const config = { coreType: 'word', language: 'en-US', referenceText: 'man' };
  const key = newKey('shared');
  const send = (who: TestAccount) => {
    const form = evaluationForm(config, en.wav);
    return fetch(`${base}/api/v1/evaluate`, { method: 'POST', body: new Uint8Array(form.payload), headers: { ...form.headers, 'x-app-key': who.appKey, 'idempotency-key': key } });
  };
  const before = await ledger(app, other);
  const mine = await send(account);
  const theirs = await send(other);
  assert.equal(mine.status, 200);
  assert.equal(theirs.status, 200);
  assert.equal(theirs.headers.get('idempotency-replayed'), null);
  assert.notEqual((await theirs.json()).recordId, (await mine.json()).recordId);
  assert.deepEqual(await ledger(app, other), charged(before, 1));
});

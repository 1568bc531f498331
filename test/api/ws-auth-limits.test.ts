/**
 * Refusals on the real-time channels, against a listening server: credentials refused at the
 * handshake (expired token 2001, bad signatures 40100, each with an error frame and close
 * 1008), a key whose coreType whitelist excludes the kind (40300, the session stays usable),
 * and the tier concurrency limit applied when rounds end together (42901, not charged).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../src/config.js';
import { createJwtService } from '../../src/auth/jwt.js';
import { buildTestApp, listenOnLoopback } from '../helpers/app.js';
import { createAccount } from '../helpers/gateway.js';
import { charged, ledger } from '../helpers/ledger.js';
import { englishRecording, mandarinRecording, type Recording } from '../helpers/recordings.js';
import { connect, frames, signedHandshake, type FrameClient } from '../helpers/ws.js';

let app: FastifyInstance;
let config: Config;
let base: string;
let zh: Recording;
let en: Recording;

before(async () => {
  ({ app, config } = await buildTestApp());
  base = `ws://${await listenOnLoopback(app)}`;
  zh = await mandarinRecording(6);
  en = await englishRecording(4);
});
after(() => app.close());

/** Expects the handshake to be refused: one error frame with `code`, then close 1008. */
async function refused(url: string, code: number, message?: RegExp) {
  const { client, first } = await connect(url);
  assert.equal(first.event, 'error', `${url}: ${JSON.stringify(first)}`);
  assert.equal(first.code, code, JSON.stringify(first));
  if (message) assert.match(first.message, message);
  assert.deepEqual(await client.json(), { closed: 1008 });
  return first;
}

test('an expired token in the query is refused with 2001 on both channels', async () => {
  const account = await createAccount(app);
  const user = (await app.storage.users.verifyLogin(account.username, account.password))!;
  const past = createJwtService(config, () => Date.now() - 2 * (config.jwtTtlSeconds + 60) * 1000);
  const { token } = await past.issue(user);
  await refused(`${base}/api/v1/ws/evaluate?token=${token}`, 2001);
  await refused(`${base}/sent.eval.cn?token=${token}`, 2001);
  // The same user's current token is accepted.
  const { client, first } = await connect(`${base}/api/v1/ws/evaluate?token=${account.token}`);
  assert.equal(first.event, 'connected');
  client.close();
});

test('signed handshakes: a wrong secret, a garbage signature, a skewed timestamp and a replayed nonce are refused with 40100', async () => {
  const account = await createAccount(app);
  await refused(`${base}/api/v1/ws/evaluate?${signedHandshake(account, {}, { secret: `${account.secret}x` })}`, 40100, /signature/);
  const garbage = new URLSearchParams(signedHandshake(account));
  garbage.set('signature', 'bm90IGEgc2lnbmF0dXJl');
  await refused(`${base}/sent.eval?${garbage}`, 40100, /signature/);
  await refused(`${base}/api/v1/ws/evaluate?${signedHandshake(account, {}, { timestamp: Math.floor(Date.now() / 1000) - 301 })}`, 40100, /300 s/);
  // A signed parameter changed after signing (the idempotency key is signed too).
  const tampered = new URLSearchParams(signedHandshake(account, { idempotencyKey: 'k-1' }));
  tampered.set('idempotencyKey', 'k-2');
  await refused(`${base}/api/v1/ws/evaluate?${tampered}`, 40100, /signature/);

  const query = signedHandshake(account);
  const { client, first } = await connect(`${base}/api/v1/ws/evaluate?${query}`);
  assert.equal(first.event, 'connected');
  client.close();
  await refused(`${base}/api/v1/ws/evaluate?${query}`, 40100, /nonce already used/);
});

test('a key whose whitelist excludes the kind gets 40300 on start; the session stays usable for an allowed kind', async () => {
  const account = await createAccount(app, { coreTypes: ['word'], quota: 5 });
  const start = await ledger(app, account);

  const { client: native, first } = await connect(`${base}/api/v1/ws/evaluate?${signedHandshake(account)}`);
  assert.equal(first.event, 'connected');
  native.send({ cmd: 'start', coreType: 'sentence', language: 'en-US', referenceText: en.text });
  const forbidden = await native.json();
  assert.equal(forbidden.event, 'error');
  assert.equal(forbidden.code, 40300);
  assert.match(forbidden.message, /sentence/);
  // No round was started: audio is refused as outside a round.
  native.send(en.wav);
  assert.match((await native.json()).message, /start first/);
  native.send({ cmd: 'start', coreType: 'word', language: 'en-US', referenceText: 'amiable' });
  assert.deepEqual(await native.json(), { event: 'started' });
  native.close();

  // Compat: para.eval maps to the native kind passage, outside the whitelist.
  const { client: compat, first: hello } = await connect(`${base}/para.eval?${signedHandshake(account)}`);
  assert.deepEqual(hello, { event: 'connected', coreType: 'para.eval' });
  compat.send({ refText: en.text, language: 'en-US' });
  const denied = await compat.json();
  assert.equal(denied.code, 40300);
  assert.match(denied.message, /para\.eval/);
  compat.send({ cmd: 'end' });
  assert.equal((await compat.json()).code, 40001, 'no round was started');
  compat.close();
  assert.deepEqual(await ledger(app, account), start, 'refusals are neither stored nor charged');
});

test('three trial rounds ending together over WebSocket: one is refused at once with 42901 and not charged', async () => {
  const trial = await createAccount(app, { tier: 'trial', quota: 10 });
  const start = await ledger(app, trial);
  // FLAC uploads: no early scoring, so each round's work starts at `end` and overlaps the others.
  const sessions: FrameClient[] = [];
  for (let i = 0; i < 3; i++) {
    const { client, first } = await connect(`${base}/api/v1/ws/evaluate?${signedHandshake(trial)}`);
    assert.equal(first.event, 'connected');
    client.send({ cmd: 'start', coreType: 'sentence', language: 'zh-CN', referenceText: zh.text });
    assert.deepEqual(await client.json(), { event: 'started' });
    for (const chunk of frames(zh.original, 4096)) client.send(chunk);
    sessions.push(client);
  }
  for (const client of sessions) client.send({ cmd: 'end' });
  const answers = await Promise.all(sessions.map((c) => c.next()));
  const errors = answers.filter((a) => a.json.event === 'error');
  const results = answers.filter((a) => a.json.event === 'result');
  assert.equal(errors.length, 1, JSON.stringify(answers.map((a) => a.json.event ?? a.json)));
  assert.equal(results.length, 2);
  assert.equal(errors[0].json.code, 42901);
  assert.match(errors[0].json.message, /trial/);
  assert.ok(errors[0].at <= Math.min(...results.map((r) => r.at)), 'the refusal comes before the admitted results');
  assert.deepEqual(await ledger(app, trial), charged(start, 2));

  // The slots are given back, and the refused session can run a new round.
  const refusedClient = sessions[answers.indexOf(errors[0])];
  refusedClient.send({ cmd: 'start', coreType: 'sentence', language: 'zh-CN', referenceText: zh.text });
  assert.deepEqual(await refusedClient.json(), { event: 'started' });
  refusedClient.send(zh.original);
  refusedClient.send({ cmd: 'end' });
  const retried = await refusedClient.json();
  assert.equal(retried.event, 'result', JSON.stringify(retried));
  assert.deepEqual(await ledger(app, trial), charged(start, 3));
  for (const client of sessions) client.close();
});

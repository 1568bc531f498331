/**
 * Every validation and authentication failure of the four evaluation interfaces, through
 * the real app listening on loopback (HTTP and WebSocket). Failures write no record
 * and meter nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import type { FastifyInstance } from 'fastify';
import { beijingDay } from '../../src/storage/day.js';
import { handshakePayload, sign } from '../../src/auth/signature.js';
import { buildTestApp, listenOnLoopback, loopbackClient } from '../helpers/app.js';
import { compatForm, createAccount, multipart, signForm, type Part, type TestAccount } from '../helpers/gateway.js';

async function usageRows(app: FastifyInstance, account: TestAccount) {
  const day = beijingDay();
  return app.storage.usage.query(account.tenantId, { from: day, to: day });
}

test('native POST /api/v1/evaluate: each bad request gets its precise error', async (t) => {
  const { app } = await buildTestApp();
  t.after(() => app.close());
  const inject = await loopbackClient(app);
  const account = await createAccount(app, { coreTypes: ['sentence', 'word'] });
  const post = (parts: Part[]) => {
    const form = multipart(parts);
    return inject({ method: 'POST', url: '/api/v1/evaluate', payload: form.payload, headers: { ...form.headers, 'x-app-key': account.appKey } });
  };
  const audio: Part = { name: 'audio', value: Buffer.alloc(32000), filename: 'a.wav', contentType: 'audio/wav' };
  const config = (c: Record<string, unknown>): Part => ({ name: 'config', value: JSON.stringify(c), contentType: 'application/json' });

  const cases: Array<[string, Part[], number, number, RegExp]> = [
    ['missing config', [audio], 400, 40001, /missing config/],
    ['config not application/json', [audio, { name: 'config', value: '{"coreType":"word","referenceText":"a"}', contentType: 'text/plain' }], 500, 50000, /^system busy, please try again later$/],
    ['config not JSON', [audio, { name: 'config', value: '{nope', contentType: 'application/json' }], 400, 40001, /not valid JSON/],
    ['missing coreType', [audio, config({ referenceText: 'a' })], 400, 40001, /missing coreType/],
    ['refText instead of referenceText', [audio, config({ coreType: 'word', refText: 'a' })], 400, 40001, /missing referenceText/],
    ['compat kind on the native path', [audio, config({ coreType: 'sent.eval', referenceText: 'a' })], 404, 40400, /^Unknown coreType$/],
    ['bad language', [audio, config({ coreType: 'word', referenceText: 'a', language: 'de-DE' })], 400, 40001, /language/],
    ['too long', [audio, config({ coreType: 'word', referenceText: 'a'.repeat(1001) })], 400, 40001, /1000/],
    ['missing audio', [config({ coreType: 'word', referenceText: 'a' })], 400, 40001, /missing audio/],
    ['kind outside the key whitelist', [audio, config({ coreType: 'passage', referenceText: 'a' })], 403, 40300, /passage/],
    ['slack out of range', [audio, config({ coreType: 'word', referenceText: 'a', slack: 2 })], 400, 40001, /^slack must be a number in \[-1, 1\]/],
    ['scale 0', [audio, config({ coreType: 'word', referenceText: 'a', scale: 0 })], 400, 40001, /^scale must be/],
    ['scale not an integer', [audio, config({ coreType: 'word', referenceText: 'a', scale: 4.5 })], 400, 40001, /^scale must be an integer/],
    ['precision 0', [audio, config({ coreType: 'word', referenceText: 'a', precision: 0 })], 400, 40001, /^precision must be greater than 0/],
    ['gradeBand 5', [audio, config({ coreType: 'word', referenceText: 'a', gradeBand: 5 })], 400, 40001, /^gradeBand must be one of 1, 2, 3, 4/],
    ['agegroup 4', [audio, config({ coreType: 'word', referenceText: 'a', agegroup: 4 })], 400, 40001, /^agegroup must be one of 1, 2, 3/],
    ['unknown genre', [audio, config({ coreType: 'word', referenceText: 'a', genre: 'song' })], 400, 40001, /^genre must be one of/],
    ['21 keyPoints', [audio, config({ coreType: 'word', referenceText: 'a', keyPoints: Array.from({ length: 21 }, (_, i) => `p${i}`) })], 400, 40001, /keyPoints has 21 items; at most 20/],
    ['9 reportSlots', [audio, config({ coreType: 'word', referenceText: 'a', reportSlots: Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`s${i}`, 'x'])) })], 400, 40001, /^reportSlots has 9 keys; at most 8$/],
    ['a reportSlots value of 121 characters', [audio, config({ coreType: 'word', referenceText: 'a', reportSlots: { focus: 'x'.repeat(121) } })], 400, 40001, /^reportSlots\.focus longer than 120 characters$/],
    ['reportPrompt of 601 characters', [audio, config({ coreType: 'word', referenceText: 'a', reportPrompt: 'x'.repeat(601) })], 400, 40001, /^reportPrompt longer than 600 characters$/],
    ['kind not available for the language', [audio, config({ coreType: 'alpha', referenceText: 'a b', language: 'zh-CN' })], 400, 40001, /coreType alpha is not available for language zh-CN/],
  ];
  for (const [name, parts, status, code, message] of cases) {
    const res = await post(parts);
    assert.equal(res.statusCode, status, name);
    assert.equal(res.json().code, code, name);
    assert.match(res.json().message, message, name);
  }
  const notMultipart = await inject({ method: 'POST', url: '/api/v1/evaluate', payload: { coreType: 'word' }, headers: { 'x-app-key': account.appKey } });
  assert.equal(notMultipart.json().code, 40001);
  const undecodable = await post([{ ...audio, value: Buffer.from('this is not audio at all') }, config({ coreType: 'word', referenceText: 'apple' })]);
  assert.equal(undecodable.statusCode, 400);
  assert.equal(undecodable.json().code, 40001);
  assert.deepEqual(await usageRows(app, account), []);
});

test('compat POST /{coreType}: signature only, unknown kinds 404, form errors 40001', async (t) => {
  const { app } = await buildTestApp();
  t.after(() => app.close());
  const inject = await loopbackClient(app);
  const account = await createAccount(app);
  const send = (kind: string, fields: Record<string, string>, sign = true, appKeyOnly = false) => {
    const form = compatForm(fields, Buffer.alloc(48000));
    const headers = sign ? signForm(account, form.parts) : appKeyOnly ? { 'x-app-key': account.appKey } : {};
    return inject({ method: 'POST', url: `/${kind}`, payload: form.payload, headers: { ...form.headers, ...headers } });
  };
  const native = await send('sentence', { refText: 'hello' });
  assert.equal(native.statusCode, 404);
  assert.equal(native.json().message, 'Unknown coreType');
  assert.equal((await send('sent.eval', { refText: 'hello' }, false)).json().code, 40100);
  const appKeyOnly = await send('sent.eval', { refText: 'hello' }, false, true);
  assert.equal(appKeyOnly.statusCode, 401);
  assert.match(appKeyOnly.json().message, /signature/);

  const cases: Array<[string, Record<string, string>, RegExp]> = [
    ['sent.eval', {}, /missing refText/],
    ['pinyin', { refText: '你好' }, /refPinyin is required/],
    ['sent.eval', { refText: 'hi', scale: 'ten' }, /scale must be a number/],
    ['sent.eval', { refText: 'hi', readtype_diagnosis: '2' }, /readtype_diagnosis must be 0 or 1/],
    ['sent.eval', { refText: 'hi', dict_dialect: 'en_au' }, /dict_dialect/],
    ['sent.eval', { refText: 'hi', request: '[1,2]' }, /request must be a JSON object/],
    ['open.eval.cn', { refText: '题目', keypoints: JSON.stringify(Array.from({ length: 15 }, (_, i) => `k${i}`)), keywords: 'a|b|c|d|e|f' }, /at most 20/],
    ['sent.eval', { refText: 'hi', customized_pron: 'nocolon' }, /customized_pron/],
    ['sent.eval.cn', { refText: '你好', language: 'en-US' }, /sent\.eval\.cn.*en-US/],
    ['para.eval', { refText: 'hi', paragraph_need_word_score: '2' }, /^paragraph_need_word_score must be one of 0, 1/],
    ['sent.eval', { refText: 'a'.repeat(1001) }, /^refText longer than 1000 characters$/],
    ['sent.eval', { refText: 'hi', language: 'fr-FR' }, /^language must be one of zh-CN, en-US, en-GB/],
    ['sent.eval', { refText: 'hi', agegroup: '5' }, /^agegroup must be one of 1, 2, 3/],
    ['sent.eval', { refText: 'hi', precision: '2' }, /^precision must be greater than 0 and at most 1/],
    ['sent.eval', { refText: 'hi', slack: '-3' }, /^slack must be a number in \[-1, 1\]/],
    ['open.eval.cn', { refText: '题目', taskType: 'essay' }, /^taskType must be one of picture, situational, free/],
    ['open.eval.cn', { refText: '题目', keypoints: '["unclosed' }, /keypoints/],
    ['sent.eval', { refText: 'hi', customized_lexicon: '{not json' }, /customized_lexicon/],
  ];
  for (const [kind, fields, message] of cases) {
    const res = await send(kind, fields);
    assert.equal(res.statusCode, 400, `${kind} ${JSON.stringify(fields)}: ${res.body}`);
    assert.match(res.json().message, message);
  }
  // Audio shorter than one second is refused on the compat path (0.5 s of 16 kHz WAV here).
  const wav = Buffer.alloc(44 + 16000);
  wav.write('RIFF', 0, 'latin1');
  wav.writeUInt32LE(36 + 16000, 4);
  wav.write('WAVEfmt ', 8, 'latin1');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(16000, 24);
  wav.writeUInt32LE(32000, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'latin1');
  wav.writeUInt32LE(16000, 40);
  const parts: Part[] = [{ name: 'audio', value: wav, filename: 'short.wav' }, { name: 'refText', value: 'hello' }];
  const form = multipart(parts);
  const short = await inject({ method: 'POST', url: '/sent.eval', payload: form.payload, headers: { ...form.headers, ...signForm(account, parts) } });
  assert.equal(short.statusCode, 400);
  assert.match(short.json().message, /shorter than 1 second/);
  assert.deepEqual(await usageRows(app, account), []);
});

async function listen(app: FastifyInstance): Promise<string> {
  return `ws://${await listenOnLoopback(app)}`;
}

/** Collects frames; `next()` resolves with the next frame (JSON) or the close code. */
function client(url: string) {
  const ws = new WebSocket(url);
  const frames: unknown[] = [];
  const waiters: Array<(v: unknown) => void> = [];
  const push = (v: unknown) => (waiters.length ? waiters.shift()!(v) : frames.push(v));
  ws.on('message', (data) => push(JSON.parse(String(data))));
  ws.on('close', (code) => push({ closed: code }));
  return {
    ws,
    next: (): Promise<any> => (frames.length ? Promise.resolve(frames.shift()) : new Promise((r) => waiters.push(r))),
    send: (frame: unknown) => ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame)),
  };
}

test('WebSocket handshakes: refused credentials get an error frame and close 1008', async (t) => {
  const { app } = await buildTestApp();
  t.after(() => app.close());
  const account = await createAccount(app);
  const base = await listen(app);

  const none = client(`${base}/api/v1/ws/evaluate`);
  assert.equal((await none.next()).code, 40100);
  assert.equal((await none.next()).closed, 1008);

  const badToken = client(`${base}/api/v1/ws/evaluate?token=${account.appKey}`);
  assert.equal((await badToken.next()).code, 2002);

  const query = { appKey: account.appKey, timestamp: String(Math.floor(Date.now() / 1000)), nonce: 'ws-1' };
  const signature = sign(handshakePayload(query), account.secret);
  const tampered = client(`${base}/api/v1/ws/evaluate?${new URLSearchParams({ ...query, nonce: 'ws-2', signature })}`);
  assert.equal((await tampered.next()).code, 40100);
  const signed = client(`${base}/api/v1/ws/evaluate?${new URLSearchParams({ ...query, signature })}`);
  assert.equal((await signed.next()).event, 'connected');
  signed.ws.close();

  const unknownKind = client(`${base}/sentence?token=${account.token}`);
  const frame = await unknownKind.next();
  assert.equal(frame.message, 'Unknown coreType');
});

test('native WebSocket: malformed frames are recoverable, bad configs and audio outside a round get errors, stop is ignored', async (t) => {
  const { app } = await buildTestApp();
  t.after(() => app.close());
  const account = await createAccount(app);
  const base = await listen(app);
  const c = client(`${base}/api/v1/ws/evaluate?token=${account.token}`);
  assert.equal((await c.next()).event, 'connected');
  c.send('{not json');
  assert.deepEqual(Object.keys(await c.next()).sort(), ['event', 'message']);
  c.ws.send(Buffer.from([1, 2, 3]));
  assert.match((await c.next()).message, /start first/);
  c.send({ cmd: 'start', coreType: 'word' });
  const bad = await c.next();
  assert.equal(bad.code, 40001);
  assert.match(bad.message, /missing referenceText/);
  c.send({ cmd: 'start', coreType: 'sent.eval', referenceText: 'hello world' });
  assert.equal((await c.next()).message, 'Unknown coreType', 'a compat name in a native start');
  c.send({ cmd: 'start', coreType: 'pinyin', referenceText: '你好', language: 'zh-CN', refPinyin: 'ni3 hao3' });
  assert.equal((await c.next()).event, 'started', 'pinyin is a native kind too');
  c.send({ cmd: 'start', coreType: 'sentence', referenceText: 'hello world' });
  assert.equal((await c.next()).event, 'started');
  c.send({ cmd: 'audio', data: '***not base64***' });
  assert.match((await c.next()).message, /base64/);
  c.send({ cmd: 'stop' });
  c.send({ cmd: 'end' });
  // No audio arrived in this round: a clear error, and the session stays open.
  const noAudio = await c.next();
  assert.equal(noAudio.code, 40001);
  assert.match(noAudio.message, /no audio/);
  assert.equal(c.ws.readyState, WebSocket.OPEN);
  c.ws.close();
});

test('compat WebSocket: connected with the kind, ping keeps the session, parameter errors are 40001', async (t) => {
  const { app } = await buildTestApp({}, { wsIdleMs: 400 });
  t.after(() => app.close());
  const account = await createAccount(app);
  const base = await listen(app);
  const c = client(`${base}/sent.eval.cn?token=${account.token}`);
  assert.deepEqual(await c.next(), { event: 'connected', coreType: 'sent.eval.cn' });
  c.send({ cmd: 'ping' });
  assert.deepEqual(await c.next(), { event: 'pong' });
  c.send({ language: 'zh-CN' });
  assert.match((await c.next()).message, /missing refText/);
  c.send({ refText: '你好' });
  assert.deepEqual(await c.next(), { event: 'started' });
  // Idle timeout closes the session with a clear error.
  const idle = await c.next();
  assert.match(idle.message, /no frame for/);
  assert.equal((await c.next()).closed, 1000);
});

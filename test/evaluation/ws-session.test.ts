/**
 * Session handling of the two real-time channels against a real listening server and the real
 * engines: frames sent before `connected` (while the handshake is still being authenticated),
 * idempotency keys in the start / parameter frame and in the handshake query, audio size
 * limits per frame and in all, timeouts, the `realtime_feedback` switch, and the include flags
 * the server fixes.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, listenOnLoopback } from '../helpers/app.js';
import { createAccount, listeningAppWithAccount, type TestAccount } from '../helpers/gateway.js';
import { meterTotal } from '../helpers/ledger.js';
import { mandarinRecording, type Recording } from '../helpers/recordings.js';
import { FrameClient, signedHandshake } from '../helpers/ws.js';

let app: FastifyInstance;
let base: string;
let account: TestAccount;
let zh: Recording;

before(async () => {
  ({ app, base, account } = await listeningAppWithAccount('ws', { tier: 'enterprise' }));
  zh = await mandarinRecording(8);
});
after(() => app.close());

/** A masked client frame (RFC 6455 §5.2): text for strings, binary for buffers. */
function clientFrame(data: string | Buffer): Buffer {
  const payload = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const n = payload.length;
  const head = n < 126 ? Buffer.from([0, 0x80 | n]) : n < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  head[0] = 0x80 | (typeof data === 'string' ? 1 : 2);
  if (n >= 126 && n < 65536) (head[1] = 0x80 | 126), head.writeUInt16BE(n, 2);
  if (n >= 65536) (head[1] = 0x80 | 127), head.writeBigUInt64BE(BigInt(n), 2);
  const mask = randomBytes(4);
  const masked = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]));
  return Buffer.concat([head, mask, masked]);
}

/**
 * The earliest a client can send: the upgrade request and the first frames leave in one write,
 * so the frames reach the server together with the handshake, before authentication can
 * finish. Returns `json()` over the server's text frames (parsed JSON).
 */
function sendWithHandshake(path: string, frames: (string | Buffer)[]) {
  const [host, port] = base.replace('ws://', '').split(':');
  const socket = net.connect(Number(port), host);
  const request = [`GET ${path} HTTP/1.1`, `Host: ${host}:${port}`, 'Upgrade: websocket', 'Connection: Upgrade', `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`, 'Sec-WebSocket-Version: 13', '', ''].join('\r\n');
  socket.write(Buffer.concat([Buffer.from(request, 'latin1'), ...frames.map(clientFrame)]));
  let buffer = Buffer.alloc(0);
  let upgraded = false;
  const out: any[] = [];
  const waiters: Array<(v: any) => void> = [];
  socket.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    if (!upgraded) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      assert.match(buffer.subarray(0, end).toString('latin1'), /^HTTP\/1.1 101/);
      upgraded = true;
      buffer = buffer.subarray(end + 4);
    }
    // Server frames are unmasked and, from this server, never fragmented.
    for (;;) {
      if (buffer.length < 2) return;
      let n = buffer[1] & 0x7f;
      let at = 2;
      if (n === 126) (n = buffer.length >= 4 ? buffer.readUInt16BE(2) : Infinity), (at = 4);
      else if (n === 127) (n = buffer.length >= 10 ? Number(buffer.readBigUInt64BE(2)) : Infinity), (at = 10);
      if (buffer.length < at + n) return;
      const opcode = buffer[0] & 0x0f;
      const frame = buffer.subarray(at, at + n);
      buffer = buffer.subarray(at + n);
      if (opcode !== 1) continue;
      const value = JSON.parse(frame.toString('utf8'));
      if (waiters.length) waiters.shift()!(value);
      else out.push(value);
    }
  });
  return {
    json: (): Promise<any> => (out.length ? Promise.resolve(out.shift()) : new Promise((r) => waiters.push(r))),
    close: () => socket.destroy(),
  };
}

/** One compat round on a new connection; returns the final frame (or the error). */
async function compatRound(query: string, params: Record<string, unknown>): Promise<any> {
  const c = new FrameClient(`${base}/sent.eval.cn?${query}`);
  assert.equal((await c.json()).event, 'connected');
  c.send({ refText: zh.text, language: 'zh-CN', ...params });
  const started = await c.json();
  if (started.event !== 'started') {
    c.ws.close();
    return started;
  }
  c.ws.send(zh.wav);
  c.send({ cmd: 'end' });
  const final = await c.until((f) => f.eof === 1 || f.event === 'error');
  c.ws.close();
  return final.json;
}

test('native: start, audio and end sent with the handshake itself are all served, in order', async () => {
  // A token needs an asynchronous verification before the session exists. The include flags
  // are the server's: even malformed client values are ignored.
  const c = sendWithHandshake(`/api/v1/ws/evaluate?token=${account.token}`, [
    JSON.stringify({ cmd: 'start', coreType: 'sentence', language: 'zh-CN', referenceText: zh.text, includeReport: 'x', includeAsrText: 0, includeStandardAudio: true }),
    zh.wav.subarray(0, 20000),
    JSON.stringify({ cmd: 'audio', data: zh.wav.subarray(20000).toString('base64') }),
    JSON.stringify({ cmd: 'end' }),
  ]);
  assert.equal((await c.json()).event, 'connected');
  assert.deepEqual(await c.json(), { event: 'started' });
  const result = await c.json();
  assert.equal(result.event, 'result', JSON.stringify(result));
  assert.equal(result.eof, 1);
  assert.ok(result.result.overall >= 60, `overall ${result.result.overall}`);
  assert.ok(result.report, 'the report is on for WebSocket sessions');
  assert.ok(result.asrText, 'asrText is on for WebSocket sessions');
  assert.ok(!result.standardAudio, 'standard audio is off for WebSocket sessions');
  c.close();
});

test('native: frames sent as soon as the client sees the socket open are served too', async () => {
  const c = new FrameClient(`${base}/api/v1/ws/evaluate?token=${account.token}`);
  await c.opened;
  c.send({ cmd: 'start', coreType: 'sentence', language: 'zh-CN', referenceText: zh.text });
  c.ws.send(zh.wav);
  c.send({ cmd: 'end' });
  assert.equal((await c.json()).event, 'connected');
  assert.deepEqual(await c.json(), { event: 'started' });
  assert.equal((await c.json()).event, 'result');
  c.ws.close();
});

test('compat: the parameter frame, audio and end sent with the handshake, signature credentials, are served', async () => {
  // The signature path looks the key and the nonce up in storage before the session exists.
  const c = sendWithHandshake(`/sent.eval.cn?${signedHandshake(account)}`, [JSON.stringify({ refText: zh.text, language: 'zh-CN' }), zh.wav, JSON.stringify({ cmd: 'end' })]);
  assert.deepEqual(await c.json(), { event: 'connected', coreType: 'sent.eval.cn' });
  assert.deepEqual(await c.json(), { event: 'started' });
  const final = await c.json();
  assert.equal(final.eof, 1, JSON.stringify(final));
  assert.match(final.recordId, /^eval_/);
  c.close();
});

test('an invalid idempotencyKey is refused when the round starts, naming the field', async () => {
  const native = new FrameClient(`${base}/api/v1/ws/evaluate?token=${account.token}`);
  assert.equal((await native.json()).event, 'connected');
  for (const key of ['has space', 'x'.repeat(201), 'ключ']) {
    native.send({ cmd: 'start', coreType: 'sentence', language: 'zh-CN', referenceText: zh.text, idempotencyKey: key });
    const refused = await native.json();
    assert.equal(refused.event, 'error');
    assert.equal(refused.code, 40001);
    assert.match(refused.message, /^idempotencyKey must be 1-200 visible ASCII characters/);
  }
  // No round was started: audio is still outside a round.
  native.ws.send(zh.wav.subarray(0, 1000));
  assert.match((await native.json()).message, /start first/);
  native.send({ cmd: 'start', coreType: 'sentence', language: 'zh-CN', referenceText: zh.text, idempotencyKey: 'x'.repeat(200) });
  assert.deepEqual(await native.json(), { event: 'started' });
  native.ws.close();

  const refused = await compatRound(`token=${account.token}`, { idempotencyKey: 'tab\tkey' });
  assert.equal(refused.code, 40001);
  assert.match(refused.message, /idempotencyKey/);
  // A key in the handshake query is checked the same way.
  const fromQuery = await compatRound(`token=${account.token}&idempotencyKey=${encodeURIComponent('two words')}`, {});
  assert.equal(fromQuery.code, 40001);
  assert.match(fromQuery.message, /idempotencyKey/);
});

test('the handshake query idempotencyKey is used when the frame has none; the frame key wins', async () => {
  const before = await meterTotal(app, account, 'evaluation.calls');
  const key = `q-${Date.now()}`;
  const first = await compatRound(`${signedHandshake(account, { idempotencyKey: key })}`, {});
  assert.equal(first.eof, 1, JSON.stringify(first));
  const replay = await compatRound(`${signedHandshake(account, { idempotencyKey: key })}`, {});
  assert.equal(replay.recordId, first.recordId, 'the same key from the query replays the round');
  // The frame's own key wins over the query's: a new evaluation.
  const own = await compatRound(`${signedHandshake(account, { idempotencyKey: key })}`, { idempotencyKey: `${key}-frame` });
  assert.equal(own.eof, 1);
  assert.notEqual(own.recordId, first.recordId);
  assert.equal(await meterTotal(app, account, 'evaluation.calls'), before + 2);
});

test('audio limits: a base64 frame of 10 MB fits; audio over 10 MB, in one frame or in all, is a 40001 error frame', async () => {
  const limit = 10 * 1024 * 1024;
  const native = new FrameClient(`${base}/api/v1/ws/evaluate?token=${account.token}`);
  assert.equal((await native.json()).event, 'connected');
  native.send({ cmd: 'start', coreType: 'sentence', language: 'zh-CN', referenceText: zh.text });
  assert.deepEqual(await native.json(), { event: 'started' });
  // Not a WAV stream, so nothing is decoded while it arrives; no end is sent.
  native.send({ cmd: 'audio', data: Buffer.alloc(limit, 1).toString('base64') });
  native.send('{not json'); // answered only if the big frame was taken and the session lives on
  assert.deepEqual(await native.json(), { event: 'error', message: 'malformed JSON frame' });
  native.ws.send(Buffer.alloc(1, 1));
  assert.deepEqual(await native.json(), { event: 'error', code: 40001, message: 'audio larger than 10 MB' });
  native.ws.close();

  const compat = new FrameClient(`${base}/sent.eval.cn?token=${account.token}`);
  await compat.json();
  compat.send({ refText: zh.text });
  assert.deepEqual(await compat.json(), { event: 'started' });
  compat.ws.send(Buffer.alloc(limit + 1024 * 1024, 1)); // one binary frame of 11 MB
  assert.deepEqual(await compat.json(), { event: 'error', code: 40001, message: 'audio larger than 10 MB' });
  compat.send({ refText: zh.text });
  assert.deepEqual(await compat.json(), { event: 'started' });
  compat.send({ cmd: 'audio', data: Buffer.alloc(6 * 1024 * 1024, 1).toString('base64') });
  compat.send({ cmd: 'audio', data: Buffer.alloc(6 * 1024 * 1024, 1).toString('base64') });
  assert.deepEqual(await compat.json(), { event: 'error', code: 40001, message: 'audio larger than 10 MB' });
  compat.send({ cmd: 'ping' });
  assert.deepEqual(await compat.json(), { event: 'pong' });
  compat.ws.close();
});

test('realtime_feedback is read like the other compat switches, also from request', async () => {
  const progressAfterOneChunk = async (params: Record<string, unknown>) => {
    const c = new FrameClient(`${base}/sent.eval.cn?token=${account.token}`);
    await c.json();
    c.send({ refText: zh.text, ...params });
    const started = await c.json();
    if (started.event !== 'started') {
      c.ws.close();
      return started;
    }
    c.ws.send(Buffer.from('not a wav file, just bytes'));
    c.send({ cmd: 'ping' });
    const frame = await c.json();
    c.ws.close();
    return frame;
  };
  for (const on of [true, 1, '1', 'true', { request: { realtime_feedback: 1 } }, { request: JSON.stringify({ realtime_feedback: 'true' }) }]) {
    const params = typeof on === 'object' ? on : { realtime_feedback: on };
    assert.deepEqual(await progressAfterOneChunk(params), { eof: 0, result: { bytes: 26 } }, JSON.stringify(params));
  }
  for (const off of [false, 0, '0', 'false', '']) {
    assert.deepEqual(await progressAfterOneChunk({ realtime_feedback: off }), { event: 'pong' }, JSON.stringify(off));
  }
  // The frame's own field wins over request's, as form fields do.
  assert.deepEqual(await progressAfterOneChunk({ realtime_feedback: 0, request: { realtime_feedback: 1 } }), { event: 'pong' });
  const bad = await progressAfterOneChunk({ realtime_feedback: 'yes' });
  assert.equal(bad.code, 40001);
  assert.match(bad.message, /realtime_feedback must be 0 or 1/);
});

test('timeouts close the session with an error frame that has no code', async (t) => {
  const { app: quick } = await buildTestApp({}, { wsIdleMs: 300 });
  t.after(() => quick.close());
  const other = await createAccount(quick);
  const url = `ws://${await listenOnLoopback(quick)}`;
  for (const path of ['/api/v1/ws/evaluate', '/sent.eval.cn']) {
    const c = new FrameClient(`${url}${path}?token=${other.token}`);
    assert.equal((await c.json()).event, 'connected');
    const idle = await c.json();
    assert.deepEqual(Object.keys(idle).sort(), ['event', 'message']);
    assert.equal(idle.event, 'error');
    assert.match(idle.message, /no frame for 0.3 s; session closed/);
    assert.deepEqual(await c.json(), { closed: 1000 });
  }
});

/**
 * Idempotent replay over the real-time channels, against a listening server with a real
 * recording: a round whose start (or parameter) frame carries `idempotencyKey`, repeated on a
 * new connection with the same key and the same audio, gets the stored final frame back
 * character for character (however the audio is cut into frames); it is evaluated, stored and
 * charged once. The same key with other audio is refused with 40903.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { TestAccount } from '../helpers/gateway.js';
import { charged, ledger } from '../helpers/ledger.js';
import type { Recording } from '../helpers/recordings.js';
import { connect, frames, realtimeSuite, signedHandshake } from '../helpers/ws.js';

let app: FastifyInstance;
let base: string;
let account: TestAccount;
let zh: Recording;
let en: Recording;

before(async () => {
  // Signed handshakes, so the rounds are charged to the key (console tokens are not).
  ({ app, base, account, zh, en } = await realtimeSuite());
});
after(() => app.close());

type Audio = { binary: number } | { base64: number };

/** One native round on a new connection; resolves with the raw text of the frame after `end`. */
async function nativeRound(start: Record<string, unknown>, wav: Buffer, audio: Audio): Promise<string> {
  const { client, first } = await connect(`${base}/api/v1/ws/evaluate?${signedHandshake(account)}`);
  assert.equal(first.event, 'connected');
  client.send({ cmd: 'start', ...start });
  assert.deepEqual(await client.json(), { event: 'started' });
  if ('binary' in audio) for (const chunk of frames(wav, audio.binary)) client.send(chunk);
  else for (const chunk of frames(wav, audio.base64)) client.send({ cmd: 'audio', data: chunk.toString('base64') });
  client.send({ cmd: 'end' });
  const { text } = await client.next();
  client.close();
  return text;
}

test('native WebSocket: the same key and audio on a new connection replays the result frame byte for byte', async () => {
  const key = `ws-native-${randomBytes(6).toString('hex')}`;
  const start = { coreType: 'sentence', language: 'zh-CN', referenceText: zh.text, idempotencyKey: key };
  const before = await ledger(app, account);

  const first = await nativeRound(start, zh.wav, { binary: 3200 });
  const frame = JSON.parse(first);
  assert.equal(frame.event, 'result', first);
  assert.equal(frame.eof, 1);
  assert.match(frame.recordId, /^eval_/);
  assert.deepEqual(await ledger(app, account), charged(before, 1));

  // Same bytes cut differently (binary 1000-byte frames, then base64 audio frames).
  const second = await nativeRound(start, zh.wav, { binary: 1000 });
  assert.equal(second, first, 'identical frame text');
  const third = await nativeRound(start, zh.wav, { base64: 6400 });
  assert.equal(third, first);
  assert.deepEqual(JSON.parse(third), frame);
  assert.deepEqual(await ledger(app, account), charged(before, 1), 'evaluated, stored and charged once');

  // The same key with other audio is a different request.
  const other = JSON.parse(await nativeRound(start, Buffer.concat([zh.wav, Buffer.alloc(6400)]), { binary: 3200 }));
  assert.equal(other.event, 'error');
  assert.equal(other.code, 40903);
  // ... and so is the same audio with another config under that key.
  const otherConfig = JSON.parse(await nativeRound({ ...start, scale: 10 }, zh.wav, { binary: 3200 }));
  assert.equal(otherConfig.code, 40903);
  assert.deepEqual(await ledger(app, account), charged(before, 1));
});

test('compat WebSocket: the same key and audio on a new connection replays the final frame byte for byte, timing included', async () => {
  const key = `ws-compat-${randomBytes(6).toString('hex')}`;
  const before = await ledger(app, account);
  const round = async (wav: Buffer) => {
    const { client, first } = await connect(`${base}/sent.eval?${signedHandshake(account)}`);
    assert.deepEqual(first, { event: 'connected', coreType: 'sent.eval' });
    client.send({ refText: en.text, language: 'en-US', idempotencyKey: key, timing: 1 });
    assert.deepEqual(await client.json(), { event: 'started' });
    for (const chunk of frames(wav, 6400)) client.send(chunk);
    client.send({ cmd: 'end' });
    const final = await client.until((f) => f.eof === 1 || f.event === 'error');
    client.close();
    return final.text;
  };
  const first = await round(en.wav);
  const frame = JSON.parse(first);
  assert.deepEqual(Object.keys(frame).sort(), ['eof', 'recordId', 'result', 'timing'], first);
  assert.equal(typeof frame.timing.wsFirstAudioAt, 'number');

  await new Promise((r) => setTimeout(r, 20)); // a later first-audio time would show if the frame were rebuilt
  const second = await round(en.wav);
  assert.equal(second, first, 'identical frame text');
  assert.deepEqual(await ledger(app, account), charged(before, 1));

  const other = JSON.parse(await round(en.wav.subarray(0, en.wav.length - 3200)));
  assert.equal(other.event, 'error');
  assert.equal(other.code, 40903);
  assert.deepEqual(await ledger(app, account), charged(before, 1));
});

test('native WebSocket: an idempotencyKey signed into the handshake query keys the round like one in the start frame', async () => {
  const key = `ws-query-${randomBytes(6).toString('hex')}`;
  const before = await ledger(app, account);
  const round = async () => {
    const { client, first } = await connect(`${base}/api/v1/ws/evaluate?${signedHandshake(account, { idempotencyKey: key })}`);
    assert.equal(first.event, 'connected');
    client.send({ cmd: 'start', coreType: 'sentence', language: 'en-US', referenceText: en.text });
    assert.deepEqual(await client.json(), { event: 'started' });
    client.send(en.wav);
    client.send({ cmd: 'end' });
    const { text } = await client.next();
    client.close();
    return text;
  };
  const first = await round();
  assert.equal(JSON.parse(first).event, 'result', first);
  assert.equal(await round(), first);
  assert.deepEqual(await ledger(app, account), charged(before, 1));
});

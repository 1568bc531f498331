/**
 * Real-time sessions that meet malformed frames mid-round and still end in a result, a second
 * `end` on the compat channel, and the include flags the server fixes for native sessions;
 * against a listening server with real recordings. Recoverable errors change nothing: the
 * result covers exactly the audio frames that were well formed, and each round is stored and
 * charged once.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { roundSeconds } from '../../src/metering/meters.js';
import type { TestAccount } from '../helpers/gateway.js';
import { charged, ledger, meterTotal } from '../helpers/ledger.js';
import type { Recording } from '../helpers/recordings.js';
import { connect, frames, realtimeSuite, signedHandshake, type FrameClient } from '../helpers/ws.js';

let app: FastifyInstance;
let base: string;
let account: TestAccount;
let zh: Recording;
let en: Recording;

before(async () => {
  ({ app, base, account, zh, en } = await realtimeSuite());
});
after(() => app.close());

/** The malformed frames of the spec's state table; each must get a recoverable error frame. */
async function sendMalformed(client: FrameClient): Promise<void> {
  const cases: Array<[string, RegExp]> = [
    ['{"cmd":"audio", "data":', /malformed JSON/],
    [JSON.stringify({ cmd: 'audio', data: '@@not*base64@@' }), /base64/],
    [JSON.stringify({ cmd: 'audio', data: 'QUJD=Q' }), /base64/],
    ['[1,2,3]', /JSON object/],
  ];
  for (const [text, message] of cases) {
    client.send(text);
    const error = await client.json();
    assert.equal(error.event, 'error', text);
    assert.match(error.message, message, text);
    assert.equal(error.code, undefined, `a malformed frame is not a business error: ${text}`);
  }
}

test('native session: malformed JSON and base64 frames mid-round are recoverable; end still gives the result of the good audio', async () => {
  const start = await ledger(app, account);
  const seconds = await meterTotal(app, account, 'evaluation.audio_seconds');
  const { client, first } = await connect(`${base}/api/v1/ws/evaluate?${signedHandshake(account)}`);
  assert.equal(first.event, 'connected');
  client.send({ cmd: 'start', coreType: 'sentence', language: 'zh-CN', referenceText: zh.text });
  assert.deepEqual(await client.json(), { event: 'started' });
  const chunks = frames(zh.wav, 3200);
  const half = Math.floor(chunks.length / 2);
  for (const chunk of chunks.slice(0, half)) client.send(chunk);
  await sendMalformed(client);
  // The rest as base64 audio frames: the session still takes audio after the errors.
  for (const chunk of chunks.slice(half)) client.send({ cmd: 'audio', data: chunk.toString('base64') });
  client.send({ cmd: 'end' });
  const result = await client.json();
  assert.equal(result.event, 'result', JSON.stringify(result));
  assert.equal(result.eof, 1);
  assert.ok(result.result.overall >= 60, `overall ${result.result.overall}`);
  assert.equal(result.result.words.length, [...zh.text].length);
  client.close();
  assert.deepEqual(await ledger(app, account), charged(start, 1));
  // Metering covers exactly the uploaded recording: no byte of a malformed frame was kept.
  const metered = (await meterTotal(app, account, 'evaluation.audio_seconds')) - seconds;
  assert.ok(Math.abs(metered - roundSeconds(zh.seconds)) < 0.002, `metered ${metered} s of ${zh.seconds} s`);
});

test('compat session: malformed frames are recoverable; a second end repeats the same final frame, stored and charged once; audioUrl is absolute', async () => {
  const start = await ledger(app, account);
  const { client, first } = await connect(`${base}/sent.eval?${signedHandshake(account)}`);
  assert.deepEqual(first, { event: 'connected', coreType: 'sent.eval' });
  client.send({ refText: en.text, language: 'en-US', timing: 1, attachAudioUrl: 1 });
  assert.deepEqual(await client.json(), { event: 'started' });
  const chunks = frames(en.wav, 640 * 5);
  const half = Math.floor(chunks.length / 2);
  for (const chunk of chunks.slice(0, half)) client.send(chunk);
  await sendMalformed(client);
  client.send({ cmd: 'ping' });
  assert.deepEqual(await client.json(), { event: 'pong' });
  for (const chunk of chunks.slice(half)) client.send(chunk);
  client.send({ cmd: 'end' });
  const final = await client.until((f) => f.eof === 1 || f.event === 'error');
  assert.equal(final.json.eof, 1, final.text);
  assert.match(final.json.recordId, /^eval_/);
  assert.equal(final.json.timing.audioBytes, en.wav.length, 'the result covers the well-formed audio, all of it');
  assert.deepEqual(final.json.result.words.map((w: { word: string }) => w.word.toLowerCase()), en.text.split(' '));
  // The same absolute address as over HTTP: the handshake's protocol and Host.
  assert.equal(final.json.audioUrl, `${base.replace(/^ws/, 'http')}/compat/audio/${final.json.recordId}.wav`);
  assert.deepEqual(Buffer.from(await (await fetch(final.json.audioUrl)).arrayBuffer()), en.wav);

  client.send({ cmd: 'end' });
  const again = await client.until((f) => f.eof === 1 || f.event === 'error');
  assert.equal(again.text, final.text, 'the second end repeats the final frame exactly');
  client.close();
  assert.deepEqual(await ledger(app, account), charged(start, 1));
  const lookup = await app.inject({ method: 'GET', url: `/api/v1/report/${final.json.recordId}`, headers: { 'x-app-key': account.appKey } });
  assert.deepEqual(lookup.json().data.score, final.json.result);
});

test('native session: includeReport, includeAsrText and includeStandardAudio are fixed by the server whatever the start frame says', async () => {
  const start = await ledger(app, account);
  const { client, first } = await connect(`${base}/api/v1/ws/evaluate?${signedHandshake(account)}`);
  assert.equal(first.event, 'connected');
  const round = async (flags: Record<string, unknown>) => {
    client.send({ cmd: 'start', coreType: 'sentence', language: 'en-US', referenceText: en.text, ...flags });
    const started = await client.json();
    assert.deepEqual(started, { event: 'started' }, JSON.stringify(flags));
    client.send(en.wav);
    client.send({ cmd: 'end' });
    const result = await client.json();
    assert.equal(result.event, 'result', JSON.stringify(result));
    return result;
  };
  for (const flags of [
    { includeReport: false, includeAsrText: false, includeStandardAudio: true },
    { includeReport: 'no', includeAsrText: 0, includeStandardAudio: 'yes' },
  ]) {
    const result = await round(flags);
    assert.deepEqual(Object.keys(result).sort(), ['asrText', 'eof', 'event', 'recordId', 'report', 'result', 'warnings'], JSON.stringify(flags));
    assert.equal(result.report.rubricVersion, 'v20260705a');
    assert.equal(typeof result.report.summary, 'string');
    assert.equal(typeof result.asrText.text, 'string');
    assert.equal(result.standardAudio, undefined);
  }
  client.close();
  assert.deepEqual(await ledger(app, account), charged(start, 2));
});

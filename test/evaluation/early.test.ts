/**
 * Early scoring of real-time rounds (src/evaluation/ws/early.ts), on real recordings and the
 * real engines: the quiet test on speech and on the recording's own background, and, end to
 * end over the compat WebSocket, a round whose early scoring is used (its result is exactly
 * the scorer's answer on the audio it says it scored) and one whose early scoring is dropped
 * because speech followed it.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { decodeAudio } from '../../src/audio/decode.js';
import { wavBuffer } from '../../src/audio/encode.js';
import { concatPcm } from '../../src/audio/resample.js';
import { quietFrom, quietThreshold } from '../../src/evaluation/ws/early.js';
import { buildTestApp, listenOnLoopback } from '../helpers/app.js';
import { createAccount, multipart, signForm, type Part, type TestAccount } from '../helpers/gateway.js';
import { aishellFile, aishellTranscripts } from '../acoustic/speech.js';
import { connect } from '../helpers/ws.js';
import { loadConfig } from '../../src/config.js';

let app: FastifyInstance;
let base: string;
let account: TestAccount;
let sentence: { pcm: Int16Array; text: string };
/** The recording's own background: its quietest 100 ms, repeated. */
let background: Int16Array;

function rms(pcm: Int16Array): number {
  let sum = 0;
  for (const x of pcm) sum += x * x;
  return Math.sqrt(sum / Math.max(1, pcm.length));
}

before(async () => {
  ({ app } = await buildTestApp());
  base = await listenOnLoopback(app);
  account = await createAccount(app, { tier: 'enterprise' });
  await app.speech.acoustic(); // models loaded, as a server does before it reports ready
  const s = aishellTranscripts().find((t) => [...t.text].length >= 10)!;
  sentence = { pcm: (await decodeAudio(fs.readFileSync(aishellFile(s.id)))).pcm, text: s.text };
  let quietest = 0;
  for (let i = 0; i + 1600 <= sentence.pcm.length; i += 800) if (rms(sentence.pcm.subarray(i, i + 1600)) < rms(sentence.pcm.subarray(quietest, quietest + 1600))) quietest = i;
  const piece = sentence.pcm.slice(quietest, quietest + 1600);
  background = concatPcm(Array.from({ length: 15 }, () => piece));
});
after(() => app.close());

test('the recording background is quiet, its speech is not', () => {
  const threshold = quietThreshold(sentence.pcm);
  assert.ok(threshold !== null && threshold > 0);
  const withTail = concatPcm([sentence.pcm, background]);
  assert.equal(quietFrom(withTail, sentence.pcm.length, threshold), true);
  assert.equal(quietFrom(withTail, 0, threshold), false);
  const spoken = concatPcm([sentence.pcm, background, sentence.pcm.subarray(0, 16000)]);
  assert.equal(quietFrom(spoken, sentence.pcm.length, threshold), false, 'a word after the silence is speech');
  assert.equal(quietThreshold(sentence.pcm.subarray(0, 8000)), null, 'half a second is too short to judge');
});

/**
 * Streams a WAV over the compat WebSocket in 100 ms chunks, the reading at four times real
 * time and from `realTimeFrom` (a byte offset) at real-time pace, and returns the final frame.
 */
async function compatRound(wav: Buffer, text: string, realTimeFrom: number, at = { base, token: account.token }): Promise<any> {
  const { client, first } = await connect(`ws://${at.base}/sent.eval.cn?token=${at.token}`);
  assert.equal(first.event, 'connected');
  client.send({ refText: text, language: 'zh-CN', timing: 1 });
  assert.equal((await client.json()).event, 'started');
  for (let i = 0; i < wav.length; i += 3200) {
    client.send(wav.subarray(i, i + 3200));
    await new Promise((r) => setTimeout(r, i >= realTimeFrom ? 100 : 25));
  }
  client.send({ cmd: 'end' });
  const final = await client.until((f) => f.eof === 1 || f.event === 'error');
  client.close();
  return final.json;
}

async function compatHttp(pcm: Int16Array, text: string): Promise<any> {
  const parts: Part[] = [
    { name: 'audio', value: wavBuffer(pcm, 16000), filename: 'a.wav' },
    { name: 'refText', value: text },
  ];
  const form = multipart(parts);
  const res = await fetch(`http://${base}/sent.eval.cn`, { method: 'POST', body: new Uint8Array(form.payload), headers: { ...form.headers, ...signForm(account, parts) } });
  assert.equal(res.status, 200);
  return res.json();
}

test('a reading followed by silence is scored early, exactly as the audio up to its endpoint is', async () => {
  const pcm = concatPcm([sentence.pcm, background]);
  const final = await compatRound(wavBuffer(pcm, 16000), sentence.text, 44 + sentence.pcm.length * 2);
  assert.equal(final.eof, 1, JSON.stringify(final));
  const scoredMs = final.timing.earlyScoredAudioMs;
  assert.equal(typeof scoredMs, 'number', 'the early scoring was used');
  assert.ok(scoredMs <= (pcm.length / 16000) * 1000 && scoredMs > 1000, `scored ${scoredMs} ms`);
  // The same scorer on exactly that audio, over HTTP, gives the same result.
  const whole = await compatHttp(pcm.subarray(0, scoredMs * 16), sentence.text);
  assert.deepEqual(final.result, whole.result);
  assert.equal(final.timing.audioBytes, 44 + pcm.length * 2, 'the record keeps the whole upload');
});

test('speech after the endpoint drops the early scoring: the whole upload is scored', async () => {
  const pcm = concatPcm([sentence.pcm, background, sentence.pcm.subarray(0, 24000)]);
  const final = await compatRound(wavBuffer(pcm, 16000), sentence.text, 44 + sentence.pcm.length * 2);
  assert.equal(final.eof, 1, JSON.stringify(final));
  assert.equal(final.timing.earlyScoredAudioMs, undefined);
  assert.equal(final.result.numeric_duration, Math.round((pcm.length / 16000) * 100) / 100);
});

test('KOUYU_EARLY_SCORING=off: the same reading and silence are scored whole, after end', async (t) => {
  assert.equal(loadConfig({}, '/').earlyScoring, true, 'on by default');
  assert.throws(() => loadConfig({ KOUYU_EARLY_SCORING: 'no' }, '/'), /KOUYU_EARLY_SCORING must be on or off/);
  const { app: strict } = await buildTestApp({ KOUYU_EARLY_SCORING: 'off' });
  t.after(() => strict.close());
  const at = { base: await listenOnLoopback(strict), token: (await createAccount(strict, { tier: 'enterprise' })).token };
  const pcm = concatPcm([sentence.pcm, background]);
  const final = await compatRound(wavBuffer(pcm, 16000), sentence.text, 44 + sentence.pcm.length * 2, at);
  assert.equal(final.eof, 1, JSON.stringify(final));
  assert.equal(final.timing.earlyScoredAudioMs, undefined, 'no early scoring');
  assert.equal(final.result.numeric_duration, Math.round((pcm.length / 16000) * 100) / 100, 'the whole upload was scored');
});

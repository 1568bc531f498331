/**
 * The four evaluation interfaces end to end, against a real listening server and the real
 * engines, with real recordings: native HTTP, compat HTTP, native WebSocket, compat WebSocket;
 * Mandarin and English; records, metering and idempotent replays.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import { decodeAudio } from '../../src/audio/decode.js';
import { wavBuffer } from '../../src/audio/encode.js';
import { beijingDay } from '../../src/storage/day.js';
import { buildTestApp, listenOnLoopback } from '../helpers/app.js';
import { createAccount, evaluationForm, multipart, signForm, type Part, type TestAccount } from '../helpers/gateway.js';
import { aishellFile, aishellTranscripts, librivox } from '../acoustic/speech.js';

let app: FastifyInstance;
let base: string;
let account: TestAccount;
let zh: { wav: Buffer; text: string };
let en: { wav: Buffer; text: string };

before(async () => {
  ({ app } = await buildTestApp());
  base = await listenOnLoopback(app);
  account = await createAccount(app, { tier: 'enterprise' });
  const sentence = aishellTranscripts().find((s) => [...s.text].length >= 10)!;
  zh = { wav: wavBuffer((await decodeAudio(fs.readFileSync(aishellFile(sentence.id)))).pcm, 16000), text: sentence.text };
  const lv = librivox(0);
  en = { wav: wavBuffer((await decodeAudio(fs.readFileSync(lv.file))).pcm, 16000), text: lv.words.join(' ') };
});
after(() => app.close());

async function evaluate(config: Record<string, unknown>, audio: Buffer, headers: Record<string, string> = {}) {
  const form = evaluationForm(config, audio);
  const res = await fetch(`http://${base}/api/v1/evaluate`, {
    method: 'POST',
    body: new Uint8Array(form.payload),
    headers: { ...form.headers, 'x-app-key': account.appKey, ...headers },
  });
  return { res, body: await res.json() };
}

async function usage(meter: string): Promise<number> {
  const day = beijingDay();
  const rows = await app.storage.usage.query(account.tenantId, { from: day, to: day, meter: meter as 'evaluation.calls' });
  return rows.reduce((s, r) => s + r.quantity, 0);
}

test('native HTTP, Mandarin: a correct reading scores high, with words, asrText, a stored record', async () => {
  const { res, body } = await evaluate({ coreType: 'sentence', language: 'zh-CN', referenceText: zh.text }, zh.wav);
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.match(body.recordId, /^eval_/);
  assert.equal(body.eof, 1);
  assert.ok(!('code' in body) && !('data' in body), 'bare result, no envelope');
  assert.ok(body.result.overall >= 70, `overall ${body.result.overall}`);
  assert.equal(body.result.words.length, [...zh.text].length);
  assert.ok(Array.isArray(body.warnings));
  assert.equal(typeof body.asrText.text, 'string');
  assert.equal(body.report.rubricVersion, 'v20260705a');
  assert.equal(typeof body.report.summary, 'string');
  assert.doesNotMatch(body.report.summary, /[0-9０-９]/);
  assert.deepEqual(Object.keys(body.report.dimensions).sort(), ['accuracy', 'emotion', 'fluency', 'integrity', 'reading_skill']);
  assert.ok(body.report.dimensionTree.weights);
  assert.match(res.headers.get('server-timing') ?? '', /^total;dur=\d+, engine;dur=\d+, platform;dur=\d+$/);
  const lookup = await app.inject({ method: 'GET', url: `/api/v1/report/${body.recordId}`, headers: { 'x-app-key': account.appKey } });
  assert.deepEqual(lookup.json().data.score, body.result);
  assert.deepEqual(lookup.json().data.report, body.report);
});

test('native HTTP, English, scale 10 and precision 0.1; standard audio on request', async () => {
  const { res, body } = await evaluate({ coreType: 'sentence', language: 'en-US', referenceText: en.text, scale: 10, precision: 0.1, includeStandardAudio: true }, en.wav);
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.ok(body.result.overall <= 10 && body.result.overall >= 6, `overall ${body.result.overall}`);
  assert.equal(Math.round(body.result.overall * 10) / 10, body.result.overall);
  assert.match(body.standardAudio.url, /^\/tts\/audio\/.+\.mp3$/);
  const audio = await fetch(`http://${base}${body.standardAudio.url}`);
  assert.equal(audio.status, 200);
  const decoded = await decodeAudio(Buffer.from(await audio.arrayBuffer()));
  assert.ok(Math.abs(decoded.durationSec - Number(body.standardAudio.duration)) < 0.15);
});

test('compat HTTP: signed form, timing, attachAudioUrl download, readtype diagnosis; native kind names 404', async () => {
  const parts: Part[] = [
    { name: 'audio', value: zh.wav, filename: 'a.wav' },
    { name: 'refText', value: zh.text },
    { name: 'timing', value: '1' },
    { name: 'attachAudioUrl', value: '1' },
    { name: 'readtype_diagnosis', value: '1' },
  ];
  const form = multipart(parts);
  const res = await fetch(`http://${base}/sent.eval.cn`, { method: 'POST', body: new Uint8Array(form.payload), headers: { ...form.headers, ...signForm(account, parts) } });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.deepEqual(Object.keys(body).sort(), ['audioUrl', 'eof', 'recordId', 'result', 'timing']);
  for (const key of ['receivedAt', 'totalMs', 'engineMs', 'platformMs', 'engineStages', 'audioBytes']) assert.ok(key in body.timing, key);
  assert.equal(body.timing.audioBytes, zh.wav.length);
  assert.ok(res.headers.get('server-timing'));
  assert.match(body.audioUrl, new RegExp(`^http://${base.replace(/\./g, '\\.')}/compat/audio/`), 'an absolute address, from the request Host');
  const download = await fetch(body.audioUrl);
  assert.equal(download.status, 200);
  assert.equal(Buffer.from(await download.arrayBuffer()).compare(zh.wav), 0);
});

function wsClient(url: string) {
  const ws = new WebSocket(url);
  const frames: any[] = [];
  const waiters: Array<(v: any) => void> = [];
  ws.on('message', (data) => {
    const frame = JSON.parse(String(data));
    if (waiters.length) waiters.shift()!(frame);
    else frames.push(frame);
  });
  return {
    ws,
    next: (): Promise<any> => (frames.length ? Promise.resolve(frames.shift()) : new Promise((r) => waiters.push(r))),
    until: async (pred: (f: any) => boolean, seen: any[] = []): Promise<any> => {
      for (;;) {
        const f = frames.length ? frames.shift() : await new Promise((r) => waiters.push(r));
        if (pred(f)) return f;
        seen.push(f);
      }
    },
    send: (frame: unknown) => ws.send(JSON.stringify(frame)),
    open: () => new Promise((r) => ws.once('open', r)),
  };
}

function chunks(buf: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < buf.length; i += size) out.push(buf.subarray(i, i + size));
  return out;
}

test('native WebSocket: one result per start, a second end repeats it, a new start is a new round', async () => {
  const calls = await usage('evaluation.calls');
  const c = wsClient(`ws://${base}/api/v1/ws/evaluate?token=${account.token}`);
  assert.equal((await c.next()).event, 'connected');
  c.send({ cmd: 'start', coreType: 'sentence', language: 'zh-CN', referenceText: zh.text, includeReport: false });
  assert.equal((await c.next()).event, 'started');
  for (const chunk of chunks(zh.wav, 3200)) c.ws.send(chunk);
  c.send({ cmd: 'end' });
  const result = await c.next();
  assert.equal(result.event, 'result');
  assert.equal(result.eof, 1);
  assert.ok(result.result.overall >= 70);
  c.send({ cmd: 'end' });
  const again = await c.next();
  assert.equal(again.recordId, result.recordId);
  c.send({ cmd: 'start', coreType: 'word', language: 'en-US', referenceText: 'sense' });
  assert.equal((await c.next()).event, 'started');
  c.send({ cmd: 'audio', data: en.wav.toString('base64') });
  c.send({ cmd: 'end' });
  const second = await c.next();
  assert.notEqual(second.recordId, result.recordId);
  c.ws.close();
  assert.equal(await usage('evaluation.calls'), calls + 2);
});

test('compat WebSocket with realtime feedback: progress frames while audio arrives, then the final result; a reconnect with the same key replays', async () => {
  const calls = await usage('evaluation.calls');
  const run = async () => {
    const c = wsClient(`ws://${base}/sent.eval?token=${account.token}`);
    assert.deepEqual(await c.next(), { event: 'connected', coreType: 'sent.eval' });
    c.send({ refText: en.text, language: 'en-US', realtime_feedback: true, idempotencyKey: 'ws-replay-1', timing: 1 });
    assert.deepEqual(await c.next(), { event: 'started' });
    for (const chunk of chunks(en.wav, 640 * 10)) {
      c.ws.send(chunk);
      await new Promise((r) => setTimeout(r, 5));
    }
    c.send({ cmd: 'ping' });
    c.send({ cmd: 'end' });
    const seen: any[] = [];
    const final = await c.until((f) => f.eof === 1, seen);
    c.ws.close();
    return { final, seen };
  };
  const first = await run();
  const progress = first.seen.filter((f) => f.eof === 0 && typeof f.result?.bytes === 'number');
  assert.ok(progress.length >= 2, `progress frames: ${progress.length}`);
  assert.ok(progress.every((f, i) => i === 0 || f.result.bytes >= progress[i - 1].result.bytes));
  assert.ok(first.seen.some((f) => f.event === 'pong'));
  assert.deepEqual(Object.keys(first.final).sort(), ['eof', 'recordId', 'result', 'timing']);
  assert.equal(typeof first.final.timing.wsFirstAudioAt, 'number');
  const second = await run();
  assert.equal(second.final.recordId, first.final.recordId);
  assert.equal(await usage('evaluation.calls'), calls + 1);
});

test('connected speech (en-US) returns the connected-speech result', async () => {
  const { res, body } = await evaluate({ coreType: 'connected', language: 'en-US', referenceText: en.text }, en.wav);
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.match(body.recordId, /^conn_/);
  assert.equal(typeof body.result.connected_overall, 'number');
  assert.ok(Array.isArray(body.result.boundaries));
});

test('a WebSocket dropped right after end and reconnected with the same key: evaluated and charged once', async () => {
  const calls = await usage('evaluation.calls');
  const round = async (drop: boolean) => {
    const c = wsClient(`ws://${base}/api/v1/ws/evaluate?token=${account.token}`);
    await c.next();
    c.send({ cmd: 'start', coreType: 'sentence', language: 'zh-CN', referenceText: zh.text, idempotencyKey: 'drop-1' });
    await c.next();
    c.ws.send(zh.wav);
    c.send({ cmd: 'end' });
    if (drop) {
      c.ws.terminate();
      return null;
    }
    const result = await c.next();
    c.ws.close();
    return result;
  };
  await round(true);
  const second = await round(false);
  const third = await round(false);
  assert.equal(second.event, 'result');
  assert.equal(third.recordId, second.recordId);
  assert.equal(await usage('evaluation.calls'), calls + 1);
});

test('tier concurrency over the real endpoint: the third concurrent trial evaluation is refused at once with 42901', async () => {
  const trial = await createAccount(app, { tier: 'trial' });
  const form = evaluationForm({ coreType: 'sentence', language: 'zh-CN', referenceText: zh.text }, zh.wav);
  const finished: number[] = [];
  const results = await Promise.all(
    Array.from({ length: 3 }, () =>
      fetch(`http://${base}/api/v1/evaluate`, { method: 'POST', body: new Uint8Array(form.payload), headers: { ...form.headers, 'x-app-key': trial.appKey } }).then(async (r) => {
        finished.push(r.status);
        return { status: r.status, body: await r.json() };
      }),
    ),
  );
  const refused = results.filter((r) => r.status === 429);
  assert.equal(refused.length, 1);
  assert.equal(refused[0].body.code, 42901);
  assert.equal(finished[0], 429, 'the refusal comes back before the admitted evaluations');
});

test('compat WebSocket interim results arrive while a recording streams at real-time pace', async () => {
  const c = wsClient(`ws://${base}/sent.eval.cn?token=${account.token}`);
  await c.next();
  c.send({ refText: zh.text, language: 'zh-CN', realtime_feedback: true });
  assert.deepEqual(await c.next(), { event: 'started' });
  const interims: { at: number; frame: any }[] = [];
  const others: any[] = [];
  let streaming = true;
  const collecting = (async () => {
    for (;;) {
      const f = await c.next();
      if (f.eof === 1) return f;
      if (f.tokenId !== undefined) interims.push({ at: Date.now(), frame: f });
      else others.push(f);
    }
  })();
  const started = Date.now();
  // 640 bytes per 20 ms of 16 kHz 16-bit audio, sent at real-time pace (header with the first chunk).
  const header = zh.wav.subarray(0, 44);
  const body = zh.wav.subarray(44);
  c.ws.send(Buffer.concat([header, body.subarray(0, 640)]));
  for (let i = 640; i < body.length; i += 640) {
    await new Promise((r) => setTimeout(r, Math.max(0, started + (i / 640) * 20 - Date.now())));
    c.ws.send(body.subarray(i, i + 640));
  }
  const sentAll = Date.now();
  streaming = false;
  c.send({ cmd: 'end' });
  const final = await collecting;
  c.ws.close();
  assert.equal(streaming, false);

  assert.ok(interims.length >= 2, `interim frames: ${interims.length}`);
  assert.ok(interims.some((i) => i.at < sentAll), 'interim results arrive before the recording ends');
  const delivered = interims.flatMap((i) => i.frame.result.words.map((w: { word: string }) => w.word));
  const chars = [...zh.text].filter((ch) => /\p{Script=Han}/u.test(ch));
  assert.deepEqual(delivered, chars.slice(0, delivered.length), 'each word once, in reference order');
  assert.ok(delivered.length >= chars.length - 1, `read ${delivered.length} of ${chars.length}`);
  for (const { frame } of interims) {
    assert.equal(frame.recordId, '');
    assert.equal(frame.eof, 0);
    assert.equal(frame.result.totalUnits, chars.length);
    for (const w of frame.result.words) assert.ok((w.scores.pronunciation === 100 && w.scores.skipped === 0) || (w.scores.pronunciation === 0 && w.scores.skipped === 1));
  }
  const read = interims.map((i) => i.frame.result.readUnits);
  assert.deepEqual(read, [...read].sort((a, b) => a - b), 'progress only moves forward');
  assert.ok(others.some((f) => typeof f.result?.bytes === 'number'));
  assert.match(final.recordId, /^eval_/);
});

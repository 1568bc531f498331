/**
 * An English compat evaluation (`POST /sent.eval`) over HTTP against a listening server, with
 * a real recording: the Compat-layer result shape, `timing=1`, the `Server-Timing` header and
 * the `attachAudioUrl=1` recording address, fetched without credentials.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { compatForm, listeningAppWithAccount, signForm, type TestAccount } from '../helpers/gateway.js';
import { charged, ledger } from '../helpers/ledger.js';
import { englishRecording, type Recording } from '../helpers/recordings.js';

let app: FastifyInstance;
let base: string;
let account: TestAccount;
let en: Recording;

before(async () => {
  ({ app, base, account } = await listeningAppWithAccount('http', { quota: 5 }));
  en = await englishRecording(1);
});
after(() => app.close());

const SERVER_TIMING = /^total;dur=(\d+), engine;dur=(\d+), platform;dur=(\d+)$/;

async function compat(kind: string, fields: Record<string, string>, audio: Buffer) {
  const form = compatForm(fields, audio, 'reading.wav');
  const res = await fetch(`${base}/${kind}`, { method: 'POST', body: new Uint8Array(form.payload), headers: { ...form.headers, ...signForm(account, form.parts) } });
  return { res, body: await res.json() };
}

test('sent.eval in English with timing=1 and attachAudioUrl=1: compat shape, timing, Server-Timing, downloadable recording', async () => {
  const start = await ledger(app, account);
  const sentAt = Date.now();
  const { res, body } = await compat('sent.eval', { refText: en.text, language: 'en-US', timing: '1', attachAudioUrl: '1' }, en.wav);
  const answeredAt = Date.now();
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);

  // Bare body {recordId, eof:1, result, audioUrl, timing}: no envelope, no native extras.
  assert.deepEqual(Object.keys(body).sort(), ['audioUrl', 'eof', 'recordId', 'result', 'timing']);
  assert.match(body.recordId, /^eval_/);
  assert.equal(body.eof, 1);

  // result: the read-aloud field names.
  const r = body.result;
  for (const key of ['overall', 'integrity', 'pronunciation', 'fluency', 'rhythm', 'accuracy', 'reading_skill', 'emotion', 'speed']) {
    assert.equal(typeof r[key], 'number', key);
    assert.ok(r[key] >= 0 && (key === 'speed' || r[key] <= 100), `${key} ${r[key]}`);
  }
  assert.ok(r.overall >= 60, `a correct reading scores well: overall ${r.overall}`);
  assert.equal(typeof r.duration, 'string');
  assert.ok(Math.abs(Number(r.duration) - en.seconds) < 0.05, `duration ${r.duration} vs ${en.seconds}`);
  assert.equal(r.numeric_duration, Number(r.duration));
  assert.ok(Array.isArray(r.warning));
  assert.equal(typeof r.kernel_version, 'string');
  assert.equal(typeof r.resource_version, 'string');
  assert.equal(r.compositeReport.completenessScore, r.compositeReport.integrityScore);
  assert.equal(r.compositeReport.pronunciationScore, r.compositeReport.accuracyScore);
  // words: only the reference words, in order, each aligned inside the reference (readType 0).
  assert.deepEqual(r.words.map((w: { word: string }) => w.word.toLowerCase()), en.text.split(' '));
  for (const w of r.words) {
    assert.equal(w.readType, 0, w.word);
    assert.ok(['correct', 'mispronounced', 'skipped'].includes(w.readStatus), `${w.word} ${w.readStatus}`);
    assert.equal(typeof w.scores.stress, 'number', `English words carry a stress score: ${w.word}`);
    assert.ok(Array.isArray(w.stress) && Array.isArray(w.phonics) && typeof w.linkable === 'boolean', w.word);
    assert.ok(Number.isInteger(w.span.start) && w.span.end > w.span.start, w.word);
    assert.ok(w.phonemes.length > 0, w.word);
  }
  assert.equal(r.sentences.length, 1);
  assert.equal(r.sentences[0].sentence, en.text);

  // timing (timing=1): ints and int64 ms, and the same numbers as the Server-Timing header.
  const t = body.timing;
  for (const key of ['receivedAt', 'totalMs', 'engineMs', 'platformMs', 'audioBytes']) assert.ok(Number.isInteger(t[key]), `${key} ${t[key]}`);
  assert.ok(t.receivedAt >= sentAt && t.receivedAt <= answeredAt, 'receivedAt is the arrival time in ms');
  assert.equal(t.audioBytes, en.wav.length);
  assert.equal(t.wsFirstAudioAt, undefined, 'wsFirstAudioAt is for real time only');
  assert.ok(Object.values(t.engineStages).every((v) => typeof v === 'number'));
  assert.ok(t.engineMs > 0 && t.totalMs >= t.engineMs && t.totalMs <= answeredAt - sentAt, JSON.stringify(t));
  const header = SERVER_TIMING.exec(res.headers.get('server-timing') ?? '');
  assert.ok(header, `Server-Timing: ${res.headers.get('server-timing')}`);
  const [total, engine, platform] = header.slice(1).map(Number);
  assert.equal(total, engine + platform);
  assert.deepEqual({ total, engine, platform }, { total: t.totalMs, engine: t.engineMs, platform: t.platformMs });

  // audioUrl: the absolute address of the upload on the request's origin (README: legacy
  // clients expect a full URL), fetched without any credentials.
  assert.equal(body.audioUrl, `${base}/compat/audio/${body.recordId}.wav`);
  const download = await fetch(body.audioUrl);
  assert.equal(download.status, 200);
  assert.equal(download.headers.get('content-type'), 'audio/wav');
  assert.equal(Buffer.from(await download.arrayBuffer()).compare(en.wav), 0, 'the recording exactly as uploaded');

  // One record (found by report lookup) and one charge.
  const lookup = await fetch(`${base}/api/v1/report/${body.recordId}`, { headers: { 'x-app-key': account.appKey } });
  const stored = await lookup.json();
  assert.equal(stored.code, 0);
  assert.deepEqual(stored.data.score, r);
  assert.deepEqual(await ledger(app, account), charged(start, 1));
});

test('sent.eval without timing or attachAudioUrl: the bare three keys, still a Server-Timing header', async () => {
  const { res, body } = await compat('sent.eval', { refText: en.text }, en.wav);
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.deepEqual(Object.keys(body).sort(), ['eof', 'recordId', 'result']);
  assert.match(res.headers.get('server-timing') ?? '', SERVER_TIMING);
  assert.deepEqual(body.result.words.map((w: { word: string }) => w.word.toLowerCase()), en.text.split(' '));
});

/**
 * The two HTTP evaluation routes against a real listening server, the real engines and real
 * recordings: native `pinyin`, compat kinds tied to their language, the `.pro` readtype
 * default, compat reports outside the trial AI-report cap (and failed calls spending none of
 * it), `timing` from the request's arrival, absolute `audioUrl`, and an `audio` part sent
 * without a filename.
 *
 * The app is configured with a model address where nothing listens: the report writer then
 * takes the model path (so the trial cap applies) and falls back to its template.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { formPayload } from '../../src/auth/signature.js';
import { analyzeMandarinText } from '../../src/zh/text/index.js';
import { buildTestApp, listenOnLoopback } from '../helpers/app.js';
import { compatForm, createAccount, evaluationForm, multipart, signatureHeaders, signForm, type Part, type TestAccount } from '../helpers/gateway.js';
import { meterTotal } from '../helpers/ledger.js';
import { englishRecording, mandarinRecording, type Recording } from '../helpers/recordings.js';

let app: FastifyInstance;
let base: string;
let account: TestAccount;
let zh: Recording;
let en: Recording;

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

before(async () => {
  ({ app } = await buildTestApp({ KOUYU_LLM_BASE_URL: `http://127.0.0.1:${await closedPort()}/v1`, KOUYU_TRIAL_DAILY_AI_REPORTS: '1' }));
  base = await listenOnLoopback(app);
  account = await createAccount(app, { tier: 'enterprise' });
  zh = await mandarinRecording(8);
  en = await englishRecording(0);
});
after(() => app.close());

async function native(config: Record<string, unknown>, audio: Buffer, who: TestAccount = account) {
  const form = evaluationForm(config, audio);
  const res = await fetch(`http://${base}/api/v1/evaluate`, { method: 'POST', body: new Uint8Array(form.payload), headers: { ...form.headers, 'x-app-key': who.appKey } });
  return { res, body: await res.json() };
}

async function compat(kind: string, audio: Buffer, fields: Record<string, string>, who: TestAccount = account) {
  const form = compatForm(fields, audio);
  const res = await fetch(`http://${base}/${kind}`, { method: 'POST', body: new Uint8Array(form.payload), headers: { ...form.headers, ...signForm(who, form.parts) } });
  return { res, body: await res.json() };
}

test('native HTTP pinyin kind with a Mandarin recording is scored (pinyin is a native kind too)', async () => {
  const refPinyin = analyzeMandarinText(zh.text).chars.map((c) => c.rawpinyin).join(' ');
  const { res, body } = await native({ coreType: 'pinyin', language: 'zh-CN', referenceText: zh.text, refPinyin, includeReport: false }, zh.wav);
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.match(body.recordId, /^eval_/);
  assert.equal(body.result.words.length, [...zh.text].length);
  assert.ok(body.result.overall >= 60, `overall ${body.result.overall}`);
  const compatOnly = await native({ coreType: 'sent.eval.cn', language: 'zh-CN', referenceText: zh.text }, zh.wav);
  assert.equal(compatOnly.res.status, 404);
  assert.equal(compatOnly.body.message, 'Unknown coreType');
});

test('compat kinds are tied to their language: a mismatch is 400 40001 naming kind and language, nothing metered', async () => {
  const before = await meterTotal(app, account, 'evaluation.calls');
  const cn = await compat('sent.eval.cn', zh.wav, { refText: zh.text, language: 'en-US' });
  assert.equal(cn.res.status, 400);
  assert.equal(cn.body.code, 40001);
  assert.match(cn.body.message, /sent\.eval\.cn.*en-US/);
  const english = await compat('sent.eval', en.wav, { refText: en.text, language: 'zh-CN' });
  assert.equal(english.res.status, 400);
  assert.match(english.body.message, /sent\.eval\b.*zh-CN/);
  assert.equal(await meterTotal(app, account, 'evaluation.calls'), before);
  // An engine-level text check names the compat part as well.
  const symbols = await compat('sent.eval', en.wav, { refText: '... !!! ???' });
  assert.equal(symbols.res.status, 400);
  assert.match(symbols.body.message, /^refText /);
});

test('.pro kinds list insertions by default; an explicit readtype_diagnosis=0 wins', async () => {
  // The reference leaves out words the reader says, so the reading has insertions.
  const words = en.text.split(' ');
  const ref = [...words.slice(0, 3), ...words.slice(8)].join(' ');
  const pro = await compat('sent.eval.pro', en.wav, { refText: ref });
  assert.equal(pro.res.status, 200, JSON.stringify(pro.body));
  const inserted = pro.body.result.words.filter((w: { readType: number }) => w.readType === 1 || w.readType === 3);
  assert.ok(inserted.length >= 1, 'insertions listed by default');
  const off = await compat('sent.eval.pro', en.wav, { refText: ref, readtype_diagnosis: '0' });
  assert.equal(off.res.status, 200, JSON.stringify(off.body));
  assert.equal(off.body.result.words.filter((w: { readType: number }) => w.readType === 1 || w.readType === 3).length, 0);
});

test('trial cap: compat calls keep a template report without spending it; failed calls spend nothing; the next AI report is refused, before decoding', async () => {
  const trial = await createAccount(app, { tier: 'trial' });
  for (let i = 0; i < 2; i++) {
    const { res, body } = await compat('sent.eval.cn', zh.wav, { refText: zh.text }, trial);
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.ok(!('report' in body), 'the compat result carries no report');
    const lookup = await app.inject({ method: 'GET', url: `/api/v1/report/${body.recordId}`, headers: { 'x-app-key': trial.appKey } });
    assert.equal(lookup.json().data.report.source, 'template', 'the record keeps the deterministic template report');
  }
  const failed = await native({ coreType: 'sentence', language: 'zh-CN', referenceText: zh.text }, Buffer.from('this is not audio at all'), trial);
  assert.equal(failed.res.status, 400, JSON.stringify(failed.body));
  const first = await native({ coreType: 'sentence', language: 'zh-CN', referenceText: zh.text }, zh.wav, trial);
  assert.equal(first.res.status, 200, JSON.stringify(first.body));
  assert.equal(first.body.report.source, 'template-fallback', 'the model path was taken (nothing listens there)');
  const refused = await native({ coreType: 'sentence', language: 'zh-CN', referenceText: zh.text }, zh.wav, trial);
  assert.equal(refused.res.status, 429);
  assert.equal(refused.body.code, 42902);
  const early = await native({ coreType: 'sentence', language: 'zh-CN', referenceText: zh.text }, Buffer.from('this is not audio at all'), trial);
  assert.equal(early.body.code, 42902, 'a caller at the cap is refused before its audio is even decoded');
  assert.equal(await meterTotal(app, trial, 'evaluation.calls'), 3, 'two compat calls and one native call metered; the refused one is not');
});

/** Sends a multipart body in two pieces with a pause between them; answers status, headers, JSON. */
function slowPost(path: string, payload: Buffer, headers: Record<string, string>, pauseMs: number) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }>((resolve, reject) => {
    const [host, port] = base.split(':');
    const req = http.request({ host, port: Number(port), path, method: 'POST', headers: { ...headers, 'content-length': String(payload.length) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    req.on('error', reject);
    req.write(payload.subarray(0, 1000));
    setTimeout(() => req.end(payload.subarray(1000)), pauseMs);
  });
}

test('compat timing counts from the request\'s arrival (before the upload finished); body and Server-Timing agree; audioUrl is absolute', async () => {
  const parts: Part[] = [
    { name: 'refText', value: zh.text },
    { name: 'timing', value: '1' },
    { name: 'attachAudioUrl', value: '1' },
    { name: 'audio', value: zh.wav, filename: 'a.wav' },
  ];
  const form = multipart(parts);
  const sentAt = Date.now();
  const pauseMs = 600;
  const res = await slowPost('/sent.eval.cn', form.payload, { ...form.headers, ...signForm(account, parts) }, pauseMs);
  const answeredAt = Date.now();
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const t = res.body.timing;
  assert.ok(t.receivedAt >= sentAt - 5 && t.receivedAt < sentAt + pauseMs / 2, `receivedAt ${t.receivedAt - sentAt} ms after sending began`);
  assert.ok(t.totalMs >= pauseMs - 20 && t.totalMs <= answeredAt - sentAt + 5, `totalMs ${t.totalMs}`);
  const header = /^total;dur=(\d+), engine;dur=(\d+), platform;dur=(\d+)$/.exec(String(res.headers['server-timing']));
  assert.ok(header, String(res.headers['server-timing']));
  assert.deepEqual([Number(header[1]), Number(header[2]), Number(header[3])], [t.totalMs, t.engineMs, t.platformMs]);
  assert.match(res.body.audioUrl, new RegExp(`^http://${base.replace(/\./g, '\\.')}/compat/audio/eval_[A-Za-z0-9_-]+\\.wav$`));
  const download = await fetch(res.body.audioUrl);
  assert.equal(download.status, 200);
  assert.equal(Buffer.from(await download.arrayBuffer()).compare(zh.wav), 0);
});

test('an audio part sent without a filename is taken as the recording', async () => {
  const text: Part[] = [{ name: 'refText', value: zh.text }];
  const parts: Part[] = [...text, { name: 'audio', value: zh.wav }];
  const form = multipart(parts);
  // Signed like every compat form: the text parts, audio excluded.
  const headers = signatureHeaders(account.appKey, account.secret, formPayload(text.map((p) => ({ name: p.name, value: String(p.value) }))));
  const res = await fetch(`http://${base}/sent.eval.cn`, { method: 'POST', body: new Uint8Array(form.payload), headers: { ...form.headers, ...headers } });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.ok(body.result.overall >= 60, `overall ${body.result.overall}`);
  const nativeForm = multipart([
    { name: 'audio', value: zh.wav, contentType: 'audio/wav' },
    { name: 'config', value: JSON.stringify({ coreType: 'sentence', language: 'zh-CN', referenceText: zh.text, includeReport: false }), contentType: 'application/json' },
  ]);
  const nat = await fetch(`http://${base}/api/v1/evaluate`, { method: 'POST', body: new Uint8Array(nativeForm.payload), headers: { ...nativeForm.headers, 'x-app-key': account.appKey } });
  assert.equal(nat.status, 200, await nat.text());
});

/**
 * `npm run bench:api`: latency of the evaluation interfaces on a real listening server with
 * the real engines, for a ~5 s sentence and a ~60 s passage in each language:
 *   - HTTP (native) latency p50/p95/p99 at concurrency 1 and at the standard tier's limit (5);
 *   - WebSocket (native) time from `end` to the final result.
 * Interim-result lag of the compat channel is measured by bench/progress.ts.
 * Ends with one JSON line of the figures. Options: --rounds N (sentence rounds, default 20).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { decodeAudio } from '../src/audio/decode.js';
import { wavBuffer } from '../src/audio/encode.js';
import { concatPcm } from '../src/audio/resample.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const DATA = path.resolve(ROOT, '..', 'shared', 'data');
const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 20;

interface Sample {
  name: string;
  language: 'zh-CN' | 'en-US';
  coreType: 'sentence' | 'passage';
  text: string;
  wav: Buffer;
  seconds: number;
}

async function pcmOf(file: string): Promise<Int16Array> {
  return (await decodeAudio(fs.readFileSync(file))).pcm;
}

async function samples(): Promise<Sample[]> {
  const aishell = path.join(DATA, 'zh', 'aishell-s0150');
  const lines = fs.readFileSync(path.join(aishell, 'transcripts.tsv'), 'utf8').trim().split('\n').map((l) => l.split('\t'));
  const zhSentences: { text: string; pcm: Int16Array }[] = [];
  for (const [id, text] of lines.slice(20, 60)) zhSentences.push({ text: text.replace(/\s+/g, ''), pcm: await pcmOf(path.join(aishell, `${id}.flac`)) });
  const five = zhSentences.reduce((best, s) => (Math.abs(s.pcm.length / 16000 - 5) < Math.abs(best.pcm.length / 16000 - 5) ? s : best));
  const passage: typeof zhSentences = [];
  for (const s of zhSentences) if (passage.reduce((n, p) => n + p.pcm.length, 0) < 60 * 16000) passage.push(s);

  const lj = path.join(DATA, 'en', 'ljspeech');
  const enSentences: { text: string; pcm: Int16Array }[] = [];
  for (const line of fs.readFileSync(path.join(lj, 'metadata.csv'), 'utf8').trim().split('\n')) {
    const [id, , normalised] = line.split('|');
    const file = path.join(lj, 'wavs', `${id}.flac`);
    if (fs.existsSync(file)) enSentences.push({ text: normalised, pcm: await pcmOf(file) });
  }
  const lv = path.join(DATA, 'en', 'librivox');
  for (const f of fs.readdirSync(lv).filter((x) => x.endsWith('.flac')).sort()) {
    enSentences.push({ text: fs.readFileSync(path.join(lv, f.replace(/\.flac$/, '.txt')), 'utf8').trim(), pcm: await pcmOf(path.join(lv, f)) });
  }
  const enFive = enSentences.reduce((best, s) => (Math.abs(s.pcm.length / 16000 - 5) < Math.abs(best.pcm.length / 16000 - 5) ? s : best));
  const enPassage: typeof enSentences = [];
  for (const s of enSentences) if (enPassage.reduce((n, p) => n + p.pcm.length, 0) < 60 * 16000) enPassage.push(s);

  const make = (name: string, language: Sample['language'], coreType: Sample['coreType'], parts: { text: string; pcm: Int16Array }[], joiner: string): Sample => {
    const pcm = concatPcm(parts.map((p) => p.pcm));
    return { name, language, coreType, text: parts.map((p) => p.text).join(joiner), wav: wavBuffer(pcm, 16000), seconds: pcm.length / 16000 };
  };
  return [
    make('zh sentence', 'zh-CN', 'sentence', [five], ''),
    make('zh passage', 'zh-CN', 'passage', passage, '。'),
    make('en sentence', 'en-US', 'sentence', [enFive], ' '),
    make('en passage', 'en-US', 'passage', enPassage, ' '),
  ];
}

function multipart(config: object, wav: Buffer): { body: Buffer; type: string } {
  const b = `----bench${Math.random().toString(16).slice(2)}`;
  const body = Buffer.concat([
    Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="config"\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(config)}\r\n`),
    Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="audio"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n`),
    wav,
    Buffer.from(`\r\n--${b}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${b}` };
}

function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))]);
}

/** A POST without client-side time limits (long passages under load take minutes). */
function post(url: string, body: Buffer, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { ...headers, 'content-length': String(body.length) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function httpLatencies(base: string, appKey: string, s: Sample, n: number, concurrency: number): Promise<number[]> {
  const { body, type } = multipart({ coreType: s.coreType, language: s.language, referenceText: s.text, paragraphNeedWordScore: 1 }, s.wav);
  const times: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < n) {
      next += 1;
      const start = performance.now();
      const status = await post(`${base}/api/v1/evaluate`, body, { 'content-type': type, 'x-app-key': appKey });
      if (status !== 200) throw new Error(`HTTP ${status}`);
      times.push(performance.now() - start);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return times;
}

async function wsEndToResult(ws: string, token: string, s: Sample): Promise<number> {
  const socket = new WebSocket(`${ws}/api/v1/ws/evaluate?token=${token}`);
  const frames: any[] = [];
  let wake: (() => void) | null = null;
  socket.on('message', (d) => {
    frames.push(JSON.parse(String(d)));
    wake?.();
  });
  const next = async () => {
    while (!frames.length) await new Promise<void>((r) => (wake = r));
    return frames.shift();
  };
  await next(); // connected
  socket.send(JSON.stringify({ cmd: 'start', coreType: s.coreType, language: s.language, referenceText: s.text }));
  await next(); // started
  for (let i = 0; i < s.wav.length; i += 3200) socket.send(s.wav.subarray(i, i + 3200));
  const start = performance.now();
  socket.send(JSON.stringify({ cmd: 'end' }));
  const result = await next();
  const ms = performance.now() - start;
  socket.close();
  if (result.event !== 'result') throw new Error(JSON.stringify(result));
  return ms;
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kouyu-bench-'));
  const config = loadConfig({ KOUYU_DATA_DIR: dataDir, KOUYU_LOG_LEVEL: 'warn', KOUYU_RATE_IP_PER_MIN: '100000', KOUYU_RATE_KEY_PER_MIN: '100000', KOUYU_RATE_USER_PER_MIN: '100000' }, ROOT);
  const app = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  while (!app.readiness.ready) await new Promise((r) => setTimeout(r, 100));
  const tenant = await app.storage.admin.createTenant({ name: 'bench', tier: 'standard' });
  const key = await app.storage.admin.createKey({ tenantId: tenant.id, tier: 'standard', sandbox: false, coreTypes: null, quota: null, balance: 0 });
  await app.storage.admin.createUser({ tenantId: tenant.id, username: 'bench', password: 'bench-password' });
  const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { username: 'bench', password: 'bench-password' } });
  const token = login.json().data.accessToken as string;
  const base = `http://127.0.0.1:${port}`;

  const figures: Record<string, unknown> = {};
  console.log(`machine: ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log('| sample | audio s | HTTP c=1 p50/p95/p99 ms | HTTP c=5 p50/p95/p99 ms | WS end→result median ms |');
  console.log('|---|---|---|---|---|');
  for (const s of await samples()) {
    const long = s.coreType === 'passage';
    const n = long ? Math.max(3, Math.round(rounds / 5)) : rounds;
    await httpLatencies(base, key.appKey, s, 1, 1); // warm-up
    const c1 = await httpLatencies(base, key.appKey, s, n, 1);
    const c5 = await httpLatencies(base, key.appKey, s, long ? 5 : Math.max(10, n), 5);
    const ws: number[] = [];
    for (let i = 0; i < (long ? 2 : 5); i++) ws.push(await wsEndToResult(`ws://127.0.0.1:${port}`, token, s));
    const row = {
      seconds: Number(s.seconds.toFixed(1)),
      http_c1: { p50: pct(c1, 0.5), p95: pct(c1, 0.95), p99: pct(c1, 0.99) },
      http_c5: { p50: pct(c5, 0.5), p95: pct(c5, 0.95), p99: pct(c5, 0.99) },
      ws_end_to_result_ms: pct(ws, 0.5),
    };
    figures[s.name.replace(' ', '_')] = row;
    console.log(`| ${s.name} | ${row.seconds} | ${row.http_c1.p50}/${row.http_c1.p95}/${row.http_c1.p99} | ${row.http_c5.p50}/${row.http_c5.p95}/${row.http_c5.p99} | ${row.ws_end_to_result_ms} |`);
  }
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  console.log(JSON.stringify(figures));
}

await main();

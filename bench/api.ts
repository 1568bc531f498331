/**
 * `npm run bench:api`: latency of the evaluation interfaces on a real listening server with
 * the real engines, for a ~5 s sentence and a ~60 s passage in each language:
 *   - HTTP (native) latency p50/p95/p99 at concurrency 1 (after one warm-up request for
 *     sentences) and at the standard tier's limit (5),
 *     with the server's own split of one request (compat `timing=1`: decode, engine, report,
 *     record and metering) and the CPU time of the whole process per request at concurrency 1;
 *   - native WebSocket: audio streamed at real-time pace (100 ms chunks, as a microphone
 *     would), time from `end` to the final result; for sentences also with half a second of
 *     the recording's own background after the reading (a client that stops recording a
 *     moment after the last word, as apps do; the bench's recordings end at the last word);
 *   - compat WebSocket with `realtime_feedback`: the same stream, the lag of the interim
 *     results behind the audio (per reference word: arrival of the first interim frame that
 *     counts it as read, minus the end of the word in a forced alignment of the whole
 *     recording; as in bench/progress.ts), and time from `end` to the final result.
 * Every request has a time limit, and every row a time budget (3 min for a sentence, 7 for a
 * passage) after which no new request starts; a failed, timed-out or skipped request is
 * reported in its row rather than stopping the run. Before each row the server is left to
 * finish what timed-out requests started. Ends with one JSON line of all figures.
 * Options: --rounds N (sentence HTTP rounds at concurrency 1, default 20; passages get 3),
 *          --only zh|en (one language), --kind sentence|passage (one kind of sample).
 * KOUYU_WORKERS sets the server's acoustic workers as it does for the service (default: one per core).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { decodeAudio } from '../src/audio/decode.js';
import { wavBuffer } from '../src/audio/encode.js';
import { concatPcm } from '../src/audio/resample.js';
import { formPayload, sign } from '../src/auth/signature.js';
import { compatToConfig } from '../src/evaluation/compat.js';
import { referenceWords } from '../src/evaluation/ws/interim.js';
import type { AcousticBackend } from '../src/acoustic/types.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const DATA = path.resolve(ROOT, '..', 'shared', 'data');
const { values } = parseArgs({ options: { rounds: { type: 'string', default: '20' }, only: { type: 'string' }, kind: { type: 'string' } } });
const rounds = Math.max(1, Number(values.rounds) || 20);
/** Bounded work per passage: rounds at concurrency 1, and one request per slot at the limit. */
const PASSAGE_ROUNDS = 3;
const TIER_LIMIT = 5;
const REQUEST_TIMEOUT_MS = 240_000;
const ROW_BUDGET_S = { sentence: 180, passage: 420 };
/** Real-time chunks of the streamed rounds: 100 ms of 16 kHz 16-bit mono. */
const CHUNK_MS = 100;
const CHUNK_BYTES = (16000 * 2 * CHUNK_MS) / 1000;

interface Sample {
  name: string;
  language: 'zh-CN' | 'en-US';
  coreType: 'sentence' | 'passage';
  compatKind: string;
  text: string;
  pcm: Int16Array;
  wav: Buffer;
  /** The same reading followed by 0.5 s of its own background (its quietest 100 ms, repeated). */
  wavQuiet: Buffer;
  seconds: number;
}

interface Part { text: string; pcm: Int16Array }

async function pcmOf(file: string): Promise<Int16Array> {
  return (await decodeAudio(fs.readFileSync(file))).pcm;
}

const nearestFive = (parts: Part[]) => parts.reduce((best, s) => (Math.abs(s.pcm.length / 16000 - 5) < Math.abs(best.pcm.length / 16000 - 5) ? s : best));

function firstMinute(parts: Part[]): Part[] {
  const out: Part[] = [];
  for (const s of parts) if (out.reduce((n, p) => n + p.pcm.length, 0) < 60 * 16000) out.push(s);
  return out;
}

function make(name: string, language: Sample['language'], coreType: Sample['coreType'], parts: Part[], joiner: string): Sample {
  const pcm = concatPcm(parts.map((p) => p.pcm));
  const compatKind = `${coreType === 'sentence' ? 'sent' : 'para'}.eval${language === 'zh-CN' ? '.cn' : ''}`;
  const wavQuiet = wavBuffer(concatPcm([pcm, ...Array.from({ length: 5 }, () => quietest100Ms(pcm))]), 16000);
  return { name, language, coreType, compatKind, text: parts.map((p) => p.text).join(joiner), pcm, wav: wavBuffer(pcm, 16000), wavQuiet, seconds: pcm.length / 16000 };
}

/** The recording's quietest 100 ms (in 50 ms steps): its own background. */
function quietest100Ms(pcm: Int16Array): Int16Array {
  const energy = (at: number) => pcm.subarray(at, at + 1600).reduce((sum, x) => sum + x * x, 0);
  let best = 0;
  for (let at = 0; at + 1600 <= pcm.length; at += 800) if (energy(at) < energy(best)) best = at;
  return pcm.slice(best, best + 1600);
}

async function mandarinSamples(): Promise<Sample[]> {
  const aishell = path.join(DATA, 'zh', 'aishell-s0150');
  const lines = fs.readFileSync(path.join(aishell, 'transcripts.tsv'), 'utf8').trim().split('\n').map((l) => l.split('\t'));
  const parts: Part[] = [];
  for (const [id, text] of lines.slice(20, 60)) parts.push({ text: text.replace(/\s+/g, ''), pcm: await pcmOf(path.join(aishell, `${id}.flac`)) });
  return [make('zh sentence', 'zh-CN', 'sentence', [nearestFive(parts)], ''), make('zh passage', 'zh-CN', 'passage', firstMinute(parts), '。')];
}

async function englishSamples(): Promise<Sample[]> {
  const lj = path.join(DATA, 'en', 'ljspeech');
  const parts: Part[] = [];
  for (const line of fs.readFileSync(path.join(lj, 'metadata.csv'), 'utf8').trim().split('\n')) {
    const [id, , normalised] = line.split('|');
    const file = path.join(lj, 'wavs', `${id}.flac`);
    if (fs.existsSync(file)) parts.push({ text: normalised, pcm: await pcmOf(file) });
  }
  const lv = path.join(DATA, 'en', 'librivox');
  for (const f of fs.readdirSync(lv).filter((x) => x.endsWith('.flac')).sort()) {
    parts.push({ text: fs.readFileSync(path.join(lv, f.replace(/\.flac$/, '.txt')), 'utf8').trim(), pcm: await pcmOf(path.join(lv, f)) });
  }
  return [make('en sentence', 'en-US', 'sentence', [nearestFive(parts)], ' '), make('en passage', 'en-US', 'passage', firstMinute(parts), ' ')];
}

function multipart(parts: { name: string; value: string; type?: string }[], wav: Buffer): { body: Buffer; type: string } {
  const b = `----bench${Math.random().toString(16).slice(2)}`;
  const body = Buffer.concat([
    ...parts.map((p) => Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="${p.name}"${p.type ? `\r\nContent-Type: ${p.type}` : ''}\r\n\r\n${p.value}\r\n`)),
    Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="audio"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n`),
    wav,
    Buffer.from(`\r\n--${b}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${b}` };
}

function pct(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))]);
}

const median = (values: number[]) => pct(values, 0.5);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/** A POST with a time limit; resolves to the status and body (status 0 on timeout or error). */
function post(url: string, body: Buffer, headers: Record<string, string>): Promise<{ status: number; text: string; error?: string }> {
  return new Promise((resolve) => {
    const req = http.request(url, { method: 'POST', headers: { ...headers, 'content-length': String(body.length) }, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS / 1000} s`)));
    req.on('error', (err) => resolve({ status: 0, text: '', error: err.message }));
    req.end(body);
  });
}

interface Series { times: number[]; failures: string[]; cpuMsPerRequest: number | null }

async function httpSeries(base: string, appKey: string, s: Sample, n: number, concurrency: number, deadline: number): Promise<Series> {
  const config = { coreType: s.coreType, language: s.language, referenceText: s.text, paragraphNeedWordScore: 1 };
  const { body, type } = multipart([{ name: 'config', value: JSON.stringify(config), type: 'application/json' }], s.wav);
  const times: number[] = [];
  const failures: string[] = [];
  let next = 0;
  const cpu = process.cpuUsage();
  const worker = async () => {
    while (next < n) {
      if (performance.now() > deadline) {
        failures.push(`over the row budget: ${n - next} request(s) not sent`);
        next = n;
        return;
      }
      next += 1;
      const start = performance.now();
      const res = await post(`${base}/api/v1/evaluate`, body, { 'content-type': type, 'x-app-key': appKey });
      if (res.status === 200) times.push(performance.now() - start);
      else failures.push(res.error ?? `HTTP ${res.status} ${res.text.slice(0, 120)}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const used = process.cpuUsage(cpu);
  // Per answered request; the CPU of a timed-out one still counts (it ran), so this is an upper bound then.
  return { times, failures, cpuMsPerRequest: concurrency === 1 && times.length > 0 ? Math.round((used.user + used.system) / 1000 / times.length) : null };
}

/**
 * The server's split of compat requests with `timing=1` (medians per stage, ms); `outside` is
 * the client's wall time less the service's total (transport, multipart, gateway, commit).
 */
async function serverSplit(base: string, key: { appKey: string; secret: string }, s: Sample, n: number): Promise<Record<string, number | null> | string> {
  const fields = [
    { name: 'refText', value: s.text },
    { name: 'language', value: s.language },
    { name: 'paragraph_need_word_score', value: '1' },
    { name: 'timing', value: '1' },
  ];
  const stages: Record<string, number[]> = {};
  for (let i = 0; i < n; i++) {
    const { body, type } = multipart(fields, s.wav);
    const signature = { 'x-app-key': key.appKey, 'x-timestamp': String(Math.floor(Date.now() / 1000)), 'x-nonce': Math.random().toString(16).slice(2), 'x-signature': sign(formPayload(fields), key.secret) };
    const start = performance.now();
    const res = await post(`${base}/${s.compatKind}`, body, { 'content-type': type, ...signature });
    const client = performance.now() - start;
    if (res.status !== 200) return res.error ?? `HTTP ${res.status} ${res.text.slice(0, 120)}`;
    const timing = JSON.parse(res.text).timing as Record<string, unknown>;
    const flat: Record<string, number> = { client, total: timing.totalMs as number, outside: client - (timing.totalMs as number), engine: timing.engineMs as number, platform: timing.platformMs as number };
    for (const [k, v] of Object.entries((timing.platformStages as Record<string, number> | undefined) ?? {})) flat[k] = v;
    for (const [k, v] of Object.entries(flat)) (stages[k] ??= []).push(Math.round(v));
  }
  return Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, median(v)]));
}

/** Opens a socket and returns a reader of its JSON frames (each with its arrival time). */
async function openSocket(url: string) {
  const socket = new WebSocket(url);
  const frames: { at: number; value: any }[] = [];
  let wake: (() => void) | null = null;
  let closed = false;
  socket.on('message', (d) => {
    frames.push({ at: performance.now(), value: JSON.parse(String(d)) });
    wake?.();
  });
  socket.on('close', () => {
    closed = true;
    wake?.();
  });
  socket.on('error', () => undefined);
  const next = async (timeoutMs = REQUEST_TIMEOUT_MS) => {
    const limit = performance.now() + timeoutMs;
    while (!frames.length) {
      if (closed) throw new Error('socket closed');
      if (performance.now() > limit) throw new Error(`no frame within ${timeoutMs / 1000} s`);
      await Promise.race([new Promise<void>((r) => (wake = r)), sleep(1000)]);
    }
    return frames.shift()!;
  };
  return { socket, next };
}

/** Sends the WAV in 100 ms chunks at real-time pace; returns the time the first chunk went. */
async function stream(socket: WebSocket, wav: Buffer): Promise<number> {
  const t0 = performance.now();
  for (let k = 0; k * CHUNK_BYTES < wav.length; k++) {
    socket.send(wav.subarray(k * CHUNK_BYTES, (k + 1) * CHUNK_BYTES));
    await sleep(t0 + (k + 1) * CHUNK_MS - performance.now());
  }
  return t0;
}

async function nativeWsRound(wsBase: string, token: string, s: Sample, wav = s.wav): Promise<number> {
  const { socket, next } = await openSocket(`${wsBase}/api/v1/ws/evaluate?token=${token}`);
  try {
    await next(); // connected
    socket.send(JSON.stringify({ cmd: 'start', coreType: s.coreType, language: s.language, referenceText: s.text }));
    await next(); // started
    await stream(socket, wav);
    const start = performance.now();
    socket.send(JSON.stringify({ cmd: 'end' }));
    const result = await next();
    if (result.value.event !== 'result') throw new Error(JSON.stringify(result.value).slice(0, 200));
    return result.at - start;
  } finally {
    socket.close();
  }
}

/**
 * One compat real-time round with interim results: per reference word (with a dictionary
 * unit), the lag of its first report behind its aligned end, and end → final result.
 */
async function compatWsRound(wsBase: string, token: string, s: Sample, wordEnds: (number | null)[]): Promise<{ lags: number[]; endToResult: number; reportedAll: boolean }> {
  const { socket, next } = await openSocket(`${wsBase}/${s.compatKind}?token=${token}`);
  try {
    await next(); // connected
    socket.send(JSON.stringify({ refText: s.text, language: s.language, realtime_feedback: 1, paragraph_need_word_score: 1 }));
    await next(); // started
    const reported = new Array<number>(wordEnds.length).fill(-1);
    let finalAt = -1;
    let failure: string | null = null;
    let t0 = 0;
    const reading = (async () => {
      for (;;) {
        const f = await next();
        if (f.value.eof === 1) return void (finalAt = f.at);
        if (f.value.event === 'error') return void (failure = JSON.stringify(f.value));
        const read = f.value.result?.readUnits;
        if (typeof read === 'number') for (let i = 0; i < read; i++) if (reported[i] < 0) reported[i] = f.at;
      }
    })();
    t0 = await stream(socket, s.wav);
    const end = performance.now();
    socket.send(JSON.stringify({ cmd: 'end' }));
    await reading;
    if (failure) throw new Error(failure);
    const lags: number[] = [];
    wordEnds.forEach((endMs, i) => {
      if (endMs !== null && reported[i] >= 0) lags.push(reported[i] - t0 - endMs);
    });
    return { lags, endToResult: finalAt - end, reportedAll: reported.every((t) => t >= 0) };
  } finally {
    socket.close();
  }
}

/** End time (ms into the audio) of every reference word of the compat tracker, from a forced alignment. */
async function alignedWordEnds(backend: AcousticBackend, s: Sample): Promise<(number | null)[]> {
  const { config } = compatToConfig(s.compatKind, { refText: s.text, language: s.language });
  const ref = await referenceWords(config, backend);
  const aligned = await backend.align(ref.lang, s.pcm, { slots: ref.units.map((u) => ({ alternatives: [u] })) });
  if (!aligned.ok) throw new Error(`forced alignment of ${s.name} failed: ${aligned.reason}`);
  const ends = aligned.units.filter((u) => u.slot >= 0).map((u) => u.endFrame * 10);
  return ref.words.map((w) => (w.unit === null ? null : ends[w.unit]));
}

/**
 * Waits until the server process is idle (under 0.3 cores over 2 s, at most 4 min): a request
 * that timed out on the client is still being evaluated, and would load the next row.
 */
async function settle(): Promise<number> {
  const start = performance.now();
  while (performance.now() - start < 240_000) {
    const before = process.cpuUsage();
    await sleep(2000);
    const used = process.cpuUsage(before);
    if ((used.user + used.system) / 1000 / 2000 < 0.3) break;
  }
  return Math.round((performance.now() - start) / 1000);
}

async function guarded<T>(what: string, work: () => Promise<T>, failures: string[]): Promise<T | null> {
  try {
    return await work();
  } catch (err) {
    failures.push(`${what}: ${(err as Error).message}`);
    return null;
  }
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kouyu-bench-'));
  const config = loadConfig({ KOUYU_WORKERS: process.env.KOUYU_WORKERS, KOUYU_DATA_DIR: dataDir, KOUYU_LOG_LEVEL: 'warn', KOUYU_RATE_IP_PER_MIN: '100000', KOUYU_RATE_KEY_PER_MIN: '100000', KOUYU_RATE_USER_PER_MIN: '100000' }, ROOT);
  const app = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  while (!app.readiness.ready) await new Promise((r) => setTimeout(r, 100));
  const backend = await app.speech.acoustic();
  const tenant = await app.storage.admin.createTenant({ name: 'bench', tier: 'standard' });
  const key = await app.storage.admin.createKey({ tenantId: tenant.id, tier: 'standard', sandbox: false, coreTypes: null, quota: null, balance: 0 });
  await app.storage.admin.createUser({ tenantId: tenant.id, username: 'bench', password: 'bench-password' });
  const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { username: 'bench', password: 'bench-password' } });
  const token = login.json().data.accessToken as string;
  const base = `http://127.0.0.1:${port}`;
  const wsBase = `ws://127.0.0.1:${port}`;

  const figures: Record<string, unknown> = { cores: os.cpus().length, load: os.loadavg().map((l) => Number(l.toFixed(1))), workers: config.workers };
  console.log(`machine: ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, ${config.workers} acoustic workers`);
  console.log('| sample | audio s | HTTP c=1 p50/p95/p99 ms | CPU ms/req | HTTP c=5 p50/p95/p99 ms | WS end→result ms | WS end→result, 0.5 s quiet after, ms | compat WS end→result ms | interim lag median/p95 ms | failures |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  const samples = [...(values.only === 'en' ? [] : await mandarinSamples()), ...(values.only === 'zh' ? [] : await englishSamples())].filter(
    (s) => !values.kind || s.coreType === values.kind,
  );
  for (const s of samples) {
    const long = s.coreType === 'passage';
    const failures: string[] = [];
    const settled = await settle();
    const started = performance.now();
    const deadline = started + ROW_BUDGET_S[s.coreType] * 1000;
    const inBudget = (what: string) => performance.now() < deadline || (failures.push(`over the row budget: ${what} skipped`), false);
    // The sentence row warms its language's engine; a passage needs no warm-up of its own.
    const warm = await httpSeries(base, key.appKey, s, long ? 0 : 1, 1, deadline);
    failures.push(...warm.failures.map((f) => `warm-up: ${f}`));
    const c1 = await httpSeries(base, key.appKey, s, long ? PASSAGE_ROUNDS : rounds, 1, deadline);
    failures.push(...c1.failures.map((f) => `c=1: ${f}`));
    const split = inBudget('server split') ? await serverSplit(base, key, s, long ? 1 : 5) : 'skipped';
    const ws: number[] = [];
    for (let i = 0; i < (long ? 1 : 5) && inBudget('native WS round'); i++) {
      const ms = await guarded('native WS', () => nativeWsRound(wsBase, token, s), failures);
      if (ms !== null) ws.push(ms);
    }
    const wsQuiet: number[] = [];
    for (let i = 0; i < (long ? 0 : 5) && inBudget('native WS round with quiet'); i++) {
      const ms = await guarded('native WS, quiet after', () => nativeWsRound(wsBase, token, s, s.wavQuiet), failures);
      if (ms !== null) wsQuiet.push(ms);
    }
    const ends = await guarded('alignment', () => alignedWordEnds(backend, s), failures);
    const lags: number[] = [];
    const compatEnd: number[] = [];
    let reportedAll = true;
    for (let i = 0; ends && i < (long ? 1 : 3) && inBudget('compat WS round'); i++) {
      const r = await guarded('compat WS', () => compatWsRound(wsBase, token, s, ends), failures);
      if (!r) continue;
      lags.push(...r.lags);
      compatEnd.push(r.endToResult);
      reportedAll &&= r.reportedAll;
    }
    const c5 = await httpSeries(base, key.appKey, s, long ? TIER_LIMIT : Math.max(2 * TIER_LIMIT, rounds / 2), TIER_LIMIT, deadline);
    failures.push(...c5.failures.map((f) => `c=${TIER_LIMIT}: ${f}`));
    const row = {
      seconds: Number(s.seconds.toFixed(1)),
      http_c1: { p50: pct(c1.times, 0.5), p95: pct(c1.times, 0.95), p99: pct(c1.times, 0.99), n: c1.times.length },
      cpu_ms_per_request: c1.cpuMsPerRequest,
      http_c5: { p50: pct(c5.times, 0.5), p95: pct(c5.times, 0.95), p99: pct(c5.times, 0.99), n: c5.times.length },
      server_split_ms: split,
      ws_end_to_result_ms: median(ws),
      ws_end_to_result_quiet_ms: wsQuiet.length ? median(wsQuiet) : null,
      compat_ws_end_to_result_ms: median(compatEnd),
      interim_lag_ms: { median: median(lags), p95: pct(lags, 0.95), words: lags.length, all_reported: reportedAll },
      failures,
      settle_s: settled,
      bench_s: Math.round((performance.now() - started) / 1000),
    };
    figures[s.name.replace(' ', '_')] = row;
    const p = (x: { p50: number | null; p95: number | null; p99: number | null }) => `${x.p50}/${x.p95}/${x.p99}`;
    console.log(`| ${s.name} | ${row.seconds} | ${p(row.http_c1)} | ${row.cpu_ms_per_request} | ${p(row.http_c5)} | ${row.ws_end_to_result_ms} | ${row.ws_end_to_result_quiet_ms ?? '-'} | ${row.compat_ws_end_to_result_ms} | ${row.interim_lag_ms.median}/${row.interim_lag_ms.p95} | ${failures.length} |`);
    console.log(`  server split (median ms): ${typeof split === 'string' ? split : Object.entries(split).map(([k, v]) => `${k} ${v}`).join(', ')}`);
    for (const f of failures) console.log(`  failed: ${f}`);
  }
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  console.log(JSON.stringify(figures));
}

await main();

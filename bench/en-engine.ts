/**
 * Speed of the English engine after warm-up. Sentence: CPU time of a 7.1 s native sentence
 * (LibriVox) on one core (the in-thread backend; the service runs the same work in a pool
 * worker), the median of the runs for the whole assessment and for its stages, so it is clear
 * what dominates; and of a 5.1 s one (LJ Speech), the length the target names (under 150 ms CPU
 * for a 5 s sentence). Passage: the native sentences of the data
 * folder (LJ Speech, then LibriVox) joined into one reading of about 60 s, CPU in-thread and
 * wall time on a pool of two workers (the service's set-up on this machine), with the sentence's
 * wall time and CPU (all threads) on the pool beside it and its median run's backend calls in
 * time (which passes run side by side, which wait). Each assessment is a reading of its own, so
 * no run takes frame scores from another's passes (docs/acoustic.md, "Fast frame scoring").
 * `npm run bench:en-engine -- [runs] [--decoder-args "..."] [--loop-decoder-args "..."]`: extra
 * options of the English decoder, or of its free phone loop alone, measure a variant of the
 * acoustic front end (e.g. "-topn 2", a loop with "-ds 2").
 */
import fs from 'node:fs';
import path from 'node:path';
import { createAcousticBackend, createInThreadBackend } from '../src/acoustic/backend.js';
import { forReading, type AcousticBackend } from '../src/acoustic/types.js';
import { decodeAudio, type DecodedAudio } from '../src/audio/decode.js';
import { loadConfig } from '../src/config.js';
import { parseEvaluationConfig } from '../src/evaluation/config.js';
import { loadEnglishLexicon } from '../src/en/lexicon/index.js';
import { createEnglishEngine } from '../src/en/engine/index.js';
import { planReading } from '../src/en/engine/plan.js';
import { readEvidence } from '../src/en/engine/evidence.js';
import { alignReading } from '../src/en/engine/align.js';
import { measureSignal } from '../src/en/engine/signal.js';
import { scoreReading } from '../src/en/engine/score.js';
import { loadEnglishScoringModel } from '../src/en/scoring-model/model.js';
import { decoderArgsOption } from '../tools/train-en-so762.js';
import { nativePassage } from '../tools/en-native-set.js';

// The speechocean762 tools' parser of --decoder-args and --loop-decoder-args (their values start
// with a dash, "-topn 2", which node's parseArgs refuses to take).
const decoderArgs = decoderArgsOption();
const runs = /^\d+$/.test(process.argv[2] ?? '') ? Number(process.argv[2]) : 7;
const DATA = path.resolve(import.meta.dirname, '..', '..', 'shared', 'data', 'en');
const file = path.join(DATA, 'librivox', 'sense_and_sensibility_01_austen_64kb-0870.flac');
const text = 'And Mr. John Dashwood had then leisure to consider how much there might be prudently in his power to do for them.';

const appConfig = loadConfig();
const backend = createInThreadBackend(appConfig, { langs: ['en'], decoderArgs });
const lexicon = await loadEnglishLexicon();
const model = loadEnglishScoringModel();
const engine = createEnglishEngine({ backend, lexicon, model });
const audio = await decodeAudio(fs.readFileSync(file));
const config = parseEvaluationConfig({ coreType: 'sentence', referenceText: text });

/** The LJ Speech sentence nearest 5 s long. */
async function fiveSecondSentence(): Promise<{ id: string; text: string; audio: DecodedAudio }> {
  const lj = path.join(DATA, 'ljspeech');
  let found: { id: string; text: string; audio: DecodedAudio } | null = null;
  for (const line of fs.readFileSync(path.join(lj, 'metadata.csv'), 'utf8').trim().split('\n')) {
    const [id, , normalised] = line.split('|');
    const f = path.join(lj, 'wavs', `${id}.flac`);
    if (!fs.existsSync(f)) continue;
    const decoded = await decodeAudio(fs.readFileSync(f));
    if (!found || Math.abs(decoded.durationSec - 5) < Math.abs(found.audio.durationSec - 5)) found = { id, text: normalised, audio: decoded };
  }
  if (!found) throw new Error(`no LJ Speech recording in ${lj}`);
  return found;
}

/** CPU milliseconds (user + system) of one call. */
async function cpu(fn: () => unknown): Promise<number> {
  const t = process.cpuUsage();
  await fn();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1000;
}

/**
 * The backend with every call's time recorded, from when the engine asks to when the answer
 * arrives (a call waits while both workers are busy), relative to `start()`.
 */
function tracing(inner: AcousticBackend): { backend: AcousticBackend; start(): void; calls(): string[] } {
  let t0 = 0;
  let log: { name: string; from: number; to: number }[] = [];
  const timed = <A extends unknown[], R>(name: string, fn: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
    const from = performance.now() - t0;
    const out = await fn(...args);
    log.push({ name, from, to: performance.now() - t0 });
    return out;
  };
  const backend: AcousticBackend = {
    align: timed('align', inner.align.bind(inner)),
    alignPhones: timed('alignPhones', inner.alignPhones.bind(inner)),
    phoneLoop: timed('phoneLoop', inner.phoneLoop.bind(inner)),
    recognize: timed('recognize', inner.recognize.bind(inner)),
    openProgress: inner.openProgress.bind(inner),
    lexicon: inner.lexicon.bind(inner),
    close: inner.close.bind(inner),
  };
  return {
    backend,
    start() {
      t0 = performance.now();
      log = [];
    },
    calls: () => [...log].sort((a, b) => a.from - b.from).map((c) => `${c.name} ${Math.round(c.from)}-${Math.round(c.to)}`),
  };
}

async function wall(fn: () => unknown): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
await engine.assess(config, audio); // warm-up: lexicon caches, decoder dictionary words, JIT

const stages: Record<string, number[]> = { total: [], plan: [], align: [], signal: [], score: [] };
for (let i = 0; i < runs; i++) {
  stages.total.push(await cpu(() => engine.assess(config, audio)));
  const plan = planReading(lexicon, text, 'sentence', 'en-US');
  stages.plan.push(await cpu(() => planReading(lexicon, text, 'sentence', 'en-US')));
  let aligned: Awaited<ReturnType<typeof alignReading>> | null = null;
  stages.align.push(await cpu(async () => (aligned = await alignReading(forReading(backend), audio.pcm, plan.grammar))));
  const signal = measureSignal(audio.pcm);
  stages.signal.push(await cpu(() => measureSignal(audio.pcm)));
  const { result, loop } = aligned!;
  const ev = readEvidence(plan, result);
  stages.score.push(await cpu(() => scoreReading(ev, signal, model, loop)));
}
const out = Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, Math.round(median(v))]));
console.log(`English engine, ${audio.durationSec.toFixed(2)} s sentence, median CPU ms of ${runs} runs after warm-up:`);
for (const [k, v] of Object.entries(out)) console.log(`  ${k.padEnd(10)} ${String(v).padStart(6)} ms`);
console.log('  (align: word pass, phone pass and the free phone loop that serves GOP and heard phones)');

const five = await fiveSecondSentence();
const fiveConfig = parseEvaluationConfig({ coreType: 'sentence', referenceText: five.text });
await engine.assess(fiveConfig, five.audio);
const fiveCpu: number[] = [];
for (let i = 0; i < runs; i++) fiveCpu.push(await cpu(() => engine.assess(fiveConfig, five.audio)));
const fiveCpuMs = Math.round(median(fiveCpu));
console.log(`${five.audio.durationSec.toFixed(2)} s sentence (${five.id}): whole assessment ${fiveCpuMs} ms CPU in one thread (median of ${runs}; target under 150 for 5 s)`);

const long = await nativePassage(DATA);
const longConfig = parseEvaluationConfig({ coreType: 'passage', referenceText: long.text });
const longRuns = Math.max(1, Math.min(3, runs));
const passageCpu: number[] = [];
for (let i = 0; i < longRuns; i++) passageCpu.push(await cpu(() => engine.assess(longConfig, long.audio)));
await backend.close();

const pool = await createAcousticBackend({ ...appConfig, workers: 2 }, { langs: ['en'], progressThreads: 0, decoderArgs });
const trace = tracing(pool);
const pooled = createEnglishEngine({ backend: trace.backend, lexicon, model });
await pooled.assess(config, audio);
await pooled.assess(config, audio);
const sentenceWall: number[] = [];
const sentencePoolCpu: number[] = [];
const timelines: string[][] = [];
for (let i = 0; i < runs; i++) {
  trace.start();
  // process.cpuUsage counts every thread of the process: the workers' CPU and this thread's.
  const before = process.cpuUsage();
  sentenceWall.push(await wall(() => pooled.assess(config, audio)));
  const used = process.cpuUsage(before);
  sentencePoolCpu.push((used.user + used.system) / 1000);
  timelines.push(trace.calls());
}
const passageWall: number[] = [];
for (let i = 0; i < longRuns; i++) passageWall.push(await wall(() => pooled.assess(longConfig, long.audio)));
await pool.close();

const figures = {
  fiveSecondSentence: { id: five.id, seconds: +five.audio.durationSec.toFixed(2), cpuMs: fiveCpuMs },
  sentenceWallMs: Math.round(median(sentenceWall)),
  sentencePoolCpuMs: Math.round(median(sentencePoolCpu)),
  passageSeconds: +long.audio.durationSec.toFixed(1),
  passageWords: longConfig.referenceText.split(/\s+/).length,
  passageCpuMs: Math.round(median(passageCpu)),
  passageWallMs: Math.round(median(passageWall)),
};
console.log(`Pool of 2 workers, sentence wall: ${figures.sentenceWallMs} ms, CPU of all threads ${figures.sentencePoolCpuMs} ms (medians of ${runs})`);
const medianRun = sentenceWall.indexOf(median(sentenceWall));
console.log(`  its backend calls, ms from the assessment's start (asked-answered): ${timelines[medianRun].join(', ')}`);
console.log(`Passage ${figures.passageSeconds} s, ${figures.passageWords} words: CPU ${figures.passageCpuMs} ms in-thread, wall ${figures.passageWallMs} ms on the pool (median of ${longRuns})`);
console.log(JSON.stringify({ audioSeconds: +audio.durationSec.toFixed(2), runs, decoderArgs: decoderArgs.en ?? [], loopDecoderArgs: decoderArgs.loop?.en ?? [], medianCpuMs: out, targetMs: 150, ...figures }));

/**
 * CPU cost of scoring one Mandarin sentence of about 5 s (AISHELL S0150 sentences of 4.5–5.5 s),
 * after a warm-up, per stage (as the engine runs them: the recording's pitch analysed once for
 * the reader's voice, then tracked over the aligned reading) and
 * in total: medians over the sentences. CPU time is the process's
 * user + system time (the in-process backend decodes on the calling thread). Then a passage of
 * about 60 s (S0150 sentences joined with 。): CPU in-thread, and wall time for the sentences
 * and the passage on a pool of two acoustic workers (the service's set-up on a 2-core machine).
 * Prints a table and one JSON line.   npx tsx bench/zh-engine.ts [--sentences N] [--no-passage]
 */
import fs from 'node:fs';
import path from 'node:path';
import { createAcousticBackend, createInThreadBackend } from '../src/acoustic/backend.js';
import { decodeAudio, finish, type DecodedAudio } from '../src/audio/decode.js';
import { loadConfig } from '../src/config.js';
import { parseEvaluationConfig } from '../src/evaluation/config.js';
import { presentReadAloud } from '../src/assessment/presenter.js';
import { alignWithOmissions } from '../src/zh/engine/align.js';
import { competeAll, createMandarinEngine, insertionsOf } from '../src/zh/engine/engine.js';
import { syllableTable } from '../src/zh/engine/syllables.js';
import { analyzeZhText } from '../src/zh/engine/text.js';
import { classifyTone, loadToneModel } from '../src/zh/tone/classifier.js';
import { pitchContext, readerVoice, readingSpan, toneEvidence } from '../src/zh/tone/extract.js';
import { PitchAnalysis } from '../src/dsp/pitch.js';
import { forReading } from '../src/acoustic/types.js';
import { partsHeard, spectraOf } from '../src/zh/engine/parts.js';
import { loadPartModel } from '../src/zh/parts/classifier.js';

const REPO = path.resolve(import.meta.dirname, '..');
const DATA = path.resolve(REPO, '..', 'shared', 'data', 'zh', 'aishell-s0150');
const i = process.argv.indexOf('--sentences');
const N = i > 0 ? Number(process.argv[i + 1]) : 20;

function cpuMs<T>(f: () => Promise<T>): Promise<[T, number]> {
  const c0 = process.cpuUsage();
  return f().then((v) => {
    const c = process.cpuUsage(c0);
    return [v, (c.user + c.system) / 1000];
  });
}

async function wallMs<T>(f: () => Promise<T>): Promise<number> {
  const t0 = performance.now();
  await f();
  return performance.now() - t0;
}

/** S0150 sentences (Chinese characters only) joined with 。 until the reading lasts 60 s. */
async function passage(lines: string[][]): Promise<{ text: string; audio: DecodedAudio }> {
  const texts: string[] = [];
  const pcms: Int16Array[] = [];
  let samples = 0;
  for (const [id, text] of lines) {
    if (samples >= 60 * 16000) break;
    if (![...text].every((c) => /\p{Script=Han}/u.test(c))) continue;
    const audio = await decodeAudio(fs.readFileSync(path.join(DATA, `${id}.flac`)));
    texts.push(text);
    pcms.push(audio.pcm);
    samples += audio.pcm.length;
  }
  const pcm = new Int16Array(samples);
  pcms.reduce((at, p) => (pcm.set(p, at), at + p.length), 0);
  return { text: texts.join('。') + '。', audio: finish({ pcm, source: { format: 'flac', sampleRate: 16000, channels: 1 } }) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const backend = createInThreadBackend(loadConfig(process.env, REPO), { langs: ['zh'] });
  const engine = await createMandarinEngine({ backend, modelsDir: path.join(REPO, 'models') });
  const table = syllableTable(backend.lexicon('zh'));
  const model = loadToneModel();
  const partModels = { initial: loadPartModel('initial'), final: loadPartModel('final') };
  const lines = fs.readFileSync(path.join(DATA, 'transcripts.tsv'), 'utf8').trim().split('\n').map((l) => l.split('\t'));
  const picked: { text: string; audio: DecodedAudio }[] = [];
  for (const [id, text] of lines.slice(100)) {
    if (picked.length > N) break;
    if (![...text].every((c) => /\p{Script=Han}/u.test(c))) continue;
    const audio = await decodeAudio(fs.readFileSync(path.join(DATA, `${id}.flac`)));
    if (audio.durationSec >= 4.5 && audio.durationSec <= 5.5) picked.push({ text, audio });
  }
  const stages: Record<string, number[]> = { voice: [], align: [], compete: [], insertion: [], tone: [], parts: [], total: [] };
  for (const [n, { text, audio }] of picked.entries()) {
    const config = parseEvaluationConfig({ coreType: 'sentence', language: 'zh-CN', referenceText: text });
    const zh = analyzeZhText(text);
    const labels = zh.read.map((r) => zh.tokens[r].syllable);
    // The passes as one reading, the pitch analysed once for the reader's voice (`voice`) and
    // then tracked over the reading's span (`tone`), as the engine does; the stages decode
    // without the voice's warp, as they did before (the total is the engine's own).
    const reading = forReading(backend);
    const [pitch, tVoice] = await cpuMs(async () => {
      const analysis = new PitchAnalysis(audio.pcm, audio.sampleRate);
      readerVoice(analysis);
      return analysis;
    });
    const [al, tAlign] = await cpuMs(() => alignWithOmissions(reading, table, labels, audio.pcm));
    const [, tComp] = await cpuMs(() => competeAll(reading, table, audio.pcm, al, [...labels], 0));
    const [, tIns] = await cpuMs(() => insertionsOf(reading, table, audio.pcm, al, labels));
    const [, tTone] = await cpuMs(async () => toneEvidence(pitchContext(pitch, readingSpan(al.syllables)), al.syllables, zh.read.map((r) => zh.tokens[r].sandhiTone)).features.map((f) => (f ? classifyTone(model, f) : null)));
    // The initial and final classifiers over every aligned character, the spectra included (the engine asks for the same characters, less those the second look put back).
    const [, tParts] = await cpuMs(async () => partsHeard(spectraOf(audio.pcm), table, partModels, al.syllables, labels, () => true));
    const [, tTotal] = await cpuMs(async () => presentReadAloud(await engine.assess(config, audio), config));
    if (n === 0) continue; // warm-up
    stages.voice.push(tVoice);
    stages.align.push(tAlign);
    stages.compete.push(tComp);
    stages.insertion.push(tIns);
    stages.tone.push(tTone);
    stages.parts.push(tParts);
    stages.total.push(tTotal);
  }
  const out: Record<string, number> = { sentences: stages.total.length };
  for (const [k, v] of Object.entries(stages)) {
    out[`${k}_cpu_ms`] = Math.round(median(v));
    console.log(`${k.padEnd(10)} median ${Math.round(median(v))} ms CPU per ~5 s sentence`);
  }
  if (!process.argv.includes('--no-passage')) {
    const long = await passage(lines);
    const longConfig = parseEvaluationConfig({ coreType: 'passage', language: 'zh-CN', referenceText: long.text });
    const [, passageCpu] = await cpuMs(async () => presentReadAloud(await engine.assess(longConfig, long.audio), longConfig));
    const pool = await createAcousticBackend({ ...loadConfig(), workers: 2 }, { langs: ['zh'], progressThreads: 0 });
    const pooled = await createMandarinEngine({ backend: pool, modelsDir: path.join(REPO, 'models') });
    const sentenceWall: number[] = [];
    for (const [n, { text, audio }] of picked.entries()) {
      const config = parseEvaluationConfig({ coreType: 'sentence', language: 'zh-CN', referenceText: text });
      const t = await wallMs(() => pooled.assess(config, audio));
      if (n > 0) sentenceWall.push(t);
    }
    const passageWall = await wallMs(() => pooled.assess(longConfig, long.audio));
    await pool.close();
    Object.assign(out, {
      sentence_pool_wall_ms: Math.round(median(sentenceWall)),
      passage_seconds: Math.round(long.audio.durationSec * 10) / 10,
      passage_chars: [...long.text].length,
      passage_cpu_ms: Math.round(passageCpu),
      passage_pool_wall_ms: Math.round(passageWall),
    });
    console.log(`sentence   median ${out.sentence_pool_wall_ms} ms wall on a pool of 2 workers`);
    console.log(`passage    ${out.passage_seconds} s, ${out.passage_chars} characters: ${out.passage_cpu_ms} ms CPU in-thread, ${out.passage_pool_wall_ms} ms wall on the pool`);
  }
  await backend.close();
  console.log(JSON.stringify(out));
}

await main();

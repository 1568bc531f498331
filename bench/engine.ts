/**
 * Engine benchmark on the shared recordings, one core (everything in this thread):
 * audio decoding, forced alignment, phone loop and pitch time per second of audio, the whole
 * chain's real-time factor for ~5 s sentences and a ~60 s passage, and word-boundary agreement
 * with `pocketsphinx_batch` run on the same model, dictionary words and grammar.
 * Timings are medians of REPEATS runs, in CPU time (user + system), which is what one core
 * spends even when other programs share the machine: this process's for the in-thread steps,
 * this process's plus its finished children's (ffmpeg, from /proc/self/stat, 10 ms ticks) for
 * decoding, whose wall time is printed too. Ends with one JSON line for run-to-run comparison.
 *
 * Chain = decodeAudio (ffmpeg) + alignment with phones and GOP (word pass, phone pass, phone
 * loop) + pitch track.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeAudio } from '../src/audio/decode.js';
import { loadConfig } from '../src/config.js';
import { trackPitch } from '../src/dsp/pitch.js';
import { resolveModels } from '../src/models.js';
import { ALIGN_BEAMS, SphinxEngine } from '../src/acoustic/sphinx/engine.js';
import { compileGrammar } from '../src/acoustic/sphinx/grammar.js';
import type { AcousticLang, GrammarSpec, Lexicon } from '../src/acoustic/types.js';

const REPEATS = 3;
const REPO_ROOT = path.resolve(import.meta.dirname, '..');
const DATA = path.resolve(REPO_ROOT, '..', 'shared', 'data');
const config = loadConfig(process.env, REPO_ROOT);
const engine = SphinxEngine.create(config.modelsDir);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kouyu-bench-engine-'));

interface Item {
  lang: AcousticLang;
  name: string;
  file: string;
  tokens: string[];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** CPU milliseconds (user + system) spent by this process in `fn`. */
function timed<T>(fn: () => T): [T, number] {
  const t = process.cpuUsage();
  const out = fn();
  const d = process.cpuUsage(t);
  return [out, (d.user + d.system) / 1000];
}

/** CPU ms of this process's waited-for children (cutime + cstime, fields 16-17 of /proc/self/stat). */
function childCpuMs(): number {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state), so field n is fields[n - 3]; the kernel counts 100 ticks a second.
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/** [result, CPU ms of this process and its children, wall ms] of an async step. */
async function timedAsync<T>(fn: () => Promise<T>): Promise<[T, number, number]> {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const child = childCpuMs();
  const out = await fn();
  const d = process.cpuUsage(cpu);
  return [out, (d.user + d.system) / 1000 + childCpuMs() - child, performance.now() - wall];
}

function grammarOf(lexicon: Lexicon, tokens: string[]): GrammarSpec {
  return { slots: tokens.flatMap((t) => (lexicon.lookup(t) ? [{ alternatives: [{ label: t, prons: lexicon.lookup(t)! }] }] : [])) };
}

function aishell(): Item[] {
  const dir = path.join(DATA, 'zh', 'aishell-s0150');
  return fs.readFileSync(path.join(dir, 'transcripts.tsv'), 'utf8').trim().split('\n').map((line) => {
    const [id, text] = line.split('\t');
    return { lang: 'zh' as const, name: id, file: path.join(dir, `${id}.flac`), tokens: [...text.replace(/\s+/g, '')] };
  });
}

function librivox(): Item[] {
  const dir = path.join(DATA, 'en', 'librivox');
  return ['0870', '0880', '0890', '0920', '0930'].map((n) => {
    const base = path.join(dir, `sense_and_sensibility_01_austen_64kb-${n}`);
    return { lang: 'en' as const, name: n, file: `${base}.flac`, tokens: fs.readFileSync(`${base}.txt`, 'utf8').trim().split(/\s+/) };
  });
}

function ljspeech(): Item[] {
  const dir = path.join(DATA, 'en', 'ljspeech');
  return fs.readFileSync(path.join(dir, 'metadata.csv'), 'utf8').trim().split('\n').map((line) => {
    const [id, , text] = line.split('|');
    const tokens = text.toLowerCase().replace(/[^a-z' ]+/g, ' ').trim().split(/\s+/);
    return { lang: 'en' as const, name: id, file: path.join(dir, 'wavs', `${id}.flac`), tokens };
  });
}

/** Concatenates recordings into one 16 kHz mono FLAC with ffmpeg (the passage input). */
function concatenate(items: Item[], name: string): Item {
  const out = path.join(tmp, `${name}.flac`);
  const inputs = items.flatMap((i) => ['-i', i.file]);
  const chains = items.map((_, k) => `[${k}:a]aresample=16000,aformat=channel_layouts=mono[a${k}]`).join(';');
  const filter = `${chains};${items.map((_, k) => `[a${k}]`).join('')}concat=n=${items.length}:v=0:a=1[out]`;
  execFileSync('ffmpeg', ['-v', 'error', '-y', ...inputs, '-filter_complex', filter, '-map', '[out]', out]);
  return { lang: items[0].lang, name, file: out, tokens: items.flatMap((i) => i.tokens) };
}

interface ChainTimes {
  seconds: number;
  decode: number;
  decodeWall: number;
  align: number;
  alignGop: number;
  loop: number;
  pitch: number;
  chain: number;
}

async function measure(item: Item): Promise<ChainTimes> {
  const bytes = fs.readFileSync(item.file);
  const grammar = grammarOf(engine.lexicon(item.lang), item.tokens);
  const runs: ChainTimes[] = [];
  for (let r = 0; r < REPEATS; r++) {
    const [decoded, decode, decodeWall] = await timedAsync(() => decodeAudio(bytes));
    const pcm = decoded.pcm;
    const [aligned, align] = timed(() => engine.align(item.lang, pcm, grammar));
    const [withGop, alignGop] = timed(() => engine.align(item.lang, pcm, grammar, { gop: true }));
    if (!aligned.ok || !withGop.ok) throw new Error(`${item.name} did not align`);
    const [, loop] = timed(() => engine.phoneLoop(item.lang, pcm));
    const [, pitch] = timed(() => trackPitch(pcm, 16000));
    runs.push({ seconds: pcm.length / 16000, decode, decodeWall, align, alignGop, loop, pitch, chain: decode + alignGop + pitch });
  }
  const keys = ['decode', 'decodeWall', 'align', 'alignGop', 'loop', 'pitch', 'chain'] as const;
  const out = { seconds: runs[0].seconds } as ChainTimes;
  for (const k of keys) out[k] = median(runs.map((x) => x[k]));
  return out;
}

/** One after another: timings must not overlap. */
async function measureAll(items: Item[]): Promise<ChainTimes[]> {
  const rows: ChainTimes[] = [];
  for (const item of items) rows.push(await measure(item));
  return rows;
}

function report(label: string, rows: ChainTimes[]): { rtf: number; pitchMsPerS: number } {
  const perSec = (k: keyof ChainTimes) => median(rows.map((r) => r[k] / r.seconds));
  const secs = rows.reduce((a, r) => a + r.seconds, 0) / rows.length;
  console.log(
    `${label.padEnd(28)} ${secs.toFixed(1).padStart(5)} s  ms per s of audio: decode ${perSec('decode').toFixed(1)} (wall ${perSec('decodeWall').toFixed(1)}), ` +
      `align ${perSec('align').toFixed(1)}, align+phones+GOP ${perSec('alignGop').toFixed(1)}, ` +
      `phone loop ${perSec('loop').toFixed(1)}, pitch ${perSec('pitch').toFixed(1)}; chain RTF ${(perSec('chain') / 1000).toFixed(4)}`,
  );
  return { rtf: perSec('chain') / 1000, pitchMsPerS: perSec('pitch') };
}

/** Word boundaries from pocketsphinx_batch (-hypseg) for the same grammar and model. */
function batchBoundaries(item: Item, pcm: Int16Array, grammar: GrammarSpec, removeNoise: boolean): [number, number][] {
  const lang = item.lang;
  const model = lang === 'zh' ? resolveModels(config.modelsDir).zh : resolveModels(config.modelsDir).en;
  const compiled = compileGrammar(grammar, []);
  const dir = fs.mkdtempSync(path.join(tmp, 'batch-'));
  fs.writeFileSync(path.join(dir, 'utt.raw'), Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
  fs.writeFileSync(path.join(dir, 'g.jsgf'), compiled.jsgf);
  fs.writeFileSync(path.join(dir, 'words.dict'), [...compiled.words].map(([w, p]) => `${w} ${p.join(' ')}`).join('\n') + '\n');
  fs.writeFileSync(path.join(dir, 'ctl'), 'utt\n');
  const b = ALIGN_BEAMS[0];
  execFileSync('pocketsphinx_batch', [
    '-hmm', model.acoustic, '-dict', path.join(dir, 'words.dict'), '-jsgf', path.join(dir, 'g.jsgf'),
    '-ctl', path.join(dir, 'ctl'), '-cepdir', dir, '-cepext', '.raw', '-adcin', 'yes',
    '-hypseg', path.join(dir, 'hyp.seg'), '-remove_silence', 'no', '-remove_noise', removeNoise ? 'yes' : 'no',
    '-beam', String(b.beam), '-pbeam', String(b.pbeam), '-wbeam', String(b.wbeam), '-logfn', '/dev/null',
  ], { stdio: 'ignore' });
  // hypseg: utt S scale T total A ascr L lscr {sf wascr wlscr word}* nframes
  const fields = fs.readFileSync(path.join(dir, 'hyp.seg'), 'utf8').trim().split(/\s+/).slice(9);
  const words: { word: string; sf: number }[] = [];
  for (let i = 0; i + 3 < fields.length; i += 4) words.push({ sf: Number(fields[i]), word: fields[i + 3] });
  const total = Number(fields[fields.length - 1]);
  return words.flatMap((w, i) => (w.word.startsWith('p_') ? [[w.sf, i + 1 < words.length ? words[i + 1].sf : total] as [number, number]] : []));
}

/**
 * Mean absolute difference of word starts and ends against pocketsphinx_batch, in ms. With
 * `removeNoise` the tool runs with its default noise subtraction, which our decoders turn off:
 * a check that the comparison does see differences.
 */
async function boundaryAgreement(items: Item[], removeNoise = false): Promise<number> {
  let sum = 0;
  let n = 0;
  for (const item of items) {
    const pcm = (await decodeAudio(fs.readFileSync(item.file))).pcm;
    const grammar = grammarOf(engine.lexicon(item.lang), item.tokens);
    const ours = engine.align(item.lang, pcm, grammar);
    if (!ours.ok) throw new Error(`${item.name} did not align`);
    const mine = ours.units.filter((u) => u.slot >= 0);
    const theirs = batchBoundaries(item, pcm, grammar, removeNoise);
    if (theirs.length !== mine.length) {
      console.log(`  ${item.name}: pocketsphinx_batch gave ${theirs.length} words for ${mine.length}; skipped`);
      continue;
    }
    mine.forEach((u, i) => {
      sum += Math.abs(u.startFrame - theirs[i][0]) + Math.abs(u.endFrame - theirs[i][1]);
      n += 2;
    });
  }
  return (sum / n) * 10;
}

async function main(): Promise<void> {
  const zh = aishell();
  // ~5 s sentences: the five AISHELL sentences of the first 60 closest to 5 s.
  const lengths: number[] = [];
  for (const i of zh.slice(0, 60)) lengths.push((await decodeAudio(fs.readFileSync(i.file))).durationSec);
  const zhSentences = zh.slice(0, 60).map((item, k) => ({ item, d: Math.abs(lengths[k] - 5) })).sort((a, b) => a.d - b.d).slice(0, 5).map((x) => x.item);
  const enSentences = librivox();
  console.log(`engine benchmark, one core, medians of ${REPEATS} runs (pocketsphinx 5prealpha); CPU time`);
  console.log(`load average at start: ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} on ${os.availableParallelism()} cores`);
  const zhS = report('zh sentences (AISHELL)', await measureAll(zhSentences));
  const enS = report('en sentences (LibriVox)', await measureAll(enSentences));
  const zhPassage = concatenate(zh.slice(100, 122), 'zh-passage');
  const enPassage = concatenate([...librivox(), ...ljspeech().slice(0, 5)], 'en-passage');
  const zhP = report('zh passage (22 sentences)', [await measure(zhPassage)]);
  const enP = report('en passage (10 sentences)', [await measure(enPassage)]);
  const zhB = await boundaryAgreement(zh.slice(200, 220));
  const enB = await boundaryAgreement(enSentences);
  console.log(`word boundaries vs pocketsphinx_batch: zh ${zhB.toFixed(1)} ms (20 sentences), en ${enB.toFixed(1)} ms (5 sentences)`);
  const zhN = await boundaryAgreement(zh.slice(200, 220), true);
  const enN = await boundaryAgreement(enSentences, true);
  console.log(`  against the tool with its default noise subtraction (ours off): zh ${zhN.toFixed(1)} ms, en ${enN.toFixed(1)} ms`);
  const result = {
    rtf_sentence: Math.max(zhS.rtf, enS.rtf),
    rtf_passage: Math.max(zhP.rtf, enP.rtf),
    align_boundary_ms: (zhB * 20 + enB * 5) / 25,
    pitch_ms_per_s: median([zhS.pitchMsPerS, enS.pitchMsPerS, zhP.pitchMsPerS, enP.pitchMsPerS]),
    rtf_sentence_zh: zhS.rtf,
    rtf_sentence_en: enS.rtf,
    rtf_passage_zh: zhP.rtf,
    rtf_passage_en: enP.rtf,
  };
  engine.close();
  fs.rmSync(tmp, { recursive: true, force: true });
  console.log(JSON.stringify(result));
}

await main();

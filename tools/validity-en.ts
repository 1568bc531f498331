/**
 * Validity of the English engine on real speech (`npm run validity:en`; `--subset` for CI,
 * under 3 minutes; full by default; `--only so762|native|nonnative|phrasing` for one part;
 * `--extract` to align speechocean762 test utterances missing from the extraction cache;
 * `--misses` to list every seeded alteration missed or with other words flagged;
 * `--decoder-args "..."`, `--loop-decoder-args "..."`, `--cache DIR` and `--model FILE` score a front-end variant extracted
 * and fitted by tools/train-en-so762.ts with the same options).
 * Prints each table and ends with one JSON line of the figures. Protocol (issue 7):
 * 1. speechocean762 test half: Pearson with the experts at phone, word and utterance level
 *    (the model is fitted on the train half only by tools/train-en-so762.ts);
 * 2. native correct reading (librivox, ljspeech, harvard): median overall, share of words and
 *    phones flagged wrong; the native sentences joined into passages of 10, 25 and 50 s: overall
 *    and fluency;
 * 3. seeded alterations of the reference (a word replaced; a word added that was not said):
 *    recall and precision of flagged words; seeded splices of the audio (a word of another
 *    recording spliced in between two words; a word's audio repeated right after itself, both
 *    cut at the spans of the engine's alignment of the unaltered reading): recall and precision
 *    of insertion (readType 1) and repetition (readType 3) flags, and their false alarms per
 *    100 words on the unaltered native readings;
 * 4. non-native speech (alphanumeric-accented, fsdd-digits): scores by first language, rank
 *    correlation of self-rated accent strength with accuracy;
 * 5. phrasing (phrasing-break-dev): Spearman of reading skill and pause scores with the
 *    experts' overall label; accuracy of the per-break judgement.
 */
import fs from 'node:fs';
import path from 'node:path';
import { decodeAudio, type DecodedAudio } from '../src/audio/decode.js';
import { parseEvaluationConfig, type EvaluationConfig } from '../src/evaluation/config.js';
import { loadEnglishLexicon } from '../src/en/lexicon/index.js';
import { createInThreadBackend } from '../src/acoustic/backend.js';
import { loadConfig } from '../src/config.js';
import { createEnglishEngine, toAssessment, type EnglishAssessment } from '../src/en/engine/index.js';
import { spansOutOfOrder } from '../src/assessment/timeline.js';
import { LOW_PHONE_SCORE } from '../src/en/engine/phones.js';
import { spearman } from '../src/en/scoring-model/linear.js';
import { MODEL_FILE, loadEnglishScoringModel } from '../src/en/scoring-model/model.js';
import {
  DEFAULT_CACHE, SO762_DIR, addPairs, arg, decoderArgsOption, emptyPairs, extractOne, figuresOf, labelled, readCached, readScores, spreadOrder,
  type LabelledReading,
} from './train-en-so762.js';
import { nativePassages, nativeSet, rng, type NativeReading } from './en-native-set.js';

const DATA = path.resolve(SO762_DIR, '..');
const subset = process.argv.includes('--subset');
const listMisses = process.argv.includes('--misses');
const figures: Record<string, unknown> = { mode: subset ? 'subset' : 'full' };
const backend = createInThreadBackend(loadConfig(), { langs: ['en'], decoderArgs: decoderArgsOption() });
const lexicon = await loadEnglishLexicon();
const model = loadEnglishScoringModel(arg('model', MODEL_FILE));
const cache = arg('cache', DEFAULT_CACHE);
const engine = createEnglishEngine({ backend, lexicon, model });

function config(referenceText: string, coreType = 'sentence', language = 'en-US'): EvaluationConfig {
  return parseEvaluationConfig({ coreType, referenceText, language });
}

/**
 * Readings whose timed units (words and extra speech, in the order the response lists them)
 * overlap or run backwards in time, or hold a phone outside their span: none is expected.
 */
const spans = { readings: 0, outOfOrder: 0 };

async function inspect(file: string | DecodedAudio, ref: string, coreType = 'sentence', extraSpeech = true): Promise<{ en: EnglishAssessment; overall: number; accuracy: number }> {
  const cfg = config(ref, coreType);
  const en = await engine.inspect(cfg, typeof file === 'string' ? await decodeAudio(fs.readFileSync(file)) : file, { extraSpeech });
  const a = toAssessment(en, cfg);
  spans.readings++;
  if (spansOutOfOrder(a)) spans.outOfOrder++;
  return { en, overall: a.overall, accuracy: a.dimensions.accuracy };
}

const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};
const mean = (v: number[]) => (v.length ? v.reduce((a, b) => a + b, 0) / v.length : NaN);
const r3 = (v: number) => Math.round(v * 1000) / 1000;
const flagged = (w: EnglishAssessment['words'][number]) => w.readStatus !== 'correct';

// 1. speechocean762 -------------------------------------------------------------------------
async function so762(): Promise<void> {
  const scores = readScores('test');
  // Utterances already aligned by `train-en-so762.ts extract --split test` come from its cache;
  // the subset aligns its 20 if needed; the full run aligns missing ones only with --extract.
  const ids = spreadOrder(Object.keys(scores).sort()).slice(0, subset ? 20 : Infinity);
  const extractMissing = subset || process.argv.includes('--extract');
  const data: LabelledReading[] = [];
  for (const id of ids) {
    const cached = readCached(cache, 'test', id) ?? (extractMissing ? await extractOne(engine, 'test', id, scores[id].text) : null);
    if (cached) data.push(labelled(lexicon, cached, scores[id]));
  }
  const res = figuresOf(addPairs(emptyPairs(), model, data), data.length);
  console.log(`\nspeechocean762 test half (${data.length} of ${Object.keys(scores).length} scored utterances, ${res.phones} phones, ${res.words} words), Pearson with experts`);
  console.log('level       ours    Kaldi GOP  GOPT   3M     target');
  console.log(`phone       ${res.phone_accuracy.toFixed(3)}   0.45       0.612  0.656  >= 0.45`);
  console.log(`word acc    ${res.word.accuracy.toFixed(3)}`);
  console.log(`word stress ${res.word.stress.toFixed(3)}`);
  console.log(`word total  ${res.word.total.toFixed(3)}              0.549  0.612`);
  for (const k of ['accuracy', 'completeness', 'fluency', 'prosodic'] as const) console.log(`utt ${k.padEnd(12)} ${res.utterance[k].toFixed(3)}`);
  console.log(`utt total   ${res.utterance.total.toFixed(3)}              0.742  0.796  >= 0.70`);
  figures.so762 = res;
}

// 2-3. native reading and seeded alterations ------------------------------------------------
const POOL = ['window', 'purple', 'table', 'quickly', 'garden', 'monkey', 'river', 'yellow', 'basket', 'thunder', 'pocket', 'violin'];
/** Short function words, added where they were not said: the omissions learners make most (articles, prepositions). */
const FUNCTION_POOL = ['the', 'a', 'an', 'of', 'to', 'and', 'in', 'is', 'it', 'for'];

async function native(): Promise<void> {
  const all = nativeSet(DATA);
  const items = subset ? all.filter((_, i) => i % 4 === 0) : all;
  const rows: { set: string; overall: number; words: number; wrongWords: number; phones: number; wrongPhones: number; extra: number }[] = [];
  // Engine CPU per second of audio without and with the insertion and repetition check, side
  // by side on each reading (in-thread backend, so the process's CPU is the engine's).
  const cpu: { without: number[]; with: number[] } = { without: [], with: [] };
  let sameWords = 0;
  const cpuOf = async (audio: DecodedAudio, ref: string, extra: boolean) => {
    const t = process.cpuUsage();
    const r = await inspect(audio, ref, 'sentence', extra);
    const c = process.cpuUsage(t);
    (extra ? cpu.with : cpu.without).push((c.user + c.system) / 1000 / audio.durationSec);
    return r;
  };
  for (const it of items) {
    const audio = await decodeAudio(fs.readFileSync(it.file));
    const plain = await cpuOf(audio, it.ref, false);
    const r = await cpuOf(audio, it.ref, true);
    if (plain.en.words.every((w, i) => w.readStatus === r.en.words[i].readStatus)) sameWords++;
    const phones = r.en.words.flatMap((w) => w.phones);
    rows.push({
      set: it.set, overall: r.overall, words: r.en.words.length, wrongWords: r.en.words.filter(flagged).length,
      phones: phones.length, wrongPhones: phones.filter((p) => p.score < LOW_PHONE_SCORE || p.error !== null).length,
      extra: r.en.extraWords.length,
    });
  }
  console.log('\nnative correct reading          n   median overall  words flagged  phones flagged');
  const table: Record<string, unknown> = {};
  for (const set of ['librivox', 'ljspeech', 'harvard', 'all']) {
    const rs = rows.filter((r) => set === 'all' || r.set === set);
    const sum = (f: (r: (typeof rows)[number]) => number) => rs.reduce((a, r) => a + f(r), 0);
    const t = { n: rs.length, medianOverall: r3(median(rs.map((r) => r.overall))), wordsFlagged: r3(sum((r) => r.wrongWords) / sum((r) => r.words)), phonesFlagged: r3(sum((r) => r.wrongPhones) / sum((r) => r.phones)) };
    table[set] = t;
    console.log(`${set.padEnd(30)} ${String(t.n).padStart(3)}   ${t.medianOverall.toFixed(1).padStart(8)}       ${(t.wordsFlagged * 100).toFixed(1).padStart(6)}%       ${(t.phonesFlagged * 100).toFixed(1).padStart(6)}%`);
  }
  const extraPer100 = (100 * rows.reduce((a, r) => a + r.extra, 0)) / rows.reduce((a, r) => a + r.words, 0);
  console.log(`insertion/repetition flags on these readings: ${extraPer100.toFixed(2)} per 100 words`);
  table.extraPer100Words = r3(extraPer100);
  table.cpuMsPerSecond = { without: r3(median(cpu.without)), with: r3(median(cpu.with)) };
  console.log(`engine CPU per second of audio, median: ${median(cpu.without).toFixed(1)} ms without the check, ${median(cpu.with).toFixed(1)} ms with it; reference words' status the same in ${sameWords} of ${items.length} readings`);
  table.passages = await passages(subset ? [25] : [10, 25, 50]);
  figures.native = table;
  await alterations(subset ? all.filter((_, i) => i % 4 === 1) : all);
  await splices(subset ? all.filter((_, i) => i % 4 === 1) : all);
}

/**
 * The native sentences joined into passages of about `lengths` seconds (`nativePassages`, as
 * bench:en-engine's): a correct reading must not score lower for being longer than the fitted
 * model's utterances (speechocean762: 1 to 10 words).
 */
async function passages(lengths: readonly number[]): Promise<{ seconds: number; words: number; overall: number; fluency: number }[]> {
  console.log('\nnative passage         seconds  words  overall  fluency');
  const out = [];
  for (const p of await nativePassages(DATA, lengths)) {
    const r = await inspect(p.audio, p.text, 'passage');
    const row = { seconds: r3(p.audio.durationSec), words: r.en.words.length, overall: r3(r.overall), fluency: r3(r.en.dimensions.fluency) };
    console.log(`${`${p.sentences} sentences`.padEnd(22)} ${row.seconds.toFixed(1).padStart(7)}  ${String(row.words).padStart(5)}  ${row.overall.toFixed(1).padStart(7)}  ${row.fluency.toFixed(1).padStart(7)}`);
    out.push(row);
  }
  return out;
}

const LABELS: Record<string, string> = { omissionFunctionWord: 'omission (function word)' };

/**
 * One altered reading: the altered word (`target`, -1 when not found) flagged or not, and every
 * other flag a false one. With `--misses`, a case missed or with false flags is listed: the
 * altered word and its status, then each other word flagged with its distance from it.
 */
function tally(s: { tp: number; n: number; fp: number }, words: EnglishAssessment['words'], target: number, label: string): void {
  s.n++;
  const hit = target >= 0 && flagged(words[target]);
  if (hit) s.tp++;
  const others = words.map((w, i) => ({ w, i })).filter(({ w, i }) => i !== target && flagged(w));
  s.fp += others.length;
  if (listMisses && (!hit || others.length > 0)) {
    const t = words[target];
    console.log(`  ${label}: ${hit ? 'caught' : 'MISSED'} ${t ? `"${t.text}" ${t.readStatus} ${Math.round(t.accuracy)}` : '(not found)'}; others flagged: ${others.map(({ w, i }) => `"${w.text}" ${w.readStatus} (${i - target > 0 ? '+' : ''}${i - target})`).join(', ') || 'none'}`);
  }
}

async function alterations(items: NativeReading[]): Promise<void> {
  // Each recording is decoded once for all of its altered texts.
  const decoded = new Map<string, DecodedAudio>();
  const audioOf = async (file: string) => decoded.get(file) ?? decoded.set(file, await decodeAudio(fs.readFileSync(file))).get(file)!;
  const rand = rng(7);
  const res = { substitution: { tp: 0, n: 0, fp: 0 }, omission: { tp: 0, n: 0, fp: 0 }, omissionFunctionWord: { tp: 0, n: 0, fp: 0 } };
  for (const it of items) {
    const words = it.ref.split(/\s+/);
    for (const kind of ['substitution', 'omission'] as const) {
      const pos = Math.floor(rand() * words.length);
      const extra = POOL[Math.floor(rand() * POOL.length)];
      const altered = kind === 'substitution' ? words.map((w, i) => (i === pos ? extra : w)) : [...words.slice(0, pos), extra, ...words.slice(pos)];
      const r = await inspect(await audioOf(it.file), altered.join(' '));
      // Punctuation glued to a replaced word is lost with it; the analysed index still matches the token position.
      tally(res[kind], r.en.words, r.en.words.findIndex((w) => w.text.toLowerCase() === extra), `${kind} ${path.basename(it.file)}: ${kind === 'substitution' ? `"${extra}" for "${words[pos]}"` : `"${extra}" added`}`);
    }
  }
  // A function word added at any position, from a generator of its own (the draws above stay as
  // they were); it may stand elsewhere in the text too, so it is found by position.
  const frand = rng(13);
  for (const it of items) {
    const words = it.ref.split(/\s+/);
    const pos = Math.floor(frand() * (words.length + 1));
    const extra = FUNCTION_POOL[Math.floor(frand() * FUNCTION_POOL.length)];
    const r = await inspect(await audioOf(it.file), [...words.slice(0, pos), extra, ...words.slice(pos)].join(' '));
    if (r.en.words[pos]?.text.toLowerCase() === extra) tally(res.omissionFunctionWord, r.en.words, pos, `function word ${path.basename(it.file)}: "${extra}" added`);
  }
  const out: Record<string, unknown> = {};
  console.log('\nseeded alterations            n   recall  precision');
  for (const [k, s] of Object.entries(res)) {
    const recall = s.tp / Math.max(1, s.n);
    const precision = s.tp / Math.max(1, s.tp + s.fp);
    out[k] = { n: s.n, recall: r3(recall), precision: r3(precision) };
    console.log(`${(LABELS[k] ?? k).padEnd(28)} ${String(s.n).padStart(3)}   ${(recall * 100).toFixed(1).padStart(5)}%  ${(precision * 100).toFixed(1).padStart(6)}%`);
  }
  figures.alterations = out;
}

/** `pcm` with `piece` inserted at sample `at`. */
function splice(pcm: Int16Array, at: number, piece: Int16Array): Int16Array {
  const out = new Int16Array(pcm.length + piece.length);
  out.set(pcm.subarray(0, at));
  out.set(piece, at);
  out.set(pcm.subarray(at), at + piece.length);
  return out;
}

const SAMPLES_PER_FRAME = 160;
const withPcm = (a: DecodedAudio, pcm: Int16Array): DecodedAudio => ({ ...a, pcm, durationSec: pcm.length / a.sampleRate });

/**
 * Seeded splices of native recordings, reference unchanged. Insertion: a word of the previous
 * recording (a read word of 20 frames or more in the engine's alignment of it) spliced in
 * between two read words, in the middle of the gap between them; found when an extra word of
 * readType 1 overlaps the spliced audio. Repetition: one read word's audio repeated right after
 * itself; found when an extra word of readType 3 names that word and overlaps either copy.
 * Precision counts every extra word flagged in the spliced readings.
 */
async function splices(items: NativeReading[]): Promise<void> {
  const rand = rng(11);
  const res = { insertion: { tp: 0, n: 0, flags: 0, other: 0, words: 0 }, repetition: { tp: 0, n: 0, flags: 0, other: 0, words: 0 } };
  let donor: Int16Array | null = null;
  for (const it of items) {
    const audio = await decodeAudio(fs.readFileSync(it.file));
    const clean = (await inspect(audio, it.ref)).en;
    const read = clean.words.filter((w) => w.readStatus !== 'skipped');
    if (donor && read.length >= 2) {
      const k = Math.floor(rand() * (read.length - 1));
      const [a, b] = [read[k], read[k + 1]];
      const at = Math.floor((a.endFrame + b.startFrame) / 2) * SAMPLES_PER_FRAME;
      const r = (await inspect(withPcm(audio, splice(audio.pcm, at, donor)), it.ref)).en;
      const span = { start: at / SAMPLES_PER_FRAME, end: (at + donor.length) / SAMPLES_PER_FRAME };
      const s = res.insertion;
      s.n++;
      s.flags += r.extraWords.length;
      if (r.extraWords.some((x) => x.readType === 1 && x.startFrame < span.end && x.endFrame > span.start)) s.tp++;
      s.other += r.words.filter(flagged).length;
      s.words += r.words.length;
    }
    if (read.length >= 1) {
      const w = read[Math.floor(rand() * read.length)];
      const copy = audio.pcm.slice(w.startFrame * SAMPLES_PER_FRAME, w.endFrame * SAMPLES_PER_FRAME);
      const r = (await inspect(withPcm(audio, splice(audio.pcm, w.endFrame * SAMPLES_PER_FRAME, copy)), it.ref)).en;
      const span = { start: w.startFrame, end: w.endFrame + (w.endFrame - w.startFrame) };
      const s = res.repetition;
      s.n++;
      s.flags += r.extraWords.length;
      if (r.extraWords.some((x) => x.readType === 3 && x.text === w.text && x.startFrame < span.end && x.endFrame > span.start)) s.tp++;
      s.other += r.words.filter(flagged).length;
      s.words += r.words.length;
    }
    const long = read.filter((w) => w.endFrame - w.startFrame >= 20);
    if (long.length) {
      const d = long[Math.floor(rand() * long.length)];
      donor = audio.pcm.slice(d.startFrame * SAMPLES_PER_FRAME, d.endFrame * SAMPLES_PER_FRAME);
    }
  }
  const out: Record<string, unknown> = {};
  console.log('\nseeded splices                n   recall  precision  reference words flagged');
  for (const [k, s] of Object.entries(res)) {
    const recall = s.tp / Math.max(1, s.n);
    const precision = s.tp / Math.max(1, s.flags);
    out[k] = { n: s.n, recall: r3(recall), precision: r3(precision), wordsFlagged: r3(s.other / Math.max(1, s.words)) };
    console.log(`${k.padEnd(28)} ${String(s.n).padStart(3)}   ${(recall * 100).toFixed(1).padStart(5)}%  ${(precision * 100).toFixed(1).padStart(6)}%     ${((100 * s.other) / Math.max(1, s.words)).toFixed(1).padStart(5)}%`);
  }
  figures.splices = out;
}

// 4. non-native ----------------------------------------------------------------------------
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  for (const line of text.trim().split('\n')) {
    const cells: string[] = [];
    let cur = '';
    let quoted = false;
    for (const ch of line) {
      if (ch === '"') quoted = !quoted;
      else if (ch === ',' && !quoted) cells.push(cur), (cur = '');
      else cur += ch;
    }
    cells.push(cur.trim());
    rows.push(cells);
  }
  return rows;
}

async function nonNative(): Promise<void> {
  const dir = path.join(DATA, 'alphanumeric-accented');
  const [head, ...rows] = csvRows(fs.readFileSync(path.join(dir, 'metadata.csv'), 'utf8'));
  const col = (n: string) => head.indexOf(n);
  // Staged as FLAC (lossless) under the metadata's .wav names.
  const fileOf = (r: string[]) => path.join(dir, r[col('file_name')].replace(/\.wav$/, '.flac'));
  const addr = rows.filter((r) => r[col('file_name')].startsWith('audio_data/Addresses/') && fs.existsSync(fileOf(r)));
  // The subset keeps some native speakers so that both sides of the comparison are present.
  const picked = subset ? addr.filter((r, i) => i % 6 === 0 || (i % 3 === 0 && /english/i.test(r[col('Native Language')]))) : addr;
  const byL1 = new Map<string, number[]>();
  const accent: number[] = [];
  const accuracy: number[] = [];
  for (const r of picked) {
    const res = await inspect(fileOf(r), r[col('Address')]);
    const l1 = /english/i.test(r[col('Native Language')]) ? 'English' : r[col('Native Language')].split(/[/,]/)[0].trim();
    byL1.set(l1, [...(byL1.get(l1) ?? []), res.accuracy]);
    accent.push(Number(r[col('Accent Strength (Self reported)')]));
    accuracy.push(res.accuracy);
  }
  console.log('\nalphanumeric-accented by first language   n   mean accuracy');
  const groups: Record<string, unknown> = {};
  for (const [l1, v] of [...byL1].sort((a, b) => b[1].length - a[1].length)) {
    groups[l1] = { n: v.length, accuracy: r3(mean(v)) };
    console.log(`${l1.padEnd(40)} ${String(v.length).padStart(3)}   ${mean(v).toFixed(1)}`);
  }
  const nativeMean = mean(byL1.get('English') ?? []);
  const otherMean = mean([...byL1].filter(([k]) => k !== 'English').flatMap(([, v]) => v));
  const rho = spearman(accent, accuracy);
  console.log(`native ${nativeMean.toFixed(1)} vs non-native ${otherMean.toFixed(1)}; Spearman(accent strength, accuracy) = ${rho.toFixed(3)} (expected negative)`);
  figures.alphanumeric = { n: picked.length, nativeMean: r3(nativeMean), nonNativeMean: r3(otherMean), spearmanAccentAccuracy: r3(rho), groups };
  await digits();
}

const DIGITS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const NATIVE_SPEAKERS = new Set(['jackson', 'theo']);

async function digits(): Promise<void> {
  const dir = path.join(DATA, 'fsdd-digits', 'recordings');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.flac')).sort();
  const picked = subset ? files.filter((f) => /^[0-4]_[a-z]+_0\.flac$/.test(f)) : files;
  const by = new Map<string, number[]>();
  for (const f of picked) {
    const [digit, speaker] = f.split('_');
    const res = await inspect(path.join(dir, f), DIGITS[Number(digit)], 'word');
    by.set(speaker, [...(by.get(speaker) ?? []), res.accuracy]);
  }
  console.log('\nfsdd-digits by speaker (8 kHz)    n   mean accuracy');
  const speakers: Record<string, unknown> = {};
  for (const [s, v] of by) {
    speakers[s] = { native: NATIVE_SPEAKERS.has(s), n: v.length, accuracy: r3(mean(v)) };
    console.log(`${(s + (NATIVE_SPEAKERS.has(s) ? ' (native)' : '')).padEnd(32)} ${String(v.length).padStart(3)}   ${mean(v).toFixed(1)}`);
  }
  const nat = mean([...by].filter(([s]) => NATIVE_SPEAKERS.has(s)).flatMap(([, v]) => v));
  const non = mean([...by].filter(([s]) => !NATIVE_SPEAKERS.has(s)).flatMap(([, v]) => v));
  console.log(`native ${nat.toFixed(1)} vs non-native ${non.toFixed(1)}`);
  figures.fsdd = { n: picked.length, nativeMean: r3(nat), nonNativeMean: r3(non), speakers };
}

// 5. phrasing ------------------------------------------------------------------------------
async function phrasing(): Promise<void> {
  const dir = path.join(DATA, 'phrasing-break-dev');
  const prompts = new Map(fs.readFileSync(path.join(dir, 'metadata.csv'), 'utf8').trim().split('\n').map((l) => l.split('|') as [string, string]));
  const coarse = new Map(csvRows(fs.readFileSync(path.join(dir, 'annotations', 'new_coarse_grain_res.csv'), 'utf8')).slice(1).map((r) => [r[0], Number(r[5])]));
  const fine = new Map(csvRows(fs.readFileSync(path.join(dir, 'annotations', 'new_fine_grain_res.csv'), 'utf8')).slice(1).map((r) => [r[0], JSON.parse(r[5]) as number[]]));
  const wavs = fs.readdirSync(path.join(dir, 'wavs')).filter((f) => f.endsWith('.flac')).sort().map((f) => f.slice(0, -5)).filter((id) => coarse.has(id) && prompts.has(id));
  const picked = subset ? wavs.filter((_, i) => i % 4 === 0) : wavs;
  const labels: number[] = [];
  const skill: number[] = [];
  const pause: number[] = [];
  const promptOf: string[] = [];
  let agree = 0;
  let breaks = 0;
  for (const id of picked) {
    const ref = prompts.get(id)!.toLowerCase();
    const cfg = config(ref);
    const en = await engine.inspect(cfg, await decodeAudio(fs.readFileSync(path.join(dir, 'wavs', `${id}.flac`))));
    labels.push(coarse.get(id)!);
    promptOf.push(ref);
    skill.push(toAssessment(en, cfg).dimensions.readingSkill);
    pause.push(en.skill.phrasing);
    const perBreak = (fine.get(id) ?? []).filter((_, i) => i % 2 === 1);
    for (const b of en.boundaries) {
      const expert = perBreak[b.afterWord];
      if (expert === undefined || expert === 0) continue;
      breaks++;
      if (b.appropriate === (expert === 3)) agree++;
    }
  }
  // Each prompt on its own: the held-out protocol reads other prompts, so the agreement should not rest on one.
  const byPrompt = [...new Set(promptOf)].map((prompt) => {
    const k = promptOf.flatMap((p, i) => (p === prompt ? [i] : []));
    return { prompt, n: k.length, spearmanReadingSkill: r3(spearman(k.map((i) => skill[i]), k.map((i) => labels[i]))), spearmanPause: r3(spearman(k.map((i) => pause[i]), k.map((i) => labels[i]))) };
  });
  const res = {
    n: picked.length,
    spearmanReadingSkill: r3(spearman(skill, labels)),
    spearmanPause: r3(spearman(pause, labels)),
    perBreakAccuracy: r3(agree / Math.max(1, breaks)),
    breaks,
    byPrompt,
  };
  console.log(`\nphrasing-break-dev (${res.n} recordings, ${breaks} breaks): Spearman reading skill ${res.spearmanReadingSkill}, pause ${res.spearmanPause} (target >= 0.5); per-break accuracy ${(res.perBreakAccuracy * 100).toFixed(1)}%`);
  for (const p of byPrompt) console.log(`  "${p.prompt}" (${p.n}): reading skill ${p.spearmanReadingSkill}, pause ${p.spearmanPause}`);
  figures.phrasing = res;
}

const t0 = Date.now();
// `--only so762|native|nonnative|phrasing` runs one part (for development).
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
const parts: Record<string, () => Promise<void>> = { so762, native, nonnative: nonNative, phrasing };
for (const [name, run] of Object.entries(parts)) if (only === null || only === name) await run();
await backend.close();
if (spans.readings > 0) {
  console.log(`\nevery reading scored: spans out of order in ${spans.outOfOrder} of ${spans.readings} (0 expected)`);
  figures.readings = spans.readings;
  figures.readingsWithSpansOutOfOrder = spans.outOfOrder;
}
figures.seconds = Math.round((Date.now() - t0) / 1000);
console.log(JSON.stringify(figures));

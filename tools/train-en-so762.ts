/**
 * Fits the English scoring model on the speechocean762 TRAIN half only (Zhang et al.,
 * Interspeech 2021) and writes src/en/scoring-model/model.json.
 *
 *   npx tsx tools/train-en-so762.ts extract [--split train|test] [--limit N] [--cache DIR] [--decoder-args "..."] [--loop-decoder-args "..."]
 *   npx tsx tools/train-en-so762.ts fit [--cache DIR] [--out FILE]
 *   npx tsx tools/train-en-so762.ts cv [--cache DIR]
 *
 * `extract` runs the engine's own analysis of every scored utterance once (plan, alignment with
 * the second look at skipped words, frame signal, free phone loop) and caches the evidence as
 * JSON under the cache folder (default: the system temp folder), so fitting reruns cost nothing.
 * `fit` reads the cached train half, computes the engine's features and fits the maps from
 * evidence to expert scores; `cv` cross-validates that whole procedure over train speakers.
 * The test half is extracted only for tools/validity-en.ts; nothing here reads its scores.
 * `--decoder-args` extracts with extra options of the English decoder (a front-end variant,
 * e.g. "-topn 2"), `--loop-decoder-args` with options of the free phone loop alone (e.g.
 * "-ds 2"): give such a run a cache folder of its own, fit it with `--out` to a file outside the
 * repository's model, and score the test half with the same options of validity-en.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { decodeAudio } from '../src/audio/decode.js';
import { loadEnglishLexicon, type EnglishLexicon } from '../src/en/lexicon/index.js';
import { planReading } from '../src/en/engine/plan.js';
import { createEnglishEngine, type EnglishEngine } from '../src/en/engine/engine.js';
import { createInThreadBackend } from '../src/acoustic/backend.js';
import { decoderArgsOf, type DecoderArgs } from '../src/acoustic/sphinx/engine.js';
import { loadConfig } from '../src/config.js';
import { parseEvaluationConfig } from '../src/evaluation/config.js';
import type { PhoneSegment } from '../src/acoustic/types.js';
import type { ReadingEvidence, WordEvidence } from '../src/en/engine/evidence.js';
import { phoneRows, scoreReading, utteranceRow, wordRows } from '../src/en/engine/score.js';
import type { SignalFrames } from '../src/en/engine/signal.js';
import { fitLogistic, fitRidge, pearson, predict, type LinearModel } from '../src/en/scoring-model/linear.js';
import { MODEL_FILE, type EnglishScoringModel, type PhoneReader } from '../src/en/scoring-model/model.js';
import { PHONE_FEATURES, UTTERANCE_FEATURES, WORD_FEATURES, mean, type PhoneStats } from '../src/en/scoring-model/features.js';

export const SO762_DIR = path.resolve(import.meta.dirname, '..', '..', 'shared', 'data', 'en', 'speechocean762');
export const DEFAULT_CACHE = path.join(os.tmpdir(), 'kouyu-en-so762-evidence');

export interface So762Word {
  text: string;
  accuracy: number;
  stress: number;
  total: number;
  phones: string[];
  phonesAccuracy: number[];
}

export interface So762Utterance {
  accuracy: number;
  completeness: number;
  fluency: number;
  prosodic: number;
  total: number;
  text: string;
  words: So762Word[];
}

/** One utterance as the engine analysed it (the JSON form of its evidence; entries come from the plan again). */
export interface CachedUtterance {
  id: string;
  text: string;
  evidence: Omit<ReadingEvidence, 'words'> & { words: Omit<WordEvidence, 'entry' | 'index'>[] };
  energyDb: number[];
  f0: number[];
  /** Free phone loop over the audio as [phone, startFrame, endFrame]. */
  loop: [string, number, number][];
}

export function readScores(split: 'train' | 'test'): Record<string, So762Utterance> {
  return JSON.parse(fs.readFileSync(path.join(SO762_DIR, split, 'scores.json'), 'utf8')) as Record<string, So762Utterance>;
}

export function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

export function cachePath(cache: string, split: string, id: string): string {
  return path.join(cache, split, `${id}.json`);
}

/**
 * The engine's own analysis of one utterance (plan, alignment with the second look at skipped
 * words, signal, loop), exactly as it scores a sentence reading; the scores are computed later.
 */
export async function extractOne(engine: EnglishEngine, split: 'train' | 'test', id: string, text: string): Promise<CachedUtterance> {
  const audio = await decodeAudio(fs.readFileSync(path.join(SO762_DIR, split, `${id}.opus`)));
  const config = parseEvaluationConfig({ coreType: 'sentence', referenceText: text, language: 'en-US' });
  const { evidence, signal, loop } = await engine.analyse(config, audio);
  const round = (a: Float32Array, k: number) => Array.from(a, (v) => Math.round(v * k) / k);
  const r4 = (v: number) => Math.round(v * 1e4) / 1e4;
  return {
    id,
    text,
    evidence: {
      ...evidence,
      words: evidence.words.map(({ entry: _entry, index: _index, ...w }) => ({
        ...w,
        phones: w.phones.map((p) => ({ ...p, gop: r4(p.gop), forced: r4(p.forced), ...(p.spectral ? { spectral: [r4(p.spectral[0]), r4(p.spectral[1])] as const } : {}) })),
      })),
    },
    energyDb: round(signal.energyDb, 10),
    f0: round(signal.f0, 10),
    loop: loop.map((s) => [s.phone, s.startFrame, s.endFrame]),
  };
}

/**
 * Every 8th utterance first, then the next offset, and so on: any prefix of the order spreads
 * over all speakers, so an extraction cut short (or run with --limit) is still a fair sample.
 */
export function spreadOrder(ids: readonly string[], stride = 8): string[] {
  const out: string[] = [];
  for (let k = 0; k < stride; k++) for (let i = k; i < ids.length; i += stride) out.push(ids[i]);
  return out;
}

export function readCached(cache: string, split: string, id: string): CachedUtterance | null {
  const file = cachePath(cache, split, id);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as CachedUtterance) : null;
}

/** The `--decoder-args` and `--loop-decoder-args` options as the backend takes them: extra English decoder options, split at spaces. */
export function decoderArgsOption(): DecoderArgs {
  return decoderArgsOf('en', arg('decoder-args', ''), arg('loop-decoder-args', ''));
}

async function extract(split: 'train' | 'test', cache: string, limit: number): Promise<void> {
  const scores = readScores(split);
  const ids = spreadOrder(Object.keys(scores).sort()).slice(0, limit);
  fs.mkdirSync(path.join(cache, split), { recursive: true });
  const backend = createInThreadBackend(loadConfig(), { langs: ['en'], decoderArgs: decoderArgsOption() });
  const engine = createEnglishEngine({ backend, lexicon: await loadEnglishLexicon() });
  let done = 0;
  for (const id of ids) {
    const file = cachePath(cache, split, id);
    if (!fs.existsSync(file)) {
      try {
        fs.writeFileSync(file, JSON.stringify(await extractOne(engine, split, id, scores[id].text)));
      } catch (err) {
        // Reported and left out (counted in the figures), never silently dropped.
        console.error(`${split} ${id} (${scores[id].text}): ${(err as Error).message}`);
      }
    }
    if (++done % 50 === 0) console.error(`${split}: ${done}/${ids.length}`);
  }
  await backend.close();
}

/** One cached utterance re-read through the engine's plan and evidence, with the expert labels. */
export interface LabelledReading {
  id: string;
  label: So762Utterance;
  evidence: ReadingEvidence;
  signal: SignalFrames;
  /** so762 word index per reference word when the texts and phone counts agree, else -1. */
  wordLabel: number[];
  /** What the free phone loop heard. */
  loop: PhoneSegment[];
}

export function labelled(lexicon: EnglishLexicon, cached: CachedUtterance, label: So762Utterance): LabelledReading {
  const plan = planReading(lexicon, cached.text, 'sentence', 'en-US');
  if (cached.evidence.words.length !== plan.entries.length) throw new Error(`${cached.id}: cached words differ from the plan; extract again`);
  const evidence: ReadingEvidence = {
    ...cached.evidence,
    words: cached.evidence.words.map((w, i) => ({
      ...w,
      entry: plan.entries[i],
      index: i,
      // JSON has no NaN: the forced score of a skipped word's phones comes back as null.
      phones: w.phones.map((p) => ({ ...p, forced: p.forced ?? NaN })),
    })),
  };
  const signal: SignalFrames = { energyDb: Float32Array.from(cached.energyDb), f0: Float32Array.from(cached.f0) };
  const sameWords = plan.entries.length === label.words.length;
  const wordLabel = evidence.words.map((w, i) => {
    if (!sameWords) return -1;
    const lw = label.words[i];
    return lw.text.toLowerCase() === w.entry.word.text.toLowerCase() && lw.phones.length === w.phones.length ? i : -1;
  });
  const loop = cached.loop.map(([phone, startFrame, endFrame]) => ({ phone, startFrame, endFrame, score: 0 }));
  return { id: cached.id, label, evidence, signal, wordLabel, loop };
}

export function loadLabelled(cache: string, split: 'train' | 'test', lexicon: EnglishLexicon): LabelledReading[] {
  const scores = readScores(split);
  const out: LabelledReading[] = [];
  for (const id of Object.keys(scores).sort()) {
    const c = readCached(cache, split, id);
    if (c) out.push(labelled(lexicon, c, scores[id]));
  }
  return out;
}

const UTT_TARGETS = ['accuracy', 'completeness', 'fluency', 'prosodic', 'total'] as const;
const WORD_TARGETS = ['accuracy', 'stress', 'total'] as const;

/**
 * The whole model fitted on `data` (train utterances only), stage by stage as the engine
 * scores. The reader's part of the phone scores is fitted last, on held-out scores: each fold
 * of speakers scored by the other stages fitted on the other four (`nested` false there).
 */
export function fitModel(data: readonly LabelledReading[], nested = true): EnglishScoringModel {
  const placeholder: LinearModel = { names: [], mean: [], std: [], lo: [], hi: [], weights: [], bias: 0, min: 0, max: 0 };
  const model: EnglishScoringModel = {
    trainedOn: { corpus: 'speechocean762', split: 'train', utterances: data.length, fittedAt: new Date().toISOString().slice(0, 10) },
    phoneStats: phoneStatistics(data),
    phone: placeholder,
    word: { accuracy: placeholder, stress: placeholder, total: placeholder },
    utterance: { accuracy: placeholder, completeness: placeholder, fluency: placeholder, prosodic: placeholder, total: placeholder },
    phoneReader: { weight: 0, centre: 0 },
  };
  // Stage 1: phones: probability of "correct" (mean expert score >= 1.5 of 2).
  const px: number[][] = [];
  const py: number[] = [];
  for (const r of data) {
    phoneRows(r.evidence, model, r.loop).forEach((rows, i) => {
      if (r.wordLabel[i] < 0) return;
      rows.forEach((x, k) => (px.push(x), py.push(r.label.words[r.wordLabel[i]].phonesAccuracy[k] >= 1.5 ? 1 : 0)));
    });
  }
  model.phone = fitLogistic([...PHONE_FEATURES], px, py);
  // Stage 2: words (0-10) from the fitted phone scores.
  const wx: number[][] = [];
  const wg: string[] = [];
  const wy: Record<(typeof WORD_TARGETS)[number], number[]> = { accuracy: [], stress: [], total: [] };
  for (const r of data) {
    wordRows(r.evidence, r.signal, model, r.loop).forEach((row, i) => {
      if (r.wordLabel[i] < 0) return;
      wx.push(row.x);
      wg.push(speakerOf(r.id));
      for (const t of WORD_TARGETS) wy[t].push(r.label.words[r.wordLabel[i]][t]);
    });
  }
  for (const t of WORD_TARGETS) model.word[t] = ridgeCv([...WORD_FEATURES], wx, wy[t], wg);
  // Stage 3: utterances (0-10) from everything the engine computes.
  const ux = data.map((r) => utteranceRow(r.evidence, r.signal, model, r.loop));
  for (const t of UTT_TARGETS) model.utterance[t] = ridgeCv([...UTTERANCE_FEATURES], ux, data.map((r) => r.label[t]), data.map((r) => speakerOf(r.id)));
  // Stage 4: the reader's part of the phone scores.
  if (nested) model.phoneReader = fitPhoneReader(data);
  return model;
}

/**
 * The weight of the sentence's fitted fluency in its phones' scores: the least-squares fit of
 * the expert phone score on the phone probability and the fluency over held-out rows (five
 * folds of speakers, each scored by the other stages fitted on the other four), as the ratio
 * of the two coefficients; the centre is the rows' mean fluency, so the phones' mean stays.
 */
function fitPhoneReader(data: readonly LabelledReading[]): PhoneReader {
  const folds = speakerFolds(data.map((r) => r.id));
  const rows: [number, number, number][] = [];
  for (let f = 0; f < 5; f++) {
    const model = fitModel(data.filter((_, i) => folds[i] !== f), false);
    for (const r of data.filter((_, i) => folds[i] === f)) {
      const s = scoreReading(r.evidence, r.signal, model, r.loop);
      r.evidence.words.forEach((_, i) => {
        const k = r.wordLabel[i];
        if (k >= 0) s.words[i].phones.forEach((p, j) => rows.push([p, s.utterance.fluency, r.label.words[k].phonesAccuracy[j]]));
      });
    }
  }
  const ls = fitRidge(['phone', 'fluency'], rows.map(([p, fl]) => [p, fl]), rows.map((r) => r[2]), [0, 2], 0);
  const [onPhone, onFluency] = ls.weights.map((w, j) => w / ls.std[j]);
  const centre = mean(rows.map((r) => r[1]));
  return { weight: onPhone > 0 ? +(Math.max(0, onFluency) / onPhone).toPrecision(6) : 0, centre: +centre.toPrecision(6) };
}

/** Predictions of a model beside the expert scores, at every level (phones and words whose labels line up). */
export interface So762Pairs {
  phone: [number[], number[]];
  word: Record<(typeof WORD_TARGETS)[number], [number[], number[]]>;
  utterance: Record<(typeof UTT_TARGETS)[number], [number[], number[]]>;
}

export function emptyPairs(): So762Pairs {
  const two = (): [number[], number[]] => [[], []];
  return {
    phone: two(),
    word: { accuracy: two(), stress: two(), total: two() },
    utterance: { accuracy: two(), completeness: two(), fluency: two(), prosodic: two(), total: two() },
  };
}

export function addPairs(out: So762Pairs, model: EnglishScoringModel, data: readonly LabelledReading[]): So762Pairs {
  for (const r of data) {
    const s = scoreReading(r.evidence, r.signal, model, r.loop);
    r.evidence.words.forEach((_, i) => {
      const k = r.wordLabel[i];
      if (k < 0) return;
      const lw = r.label.words[k];
      s.words[i].phones.forEach((p, j) => (out.phone[0].push(p), out.phone[1].push(lw.phonesAccuracy[j])));
      for (const t of WORD_TARGETS) out.word[t][0].push(s.words[i][t]), out.word[t][1].push(lw[t]);
    });
    for (const t of UTT_TARGETS) out.utterance[t][0].push(s.utterance[t]), out.utterance[t][1].push(r.label[t]);
  }
  return out;
}

export interface So762Figures {
  utterances: number;
  phones: number;
  words: number;
  phone_accuracy: number;
  word: Record<string, number>;
  utterance: Record<string, number>;
}

export function figuresOf(p: So762Pairs, utterances: number): So762Figures {
  const r3 = (v: [number[], number[]]) => Math.round(pearson(...v) * 1000) / 1000;
  return {
    utterances,
    phones: p.phone[0].length,
    words: p.word.total[0].length,
    phone_accuracy: r3(p.phone),
    word: Object.fromEntries(Object.entries(p.word).map(([k, v]) => [k, r3(v)])),
    utterance: Object.fromEntries(Object.entries(p.utterance).map(([k, v]) => [k, r3(v)])),
  };
}

/** Five folds of whole speakers (the same split the ridge penalties are chosen on). */
export function speakerFolds(ids: readonly string[], k = 5): number[] {
  const speakers = [...new Set(ids.map(speakerOf))].sort();
  const fold = new Map(speakers.map((s, i) => [s, i % k]));
  return ids.map((id) => fold.get(speakerOf(id))!);
}

/**
 * Cross-validation of the whole fitting procedure on the train half: each fold of speakers is
 * scored by a model fitted, stage by stage, on the other four; the held-out predictions of all
 * folds are pooled and correlated with the experts. This is how variants are compared; the
 * test half is never used to choose.
 */
export function crossValidate(data: readonly LabelledReading[], k = 5): So762Figures {
  const folds = speakerFolds(data.map((r) => r.id), k);
  const pairs = emptyPairs();
  for (let f = 0; f < k; f++) {
    const model = fitModel(data.filter((_, i) => folds[i] !== f));
    addPairs(pairs, model, data.filter((_, i) => folds[i] === f));
  }
  return figuresOf(pairs, data.length);
}

async function fitAll(cache: string, out: string): Promise<void> {
  const lexicon = await loadEnglishLexicon();
  const data = loadLabelled(cache, 'train', lexicon);
  if (data.length < 50) throw new Error(`only ${data.length} cached train utterances; run extract first`);
  const model = fitModel(data);
  fs.writeFileSync(out, JSON.stringify(roundModel(model), null, 1) + '\n');
  const fit = figuresOf(addPairs(emptyPairs(), model, data), data.length);
  // Words the engine leaves skipped (after its second look), and how many of them the experts call fully accurate.
  const skipped = data.flatMap((r) => r.evidence.words.filter((w) => w.status === 'omitted').map((w) => (r.wordLabel[w.index] >= 0 ? r.label.words[r.wordLabel[w.index]].accuracy : -1)));
  console.log(JSON.stringify({
    file: path.relative(process.cwd(), out), trainFit: fit,
    words: data.reduce((a, r) => a + r.evidence.words.length, 0), skippedWords: skipped.length, skippedScored10: skipped.filter((a) => a === 10).length,
  }));
}

async function cvAll(cache: string): Promise<void> {
  const lexicon = await loadEnglishLexicon();
  const data = loadLabelled(cache, 'train', lexicon);
  if (data.length < 50) throw new Error(`only ${data.length} cached train utterances; run extract first`);
  console.log(JSON.stringify({ crossValidatedOnTrain: crossValidate(data) }));
}

/** speechocean762 utterance ids start with the 4-digit speaker id after a leading 0 (000010011 → 0001). */
export function speakerOf(id: string): string {
  return id.slice(0, 5);
}

/**
 * Ridge fit whose penalty is chosen by 5-fold cross-validation with speakers kept whole in a
 * fold (train half only), maximising the Pearson correlation of held-out predictions: the
 * evaluation protocol asks for generality to unseen speakers.
 */
function ridgeCv(names: string[], X: number[][], y: number[], groups: string[]): LinearModel {
  const speakers = [...new Set(groups)].sort();
  const fold = new Map(speakers.map((s, i) => [s, i % 5]));
  let best = { lambda: 1, r: -Infinity };
  for (const lambda of [0.3, 1, 3, 10, 30, 100]) {
    const pred: number[] = new Array<number>(y.length).fill(0);
    for (let f = 0; f < 5; f++) {
      const tr = y.map((_, i) => i).filter((i) => fold.get(groups[i]) !== f);
      const m = fitRidge(names, tr.map((i) => X[i]), tr.map((i) => y[i]), [0, 10], lambda);
      y.forEach((_, i) => {
        if (fold.get(groups[i]) === f) pred[i] = predict(m, X[i]);
      });
    }
    const r = pearson(pred, y);
    if (r > best.r) best = { lambda, r };
  }
  return fitRidge(names, X, y, [0, 10], best.lambda);
}

/**
 * Per-phone GOP and log-duration statistics over the read (not skipped) phones of the train
 * utterances given, and each phone's prior: the share of its labelled tokens the experts judged
 * correct (mean score >= 1.5), shrunk towards the overall share by PRIOR_WEIGHT tokens.
 */
const PRIOR_WEIGHT = 20;
export function phoneStatistics(data: readonly LabelledReading[]): PhoneStats {
  const acc = new Map<string, { g: number[]; d: number[]; ok: number; n: number }>();
  const entry = (ph: string) => acc.get(ph) ?? (acc.set(ph, { g: [], d: [], ok: 0, n: 0 }), acc.get(ph)!);
  let ok = 0;
  let n = 0;
  for (const r of data) {
    r.evidence.words.forEach((w, i) => {
      w.phones.forEach((p, k) => {
        const e = entry(p.phone);
        if (w.status === 'read') {
          e.g.push(p.gop);
          e.d.push(Math.log(Math.max(1, p.endFrame - p.startFrame)));
        }
        if (r.wordLabel[i] >= 0) {
          const good = r.label.words[r.wordLabel[i]].phonesAccuracy[k] >= 1.5 ? 1 : 0;
          e.ok += good;
          e.n++;
          ok += good;
          n++;
        }
      });
    });
  }
  const overall = n ? ok / n : 0.9;
  const stats: PhoneStats = {};
  const ms = (v: number[]) => {
    const m = mean(v);
    return [m, Math.max(0.1, Math.sqrt(mean(v.map((x) => (x - m) ** 2))))];
  };
  for (const [ph, e] of [...acc].sort()) {
    if (e.g.length < 5) continue;
    const [gm, gs] = ms(e.g);
    const [dm, ds] = ms(e.d);
    const prior = (e.ok + PRIOR_WEIGHT * overall) / (e.n + PRIOR_WEIGHT);
    stats[ph] = [+gm.toFixed(4), +gs.toFixed(4), +dm.toFixed(4), +ds.toFixed(4), +prior.toFixed(4)];
  }
  return stats;
}

function roundModel(m: EnglishScoringModel): EnglishScoringModel {
  const r = (lm: LinearModel): LinearModel => ({
    ...lm,
    mean: lm.mean.map((v) => +v.toPrecision(6)),
    std: lm.std.map((v) => +v.toPrecision(6)),
    lo: lm.lo.map((v) => +v.toPrecision(6)),
    hi: lm.hi.map((v) => +v.toPrecision(6)),
    weights: lm.weights.map((v) => +v.toPrecision(6)),
    bias: +lm.bias.toPrecision(6),
  });
  return {
    trainedOn: m.trainedOn,
    phoneStats: m.phoneStats,
    phone: r(m.phone),
    word: { accuracy: r(m.word.accuracy), stress: r(m.word.stress), total: r(m.word.total) },
    utterance: {
      accuracy: r(m.utterance.accuracy), completeness: r(m.utterance.completeness), fluency: r(m.utterance.fluency),
      prosodic: r(m.utterance.prosodic), total: r(m.utterance.total),
    },
    phoneReader: m.phoneReader,
  };
}

async function main(): Promise<void> {
  const cmd = process.argv[2];
  const cache = arg('cache', DEFAULT_CACHE);
  if (cmd === 'extract') {
    const split = arg('split', 'train') as 'train' | 'test';
    await extract(split, cache, Number(arg('limit', '100000')));
  } else if (cmd === 'fit') {
    await fitAll(cache, arg('out', MODEL_FILE));
  } else if (cmd === 'cv') {
    await cvAll(cache);
  } else {
    console.error('usage: train-en-so762.ts extract|fit|cv [--split train|test] [--limit N] [--cache DIR] [--decoder-args "..."] [--loop-decoder-args "..."] [--out FILE]');
    process.exitCode = 2;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();

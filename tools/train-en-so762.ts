/**
 * Fits the English scoring model on the speechocean762 TRAIN half only (Zhang et al.,
 * Interspeech 2021) and writes src/en/scoring-model/model.json.
 *
 *   npx tsx tools/train-en-so762.ts extract [--split train|test] [--limit N] [--cache DIR]
 *   npx tsx tools/train-en-so762.ts fit [--cache DIR]
 *
 * `extract` aligns every scored utterance once with the engine's own plan and backend and
 * caches the alignment and frame signal (energy, F0) as JSON under the cache folder (default:
 * the system temp folder), so fitting reruns cost nothing. `fit` reads the cached train half,
 * computes the engine's features and fits the maps from evidence to expert scores. The test
 * half is extracted only for tools/validity-en.ts; nothing here reads its scores.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { decodeAudio } from '../src/audio/decode.js';
import { loadEnglishLexicon, type EnglishLexicon } from '../src/en/lexicon/index.js';
import { planReading } from '../src/en/engine/plan.js';
import { measureSignal } from '../src/en/engine/signal.js';
import { createInProcessEnglishBackend } from '../src/en/engine/sphinx-backend.js';
import type { AcousticBackend, AlignResult } from '../src/acoustic/types.js';
import { readEvidence, type ReadingEvidence } from '../src/en/engine/evidence.js';
import { scoreReading } from '../src/en/engine/score.js';
import type { SignalFrames } from '../src/en/engine/signal.js';
import { judgeStress } from '../src/en/engine/stress.js';
import { fitRidge, predict, type LinearModel } from '../src/en/scoring-model/linear.js';
import { MODEL_FILE, type EnglishScoringModel } from '../src/en/scoring-model/model.js';
import {
  PHONE_FEATURES, UTTERANCE_FEATURES, WORD_FEATURES, mean, phoneFeatures, utteranceFeatures, utteranceGop, wordFeatures,
} from '../src/en/scoring-model/features.js';

export const SO762_DIR = path.resolve(import.meta.dirname, '..', '..', 'shared', 'data', 'en', 'speechocean762');
export const DEFAULT_CACHE = path.join(os.tmpdir(), 'kouyu-en-so762-cache');

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

export interface CachedUtterance {
  id: string;
  text: string;
  result: AlignResult;
  energyDb: number[];
  f0: number[];
}

export function readScores(split: 'train' | 'test'): Record<string, So762Utterance> {
  return JSON.parse(fs.readFileSync(path.join(SO762_DIR, split, 'scores.json'), 'utf8')) as Record<string, So762Utterance>;
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

export function cachePath(cache: string, split: string, id: string): string {
  return path.join(cache, split, `${id}.json`);
}

export async function extractOne(
  backend: AcousticBackend,
  lexicon: EnglishLexicon,
  split: 'train' | 'test',
  id: string,
  text: string,
): Promise<CachedUtterance> {
  const audio = await decodeAudio(fs.readFileSync(path.join(SO762_DIR, split, `${id}.opus`)));
  const plan = planReading(lexicon, text, 'sentence', 'en-US');
  const result = await backend.align('en', audio.pcm, plan.grammar, { phones: true, gop: true });
  const signal = measureSignal(audio.pcm);
  const round = (a: Float32Array, k: number) => Array.from(a, (v) => Math.round(v * k) / k);
  return { id, text, result, energyDb: round(signal.energyDb, 10), f0: round(signal.f0, 10) };
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

async function extract(split: 'train' | 'test', cache: string, limit: number): Promise<void> {
  const scores = readScores(split);
  const ids = spreadOrder(Object.keys(scores).sort()).slice(0, limit);
  fs.mkdirSync(path.join(cache, split), { recursive: true });
  const backend = createInProcessEnglishBackend(path.resolve(import.meta.dirname, '..', 'models'));
  const lexicon = await loadEnglishLexicon();
  let done = 0;
  for (const id of ids) {
    const file = cachePath(cache, split, id);
    if (!fs.existsSync(file)) {
      const entry = await extractOne(backend, lexicon, split, id, scores[id].text);
      fs.writeFileSync(file, JSON.stringify(entry));
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
}

export function labelled(lexicon: EnglishLexicon, cached: CachedUtterance, label: So762Utterance): LabelledReading {
  const plan = planReading(lexicon, cached.text, 'sentence', 'en-US');
  const evidence = readEvidence(plan, cached.result);
  const signal: SignalFrames = { energyDb: Float32Array.from(cached.energyDb), f0: Float32Array.from(cached.f0) };
  const sameWords = plan.entries.length === label.words.length;
  const wordLabel = evidence.words.map((w, i) => {
    if (!sameWords) return -1;
    const lw = label.words[i];
    return lw.text.toLowerCase() === w.entry.word.text.toLowerCase() && lw.phones.length === w.phones.length ? i : -1;
  });
  return { id: cached.id, label, evidence, signal, wordLabel };
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

async function fitAll(cache: string): Promise<void> {
  const lexicon = await loadEnglishLexicon();
  const data = loadLabelled(cache, 'train', lexicon);
  if (data.length < 50) throw new Error(`only ${data.length} cached train utterances; run extract first`);
  // Stage 1: phones.
  const px: number[][] = [];
  const py: number[] = [];
  for (const r of data) {
    const uttGop = utteranceGop(r.evidence);
    r.evidence.words.forEach((w, i) => {
      if (r.wordLabel[i] < 0) return;
      const wordGop = mean(w.phones.map((p) => p.gop));
      w.phones.forEach((p, k) => {
        px.push(phoneFeatures(p, wordGop, uttGop));
        py.push(r.label.words[r.wordLabel[i]].phonesAccuracy[k]);
      });
    });
  }
  const phone = fitRidge([...PHONE_FEATURES], px, py, [0, 2]);
  // Stage 2: words, from the fitted phone scores (placeholder word/utterance maps until fitted).
  const model: EnglishScoringModel = {
    trainedOn: { corpus: 'speechocean762', split: 'train', utterances: data.length, fittedAt: new Date().toISOString().slice(0, 10) },
    phone,
    word: { accuracy: phone, stress: phone, total: phone },
    utterance: { accuracy: phone, completeness: phone, fluency: phone, prosodic: phone, total: phone },
  };
  const wx: number[][] = [];
  const wy: Record<(typeof WORD_TARGETS)[number], number[]> = { accuracy: [], stress: [], total: [] };
  for (const r of data) {
    const uttGop = utteranceGop(r.evidence);
    r.evidence.words.forEach((w, i) => {
      if (r.wordLabel[i] < 0) return;
      const wordGop = mean(w.phones.map((p) => p.gop));
      const ps = w.phones.map((p) => predict(phone, phoneFeatures(p, wordGop, uttGop)));
      wx.push(wordFeatures(w, ps, judgeStress(w, r.signal), uttGop));
      for (const t of WORD_TARGETS) wy[t].push(r.label.words[r.wordLabel[i]][t]);
    });
  }
  for (const t of WORD_TARGETS) model.word[t] = fitRidge([...WORD_FEATURES], wx, wy[t], [0, 10]);
  // Stage 3: utterances, from everything the engine computes.
  const ux: number[][] = [];
  const uy: Record<(typeof UTT_TARGETS)[number], number[]> = { accuracy: [], completeness: [], fluency: [], prosodic: [], total: [] };
  for (const r of data) {
    ux.push(utteranceVector(r, model));
    for (const t of UTT_TARGETS) uy[t].push(r.label[t]);
  }
  for (const t of UTT_TARGETS) model.utterance[t] = fitRidge([...UTTERANCE_FEATURES], ux, uy[t], [0, 10]);
  fs.writeFileSync(MODEL_FILE, JSON.stringify(roundModel(model), null, 1) + '\n');
  console.log(JSON.stringify({ fittedOn: data.length, phones: py.length, words: wx.length, file: path.relative(process.cwd(), MODEL_FILE) }));
}

/** The utterance feature vector exactly as the engine builds it (scoreReading's order). */
export function utteranceVector(r: LabelledReading, model: EnglishScoringModel): number[] {
  const scored = scoreReading(r.evidence, r.signal, model);
  return utteranceFeatures(
    r.evidence,
    scored.words.flatMap((w) => w.phones),
    scored.words.map((w) => w.total),
    scored.words.map((w) => w.stressJudgement),
    scored.fluency,
    scored.intonation,
  );
}

function roundModel(m: EnglishScoringModel): EnglishScoringModel {
  const r = (lm: LinearModel): LinearModel => ({
    ...lm,
    mean: lm.mean.map((v) => +v.toPrecision(6)),
    std: lm.std.map((v) => +v.toPrecision(6)),
    weights: lm.weights.map((v) => +v.toPrecision(6)),
    bias: +lm.bias.toPrecision(6),
  });
  return {
    trainedOn: m.trainedOn,
    phone: r(m.phone),
    word: { accuracy: r(m.word.accuracy), stress: r(m.word.stress), total: r(m.word.total) },
    utterance: {
      accuracy: r(m.utterance.accuracy), completeness: r(m.utterance.completeness), fluency: r(m.utterance.fluency),
      prosodic: r(m.utterance.prosodic), total: r(m.utterance.total),
    },
  };
}

async function main(): Promise<void> {
  const cmd = process.argv[2];
  const cache = arg('cache', DEFAULT_CACHE);
  if (cmd === 'extract') {
    const split = arg('split', 'train') as 'train' | 'test';
    await extract(split, cache, Number(arg('limit', '100000')));
  } else if (cmd === 'fit') {
    await fitAll(cache);
  } else {
    console.error('usage: train-en-so762.ts extract|fit [--split train|test] [--limit N] [--cache DIR]');
    process.exitCode = 2;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();

/**
 * Trains the whole band's classifier of English phones (src/en/phone-spectrum: model.json) on
 * the speechocean762 TRAIN half, from the engine's own alignments in the extraction cache of
 * tools/train-en-so762.ts, and gives the scoring model its two inputs (the expected phone's log
 * posterior and its margin over the most probable other phone):
 *
 *   npx tsx tools/train-en-so762.ts extract --split train   # and --split test
 *   npx tsx tools/train-phone-en.ts [--cache DIR] [--hidden H] [--members M] [--out FILE]
 *   npx tsx tools/train-en-so762.ts fit
 *
 * Examples are the read phones the experts judged correct (mean score 1.5 or more), each its
 * aligned frames as a segment of the log mel spectrum (src/dsp/mel-segments.ts), labelled with
 * the expected phone. The scoring model must be fitted on opinions the classifier gives phones
 * it never heard, as the engine's are: the train half is split into the five folds of speakers
 * that `cv` uses, and each fold's phones get the opinions of a classifier trained on the other
 * four; those are written into the train half's cache. Then the shipped classifier is trained on
 * the whole train half, and the test half's cache gets its opinions (what the engine now gives
 * them). Prints how often the most probable phone is the expected one on the held-out folds and
 * the correlation of the log posterior with the experts' phone scores on both halves.
 */
import fs from 'node:fs';
import path from 'node:path';
import { decodeAudio } from '../src/audio/decode.js';
import { melSpectra } from '../src/dsp/mel-segments.js';
import { loadEnglishLexicon, type EnglishLexicon } from '../src/en/lexicon/index.js';
import { PHONE_SPECTRUM_FILE, spectralFeatures, phoneOpinion, type PhoneSpectrumModel } from '../src/en/phone-spectrum/classifier.js';
import { pearson } from '../src/en/scoring-model/linear.js';
import { trainEnsemble, type Example } from './mlp-ensemble.js';
import { arg, cachePath, DEFAULT_CACHE, labelled, readCached, readScores, SO762_DIR, speakerFolds, type CachedUtterance } from './train-en-so762.js';

/** A cached utterance with its spectra and, per phone, the experts' mean score (NaN: not labelled). */
interface Reading {
  split: 'train' | 'test';
  cached: CachedUtterance;
  spectra: Float32Array[];
  expert: number[][];
}

async function readings(cache: string, split: 'train' | 'test', lexicon: EnglishLexicon): Promise<Reading[]> {
  const scores = readScores(split);
  const out: Reading[] = [];
  for (const id of Object.keys(scores).sort()) {
    const cached = readCached(cache, split, id);
    if (!cached) continue;
    const audio = await decodeAudio(fs.readFileSync(path.join(SO762_DIR, split, `${id}.opus`)));
    const { wordLabel } = labelled(lexicon, cached, scores[id]);
    const expert = cached.evidence.words.map((w, i) => w.phones.map((_, k) => (wordLabel[i] >= 0 ? scores[id].words[wordLabel[i]].phonesAccuracy[k] : NaN)));
    out.push({ split, cached, spectra: melSpectra(audio.pcm), expert });
  }
  console.error(`${split}: ${out.length} utterances`);
  return out;
}

/** Every read phone of the readings, with its place. */
function* readPhones(rs: readonly Reading[]) {
  for (const [u, r] of rs.entries()) {
    for (const [i, w] of r.cached.evidence.words.entries()) {
      if (w.status === 'omitted') continue;
      for (const [k, p] of w.phones.entries()) yield { u, r, p, expert: r.expert[i][k] };
    }
  }
}

function examples(rs: readonly Reading[], phones: readonly string[]): Example[] {
  const out: Example[] = [];
  for (const { u, r, p, expert } of readPhones(rs)) {
    const x = expert >= 1.5 ? spectralFeatures(r.spectra, p.startFrame, p.endFrame) : null;
    if (x) out.push({ x, y: phones.indexOf(p.phone), utt: u });
  }
  return out;
}

/** Writes each read phone's opinion under `model` into the readings; returns how many of the correct ones it names right. */
function annotate(model: PhoneSpectrumModel, rs: readonly Reading[]): { right: number; correct: number } {
  const tally = { right: 0, correct: 0 };
  const r4 = (v: number) => Math.round(v * 1e4) / 1e4;
  for (const { r, p, expert } of readPhones(rs)) {
    const o = phoneOpinion(model, r.spectra, p.phone, p.startFrame, p.endFrame);
    const mutable = p as { spectral?: readonly [number, number] };
    if (o) mutable.spectral = [r4(o[0]), r4(o[1])];
    else delete mutable.spectral;
    if (o && expert >= 1.5) {
      tally.correct++;
      if (o[1] > 0) tally.right++;
    }
  }
  return tally;
}

/** Pearson of the log posterior with the experts' phone scores, over the labelled read phones. */
function agreement(rs: readonly Reading[]): number {
  const pairs = [...readPhones(rs)].filter(({ p, expert }) => p.spectral && Number.isFinite(expert));
  return Math.round(pearson(pairs.map(({ p }) => p.spectral![0]), pairs.map(({ expert }) => expert)) * 1000) / 1000;
}

async function main(): Promise<void> {
  const cache = arg('cache', DEFAULT_CACHE);
  const out = arg('out', PHONE_SPECTRUM_FILE);
  const lexicon = await loadEnglishLexicon();
  const train = await readings(cache, 'train', lexicon);
  const test = await readings(cache, 'test', lexicon);
  if (train.length < 50) throw new Error(`only ${train.length} cached train utterances; run tools/train-en-so762.ts extract first`);
  const phones = [...new Set([...readPhones(train)].map(({ p }) => p.phone))].sort();
  const opts = { hidden: Number(arg('hidden', '32')), epochs: 60, folds: Number(arg('members', '4')), seed: 1, l2: 1e-4, classes: phones.length };
  const describe = (n: number) => ({ phones, trainedOn: `speechocean762 train half, ${n} read phones the experts judged correct, from the engine's alignments` });
  // Held-out opinions for the train half, fold by fold of speakers (the folds of `cv`).
  const folds = speakerFolds(train.map((r) => r.cached.id));
  const heldOut = { right: 0, correct: 0 };
  for (let f = 0; f < 5; f++) {
    const data = examples(train.filter((_, i) => folds[i] !== f), phones);
    const t = annotate({ ...trainEnsemble(data, opts), ...describe(data.length) }, train.filter((_, i) => folds[i] === f));
    heldOut.right += t.right;
    heldOut.correct += t.correct;
    console.error(`fold ${f + 1} of 5`);
  }
  const data = examples(train, phones);
  const model: PhoneSpectrumModel = { ...describe(data.length), ...trainEnsemble(data, opts) };
  fs.writeFileSync(out, JSON.stringify(model) + '\n');
  const onTest = annotate(model, test);
  for (const r of [...train, ...test]) fs.writeFileSync(cachePath(cache, r.split, r.cached.id), JSON.stringify(r.cached));
  console.log(JSON.stringify({
    file: path.relative(process.cwd(), out), phones: phones.length, examples: data.length,
    trainHeldOut: { mostProbableRight: Math.round((heldOut.right / heldOut.correct) * 1000) / 1000, pearsonWithExperts: agreement(train) },
    test: { mostProbableRight: Math.round((onTest.right / onTest.correct) * 1000) / 1000, pearsonWithExperts: agreement(test) },
  }));
}

await main();

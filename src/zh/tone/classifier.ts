/**
 * Tone classifier: an ensemble of one-hidden-layer perceptrons (tanh) with a softmax over tones
 * 1–4, on standardised features (features.ts); the posterior is the members' mean, which is
 * better calibrated than any one member (Lakshminarayanan et al. 2017, deep ensembles). Trained
 * by tools/train-tone-zh.ts on native read speech; the weights live in model.json beside this
 * file. Pure inference, no I/O after loading.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Hidden layer: w1[h][i], b1[h]; output layer: w2[c][h], b2[c]; classes are tones 1..4. */
export interface ToneNet {
  w1: number[][];
  b1: number[];
  w2: number[][];
  b2: number[];
}

/** An ensemble on standardised inputs. */
export interface ToneEnsemble {
  /** Input means and standard deviations used to standardise inputs. */
  mean: number[];
  std: number[];
  nets: ToneNet[];
}

/** The classifier proper: the first ensemble, and the second stage when there is one. */
export interface ToneStages extends ToneEnsemble {
  /**
   * Second stage in context (stacking, Wolpert 1992): the syllable's features followed by the
   * first stage's posteriors of the syllable itself, of the previous and of the next judged
   * syllable (uniform where there is none). Tones are realised against their neighbours, and
   * what the first stage heard there says how.
   */
  context?: ToneEnsemble;
}

export interface ToneModel extends ToneStages {
  version: string;
  /** Training summary (data, held-out accuracy) for the record. */
  trainedOn: string;
  heldOutAccuracy: number;
}

export const MODEL_PATH = path.join(import.meta.dirname, 'model.json');

let loaded: ToneModel | null = null;

export function loadToneModel(file = MODEL_PATH): ToneModel {
  if (file === MODEL_PATH && loaded) return loaded;
  const model = JSON.parse(fs.readFileSync(file, 'utf8')) as ToneModel;
  if (file === MODEL_PATH) loaded = model;
  return model;
}

/** Standardised features. */
export function standardised(model: Pick<ToneEnsemble, 'mean' | 'std'>, x: ArrayLike<number>): Float64Array {
  const z = new Float64Array(model.mean.length);
  for (let i = 0; i < z.length; i++) z[i] = (x[i] - model.mean[i]) / (model.std[i] || 1);
  return z;
}

/** One member's hidden activations and class probabilities (index 0 is tone 1). */
export function netForward(net: ToneNet, z: Float64Array): { hidden: Float64Array; probs: Float64Array } {
  const hidden = new Float64Array(net.b1.length);
  for (let h = 0; h < hidden.length; h++) {
    let s = net.b1[h];
    const w = net.w1[h];
    for (let i = 0; i < z.length; i++) s += w[i] * z[i];
    hidden[h] = Math.tanh(s);
  }
  const logits = new Float64Array(net.b2.length);
  let max = -Infinity;
  for (let c = 0; c < logits.length; c++) {
    let s = net.b2[c];
    const w = net.w2[c];
    for (let h = 0; h < hidden.length; h++) s += w[h] * hidden[h];
    logits[c] = s;
    max = Math.max(max, s);
  }
  let sum = 0;
  for (let c = 0; c < logits.length; c++) {
    logits[c] = Math.exp(logits[c] - max);
    sum += logits[c];
  }
  for (let c = 0; c < logits.length; c++) logits[c] /= sum;
  return { hidden, probs: logits };
}

/** One ensemble's posterior over tones 1–4 (index 0 is tone 1): the mean of the members'. */
export function classifyTone(model: ToneEnsemble, features: ArrayLike<number>): Float64Array {
  const z = standardised(model, features);
  const out = new Float64Array(4);
  for (const net of model.nets) {
    const p = netForward(net, z).probs;
    for (let c = 0; c < out.length; c++) out[c] += p[c] / model.nets.length;
  }
  return out;
}

/** Whether a syllable's tone is judged (and trained on): a full tone expected, not a neutral one. */
export function isJudgedTone(expected: number, citation: number): boolean {
  return expected >= 1 && expected <= 4 && citation !== 5;
}

const UNIFORM = new Float64Array([0.25, 0.25, 0.25, 0.25]);

/** The second stage's input for syllable k: its features, then its own, the previous and the next first-stage posteriors. */
export function contextInput(features: ArrayLike<number>, first: readonly (Float64Array | null)[], k: number): number[] {
  return [...Array.from(features), ...(first[k] ?? UNIFORM), ...(first[k - 1] ?? UNIFORM), ...(first[k + 1] ?? UNIFORM)];
}

/**
 * Posteriors of a reading's syllables (null where `features` is null). `judged[k]` says whether
 * syllable k's tone is judged (a full tone expected, not neutral): only those serve as context,
 * as in training. A model without a second stage classifies each syllable alone.
 */
export function classifyTones(model: ToneStages, features: readonly (ArrayLike<number> | null)[], judged: readonly boolean[]): (Float64Array | null)[] {
  const first = features.map((f) => (f ? classifyTone(model, f) : null));
  const context = model.context;
  if (!context) return first;
  const neighbours = first.map((p, k) => (judged[k] ? p : null));
  return features.map((f, k) => (f && judged[k] ? classifyTone(context, contextInput(f, neighbours, k)) : first[k]));
}

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

export interface ToneModel {
  version: string;
  /** Feature means and standard deviations used to standardise inputs. */
  mean: number[];
  std: number[];
  nets: ToneNet[];
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
export function standardised(model: Pick<ToneModel, 'mean' | 'std'>, x: ArrayLike<number>): Float64Array {
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

/** Posterior over tones 1–4 (index 0 is tone 1): the mean of the members'. */
export function classifyTone(model: Pick<ToneModel, 'mean' | 'std' | 'nets'>, features: ArrayLike<number>): Float64Array {
  const z = standardised(model, features);
  const out = new Float64Array(4);
  for (const net of model.nets) {
    const p = netForward(net, z).probs;
    for (let c = 0; c < out.length; c++) out[c] += p[c] / model.nets.length;
  }
  return out;
}

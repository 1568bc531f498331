/**
 * Tone classifier: a one-hidden-layer perceptron (tanh) with a softmax over tones 1–4, on
 * standardised features (features.ts). Trained by tools/train-tone-zh.ts on native read speech;
 * the weights live in model.json beside this file. Pure inference, no I/O after loading.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface ToneModel {
  version: string;
  /** Feature means and standard deviations used to standardise inputs. */
  mean: number[];
  std: number[];
  /** Hidden layer: w1[h][i], b1[h]; output layer: w2[c][h], b2[c]; classes are tones 1..4. */
  w1: number[][];
  b1: number[];
  w2: number[][];
  b2: number[];
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

/** Hidden activations and class probabilities (index 0 is tone 1). */
export function forward(model: ToneModel, x: ArrayLike<number>): { hidden: Float64Array; probs: Float64Array } {
  const z = new Float64Array(model.mean.length);
  for (let i = 0; i < z.length; i++) z[i] = (x[i] - model.mean[i]) / (model.std[i] || 1);
  const hidden = new Float64Array(model.b1.length);
  for (let h = 0; h < hidden.length; h++) {
    let s = model.b1[h];
    const w = model.w1[h];
    for (let i = 0; i < z.length; i++) s += w[i] * z[i];
    hidden[h] = Math.tanh(s);
  }
  const logits = new Float64Array(model.b2.length);
  let max = -Infinity;
  for (let c = 0; c < logits.length; c++) {
    let s = model.b2[c];
    const w = model.w2[c];
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

/** Posterior over tones 1–4 (index 0 is tone 1). */
export function classifyTone(model: ToneModel, features: ArrayLike<number>): Float64Array {
  return forward(model, features).probs;
}

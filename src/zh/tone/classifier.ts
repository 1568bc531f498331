/**
 * Tone classifier: an ensemble of perceptrons (src/classify/ensemble.ts) with a softmax over tones 1–4, on
 * standardised features (features.ts). Trained by tools/train-tone-zh.ts on native read speech;
 * the weights live in model.json beside this file. Pure inference, no I/O after loading.
 */
import fs from 'node:fs';
import path from 'node:path';
import { posterior, type Ensemble } from '../../classify/ensemble.js';

/** The tone ensemble: classes are tones 1..4 (index 0 is tone 1). */
export type ToneEnsemble = Ensemble;

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

/** One ensemble's posterior over tones 1–4 (index 0 is tone 1): the mean of the members'. */
export function classifyTone(model: ToneEnsemble, features: ArrayLike<number>): Float64Array {
  return posterior(model, features);
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

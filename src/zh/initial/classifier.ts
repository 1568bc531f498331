/**
 * Initial classifier: an ensemble of perceptrons (../ensemble.ts) over the onset features of
 * features.ts, with a softmax over INITIAL_CLASSES (the pinyin initials as spelled, y and w
 * included, and none). Trained by tools/train-initial-zh.ts on native read speech; the weights
 * live in model.json beside this file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { posterior, type Ensemble } from '../ensemble.js';

/** The classes, in the model's order: '' is a syllable spelled without an initial (an, e, ou). */
export const INITIAL_CLASSES = ['', 'b', 'p', 'm', 'f', 'd', 't', 'n', 'l', 'g', 'k', 'h', 'j', 'q', 'x', 'zh', 'ch', 'sh', 'r', 'z', 'c', 's', 'y', 'w'] as const;

export interface InitialModel extends Ensemble {
  version: string;
  /** Training summary (data, held-out accuracy) for the record. */
  trainedOn: string;
  heldOutAccuracy: number;
  /** A model trained on part of the data: the utterances it never saw. */
  heldOut?: string[];
}

export const MODEL_PATH = path.join(import.meta.dirname, 'model.json');

let loaded: InitialModel | null = null;

export function loadInitialModel(file = MODEL_PATH): InitialModel {
  if (file === MODEL_PATH && loaded) return loaded;
  const model = JSON.parse(fs.readFileSync(file, 'utf8')) as InitialModel;
  if (model.nets[0]?.b2.length !== INITIAL_CLASSES.length) throw new Error(`${file}: not a model of the ${INITIAL_CLASSES.length} initial classes`);
  if (file === MODEL_PATH) loaded = model;
  return model;
}

/** Posterior of each initial class (INITIAL_CLASSES order). */
export function classifyInitial(model: InitialModel, features: ArrayLike<number>): Float64Array {
  return posterior(model, features);
}

/**
 * Classifiers of a syllable's parts: an ensemble of perceptrons (src/classify/ensemble.ts) over the
 * features of features.ts, with a softmax over the part's classes (the initials as pinyin spells
 * them, y and w included, and none; the finals as spelled after them). Trained by
 * tools/train-part-zh.ts on native read speech; the weights live beside this file, one model per
 * part (initial.json, final.json), each listing its classes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { posterior, type Ensemble } from '../../classify/ensemble.js';
import type { SyllablePart } from './features.js';

export interface PartModel extends Ensemble {
  part: SyllablePart;
  /** The classes in output order: '' is no initial (an, e, ou). */
  classes: string[];
  version: string;
  /** Training summary (data, held-out accuracy) for the record. */
  trainedOn: string;
  heldOutAccuracy: number;
  /** A model trained on part of the data: the utterances it never saw. */
  heldOut?: string[];
}

export const modelPath = (part: SyllablePart) => path.join(import.meta.dirname, `${part}.json`);

const loaded = new Map<string, PartModel>();

/** The model of a part: the shipped one, or another file (a model trained on half the data). */
export function loadPartModel(part: SyllablePart, file = modelPath(part)): PartModel {
  const model = loaded.get(file) ?? (JSON.parse(fs.readFileSync(file, 'utf8')) as PartModel);
  if (model.part !== part || !Array.isArray(model.classes) || model.nets[0]?.b2.length !== model.classes.length) throw new Error(`${file}: not a model of the ${part}s`);
  loaded.set(file, model);
  return model;
}

/** Posterior of each class (the model's `classes` order). */
export function classifyPart(model: PartModel, features: ArrayLike<number>): Float64Array {
  return posterior(model, features);
}

/**
 * The fitted English scoring model: linear maps from acoustic evidence to the expert scales
 * of speechocean762 (phone 0-2, word and utterance 0-10), fitted on its train half by
 * tools/train-en-so762.ts and stored as model.json beside this file. Loaded once.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { LinearModel } from './linear.js';
import { PHONE_FEATURES, UTTERANCE_FEATURES, WORD_FEATURES, type PhoneStats } from './features.js';

export interface EnglishScoringModel {
  /** What it was fitted on (split, utterance count, date) — provenance, not used in scoring. */
  trainedOn: { corpus: string; split: 'train'; utterances: number; fittedAt: string };
  phoneStats: PhoneStats;
  phone: LinearModel;
  word: { accuracy: LinearModel; stress: LinearModel; total: LinearModel };
  utterance: { accuracy: LinearModel; completeness: LinearModel; fluency: LinearModel; prosodic: LinearModel; total: LinearModel };
  /**
   * The reader's part of a phone's score: speechocean762's experts score every phone of a
   * halting reader lower, so a phone's score is its probability plus `weight` times the
   * sentence's fitted fluency (0-10) less `centre` (score.ts `phonesInReading`).
   */
  phoneReader: PhoneReader;
}

export interface PhoneReader {
  weight: number;
  centre: number;
}

export const MODEL_FILE = path.join(import.meta.dirname, 'model.json');

let cached: EnglishScoringModel | null = null;

export function loadEnglishScoringModel(file = MODEL_FILE): EnglishScoringModel {
  if (file === MODEL_FILE && cached) return cached;
  const model = JSON.parse(fs.readFileSync(file, 'utf8')) as EnglishScoringModel;
  check(model.phone, PHONE_FEATURES, 'phone');
  for (const m of Object.values(model.word)) check(m, WORD_FEATURES, 'word');
  for (const m of Object.values(model.utterance)) check(m, UTTERANCE_FEATURES, 'utterance');
  if (Object.values(model.phoneStats).some((s) => s.length !== 5)) {
    throw new Error('English scoring model: phone statistics lack the phone priors; refit with tools/train-en-so762.ts');
  }
  if (!Number.isFinite(model.phoneReader?.weight) || !Number.isFinite(model.phoneReader?.centre)) {
    throw new Error("English scoring model: the reader's part of the phone scores is missing; refit with tools/train-en-so762.ts");
  }
  if (file === MODEL_FILE) cached = model;
  return model;
}

/** A model file written for another feature list would score garbage silently; refuse it. */
function check(m: LinearModel, names: readonly string[], level: string): void {
  if (m.names.length !== names.length || m.names.some((n, i) => n !== names[i]) || m.lo?.length !== names.length || m.hi?.length !== names.length) {
    throw new Error(`English scoring model: ${level} features differ from the code; refit with tools/train-en-so762.ts`);
  }
}

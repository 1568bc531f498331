/**
 * Shared set-up of the English engine tests: one in-thread acoustic backend and lexicon per
 * test file, real recordings from the shared data folder, configs through the real parser.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createInThreadBackend } from '../../src/acoustic/backend.js';
import type { AcousticBackend } from '../../src/acoustic/types.js';
import { decodeAudio, type DecodedAudio } from '../../src/audio/decode.js';
import { parseEvaluationConfig, type EvaluationConfig } from '../../src/evaluation/config.js';
import { loadEnglishLexicon } from '../../src/en/lexicon/index.js';
import { createEnglishEngine, type EnglishEngine } from '../../src/en/engine/index.js';
import { SHARED_DATA_DIR, testConfig } from '../helpers/app.js';

export const EN_DATA = path.join(SHARED_DATA_DIR, 'en');

let shared: Promise<{ engine: EnglishEngine; backend: AcousticBackend }> | null = null;

export function englishEngine(): Promise<{ engine: EnglishEngine; backend: AcousticBackend }> {
  shared ??= (async () => {
    const backend = createInThreadBackend(testConfig(), { langs: ['en'] });
    return { backend, engine: createEnglishEngine({ backend, lexicon: await loadEnglishLexicon() }) };
  })();
  return shared;
}

export async function closeEngine(): Promise<void> {
  if (shared) await (await shared).backend.close();
  shared = null;
}

export async function audio(...rel: string[]): Promise<DecodedAudio> {
  return decodeAudio(fs.readFileSync(path.join(EN_DATA, ...rel)));
}

export function config(fields: Record<string, unknown>): EvaluationConfig {
  return parseEvaluationConfig({ coreType: 'sentence', language: 'en-US', ...fields });
}

/** A 9.7 s LJ Speech sentence (22.05 kHz FLAC, so the decoder resamples it). */
export const LJ1 = {
  file: ['ljspeech', 'wavs', 'LJ001-0001.flac'],
  text: 'Printing, in the only sense with which we are at present concerned, differs from most if not from all the arts and crafts represented in the Exhibition',
};
export const LJ2 = { file: ['ljspeech', 'wavs', 'LJ001-0002.flac'], text: 'in being comparatively modern.' };
export const LJ8 = { file: ['ljspeech', 'wavs', 'LJ001-0008.flac'], text: 'has never been surpassed.' };
export const HARVARD1 = { file: ['harvard', 'resources', 'export_1.flac'], text: 'The birch canoe slid on the smooth planks.' };
export const LIBRIVOX1 = {
  file: ['librivox', 'sense_and_sensibility_01_austen_64kb-0870.flac'],
  text: 'And Mr. John Dashwood had then leisure to consider how much there might be prudently in his power to do for them.',
};
export const SO762 = { file: ['speechocean762', 'train', '000010011.opus'], text: 'WE CALL IT BEAR' };

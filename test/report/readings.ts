/**
 * Real engine assessments for the report tests: the Mandarin and English engines on recordings
 * from ../shared/data, through an in-thread acoustic backend opened once per test process.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createInThreadBackend } from '../../src/acoustic/backend.js';
import type { AcousticBackend } from '../../src/acoustic/types.js';
import type { Assessment } from '../../src/assessment/types.js';
import { decodeAudio } from '../../src/audio/decode.js';
import { createEnglishEngine, type EnglishEngine } from '../../src/en/engine/index.js';
import { parseEvaluationConfig, type EvaluationConfig } from '../../src/evaluation/config.js';
import { createMandarinEngine, type MandarinEngine } from '../../src/zh/engine/engine.js';
import { REPO_ROOT, SHARED_DATA_DIR, tempDir } from '../helpers/app.js';

export const ZH_AUDIO = {
  /** 有一个重要指标就是它的经常性账户顺逆差 */
  w0133: path.join(SHARED_DATA_DIR, 'zh', 'aishell-s0150', 'BAC009S0150W0133.flac'),
  /** 设定二十九度 (numerals in the text) */
  w0001: path.join(SHARED_DATA_DIR, 'zh', 'aishell-s0150', 'BAC009S0150W0001.flac'),
};
export const ZH_TEXT = { w0133: '有一个重要指标就是它的经常性账户顺逆差', w0001: '设定二十九度' };
/** LibriVox, native read speech. */
export const EN_AUDIO = path.join(SHARED_DATA_DIR, 'en', 'librivox', 'sense_and_sensibility_01_austen_64kb-0880.flac');
export const EN_TEXT = 'He was not an ill disposed young man.';

let backend: AcousticBackend | null = null;
let zh: Promise<MandarinEngine> | null = null;
let en: EnglishEngine | null = null;

function openBackend(): AcousticBackend {
  backend ??= createInThreadBackend({ modelsDir: path.join(REPO_ROOT, 'models'), dataDir: tempDir('kouyu-report-') });
  return backend;
}

export function config(fields: Record<string, unknown>): EvaluationConfig {
  return parseEvaluationConfig({ coreType: 'sentence', ...fields });
}

/** Assesses `audio` with `fields` (language decides the engine). */
export async function assess(audio: string, fields: Record<string, unknown>): Promise<{ a: Assessment; config: EvaluationConfig }> {
  const c = config(fields);
  const decoded = await decodeAudio(fs.readFileSync(audio));
  if (c.language === 'zh-CN') {
    zh ??= createMandarinEngine({ backend: openBackend(), modelsDir: path.join(REPO_ROOT, 'models') });
    return { a: await (await zh).assess(c, decoded), config: c };
  }
  en ??= createEnglishEngine({ backend: openBackend() });
  return { a: await en.assess(c, decoded), config: c };
}

export async function closeReadings(): Promise<void> {
  await backend?.close();
  backend = null;
}

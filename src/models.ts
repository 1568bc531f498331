/**
 * The one resolver for speech-model paths. Everything that loads a model asks here.
 *
 * Layout under KOUYU_MODELS_DIR (see each folder's SOURCE.md, and scripts/fetch-models.sh
 * which downloads the same files):
 *   pocketsphinx-zh/tdt_sc_8k/          Mandarin acoustic model (toneless initials/finals)
 *   pocketsphinx-zh/mandarin_notone.dic Mandarin pronunciation dictionary
 *   pocketsphinx-zh/gigatdt.5000.DMP    Mandarin trigram LM (needs repair before loading)
 *   ekho-mandarin/pinyin.voice          human-recorded syllables; syllables.tsv indexes them
 * The English model comes from Debian's pocketsphinx-en-us package unless the models folder
 * has a pocketsphinx-en-us folder of the same layout.
 */
import fs from 'node:fs';
import path from 'node:path';

export const DEBIAN_EN_US_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';

export interface ModelPaths {
  zh: { acoustic: string; dict: string; lmDmp: string };
  en: { acoustic: string; dict: string; lm: string; phoneLm: string };
  ekho: { voice: string; index: string };
}

export function resolveModels(modelsDir: string): ModelPaths {
  const zhDir = path.join(modelsDir, 'pocketsphinx-zh');
  const localEn = path.join(modelsDir, 'pocketsphinx-en-us');
  const enDir = fs.existsSync(localEn) ? localEn : DEBIAN_EN_US_MODEL_DIR;
  const ekhoDir = path.join(modelsDir, 'ekho-mandarin');
  return {
    zh: {
      acoustic: path.join(zhDir, 'tdt_sc_8k'),
      dict: path.join(zhDir, 'mandarin_notone.dic'),
      lmDmp: path.join(zhDir, 'gigatdt.5000.DMP'),
    },
    en: {
      acoustic: path.join(enDir, 'en-us'),
      dict: path.join(enDir, 'cmudict-en-us.dict'),
      lm: path.join(enDir, 'en-us.lm.bin'),
      phoneLm: path.join(enDir, 'en-us-phone.lm.bin'),
    },
    ekho: {
      voice: path.join(ekhoDir, 'pinyin.voice'),
      index: path.join(ekhoDir, 'syllables.tsv'),
    },
  };
}

/** Lists the model files that are missing, so start-up can say exactly what to fetch. */
export function missingModelFiles(paths: ModelPaths): string[] {
  const all = [paths.zh.acoustic, paths.zh.dict, paths.en.acoustic, paths.en.dict, paths.ekho.voice, paths.ekho.index];
  return all.filter((p) => !fs.existsSync(p));
}

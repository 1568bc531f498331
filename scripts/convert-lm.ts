/**
 * Converts the Mandarin DMP language model into the ARPA file the recogniser loads, ahead of the
 * first request (the service otherwise converts it at start-up of the acoustic backend).
 * Reads the same configuration as the service (KOUYU_MODELS_DIR, KOUYU_DATA_DIR).
 *
 * Usage: npx tsx scripts/convert-lm.ts
 */
import { loadConfig } from '../src/config.js';
import { resolveModels } from '../src/models.js';
import { ensureArpaFromDmp } from '../src/acoustic/lm/cache.js';
import { cacheDirOf } from '../src/acoustic/recognize.js';

const config = loadConfig();
const source = resolveModels(config.modelsDir).zh.lmDmp;
const started = performance.now();
const result = ensureArpaFromDmp(source, cacheDirOf(config.dataDir));
const ms = Math.round(performance.now() - started);
if (result.converted) {
  console.log(`converted ${source} -> ${result.path} in ${ms} ms (${result.droppedTrigrams} trigrams dropped)`);
} else {
  console.log(`already converted: ${result.path}`);
}

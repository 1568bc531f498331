/**
 * The repaired Mandarin language model, converted once and cached.
 *
 * The DMP model in the models folder cannot be loaded by libpocketsphinx 5prealpha (see dmp.ts).
 * At first use it is read leniently and written as ARPA text under the data directory's cache
 * folder (never into the models folder, which may be read-only). The cache file name carries the
 * source's size and modification time, so a replaced model is converted again. Writing goes to a
 * temporary name and is renamed into place, so concurrent workers never see a half-written file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readDmp } from './dmp.js';
import { renderArpa } from './arpa.js';

export interface CachedLm {
  /** ARPA file to hand to the decoder. */
  path: string;
  /** True when this call did the conversion (false: an earlier conversion was reused). */
  converted: boolean;
  /** Trigrams dropped by the conversion (only known when converted in this call). */
  droppedTrigrams: number | null;
}

/** Cache file for a DMP model, keyed by its name, size and modification time. */
export function cachedArpaPath(dmpPath: string, cacheDir: string): string {
  const st = fs.statSync(dmpPath);
  const stem = path.basename(dmpPath).replace(/\.dmp$/i, '').replace(/[^A-Za-z0-9._-]/g, '_');
  return path.join(cacheDir, 'lm', `${stem}-${st.size}-${Math.floor(st.mtimeMs)}.arpa`);
}

/**
 * Returns an ARPA version of `dmpPath` under `cacheDir` (normally `${dataDir}/cache`), converting
 * it first if needed (about 1 s for the 5,000-word Mandarin model). Throws DmpFormatError when the
 * source is not a readable DMP file.
 */
export function ensureArpaFromDmp(dmpPath: string, cacheDir: string): CachedLm {
  const target = cachedArpaPath(dmpPath, cacheDir);
  if (fs.existsSync(target)) return { path: target, converted: false, droppedTrigrams: null };
  const model = readDmp(fs.readFileSync(dmpPath));
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const tmp = `${target}.${process.pid}.${Date.now()}.tmp`;
  try {
    fs.writeFileSync(tmp, renderArpa(model));
    fs.renameSync(tmp, target);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  return { path: target, converted: true, droppedTrigrams: model.droppedTrigrams };
}

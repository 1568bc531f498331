/**
 * Worker-thread side of the synthesis service: engines are loaded on the first task of each
 * thread and kept for its lifetime. Errors come back as values so that a validation failure
 * (40001) keeps its meaning across the thread boundary.
 */
import { ApiError } from '../errors.js';
import { resolveModels } from '../models.js';
import { EkhoStore } from './ekho/store.js';
import { loadEspeak } from './espeak/engine.js';
import { synthesizeWith, type Engines, type SynthesisOverrides } from './synthesize.js';
import type { SynthesisRequest, SynthesisResult } from './types.js';

export interface SynthesisTask {
  req: SynthesisRequest;
  overrides?: SynthesisOverrides;
  modelsDir: string;
  espeak: 'wasm' | 'cli';
}

export type SynthesisReply =
  | { ok: true; result: Omit<SynthesisResult, 'audio'> & { audio: Uint8Array } }
  | { ok: false; invalid: boolean; message: string };

let engines: Promise<Engines> | null = null;

/** Loads (once per thread) the engines for the given models folder. */
export function loadEngines(modelsDir: string, espeak: 'wasm' | 'cli'): Promise<Engines> {
  engines ??= (async () => {
    const paths = resolveModels(modelsDir);
    let ekho: EkhoStore | null = null;
    try {
      ekho = new EkhoStore(paths.ekho.index, paths.ekho.voice);
    } catch {
      ekho = null; // Mandarin then needs the eSpeak engine; synthesize reports the missing voice
    }
    return { espeak: await loadEspeak(espeak), ekho };
  })();
  return engines;
}

export default async function runTask(task: SynthesisTask): Promise<SynthesisReply> {
  try {
    const e = await loadEngines(task.modelsDir, task.espeak);
    const r = await synthesizeWith(e, task.req, task.overrides ?? {});
    return { ok: true, result: { ...r, audio: new Uint8Array(r.audio.buffer, r.audio.byteOffset, r.audio.length) } };
  } catch (err) {
    const invalid = err instanceof ApiError && err.code === 40001;
    return { ok: false, invalid, message: err instanceof Error ? err.message : String(err) };
  }
}

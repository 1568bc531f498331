/**
 * Messages between the progress host (main thread) and its worker threads. Audio travels as a
 * transferred ArrayBuffer of 16 kHz mono signed 16-bit samples. `rid` pairs a reply with its
 * request; `id` names the session. The worker's first message (rid 0) says it is ready.
 */
import type { FastScoring } from '../config.js';
import type { AcousticLang, AlignUnit, ProgressUpdate } from './types.js';

export interface ProgressWorkerData {
  modelsDir: string;
  langs: AcousticLang[];
  /** Decoders loaded per language when the thread starts. */
  decodersPerLang: number;
  /** How frames are scored (config.ts `FastScoring`). */
  fastScoring: FastScoring;
}

export type ProgressRequest =
  | { op: 'open'; rid: number; id: number; lang: AcousticLang; reference: AlignUnit[] }
  | { op: 'push'; rid: number; id: number; pcm: ArrayBuffer }
  | { op: 'finish'; rid: number; id: number }
  | { op: 'close'; rid: number; id: number };

export type ProgressReply = { rid: number; ok: true; update: ProgressUpdate | null } | { rid: number; ok: false; error: string };

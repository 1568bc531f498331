/**
 * Messages between the backend (main thread) and the acoustic workers, and the dispatcher
 * both the workers and the in-thread backend run. Audio travels as a transferred ArrayBuffer
 * of 16 kHz mono signed 16-bit samples: only a call's window of it (cut by the backend).
 */
import { SAMPLES_PER_FRAME, type AcousticLang, type AlignOptions, type PassOptions, type AlignResult, type FrameWindow, type GrammarSpec, type PhoneSegment, type RecognizeResult, type UnitSegment } from './types.js';
import type { SphinxEngine } from './sphinx/engine.js';
import type { Recognizer } from './recognize.js';

export type AcousticTask =
  | { op: 'ready' }
  | { op: 'align'; lang: AcousticLang; pcm: ArrayBuffer; grammar: GrammarSpec; opts: Omit<AlignOptions, 'window'> }
  | { op: 'alignPhones'; lang: AcousticLang; pcm: ArrayBuffer; grammar: GrammarSpec; units: UnitSegment[]; pass: PassOptions }
  | { op: 'phoneLoop'; lang: AcousticLang; pcm: ArrayBuffer; pass: PassOptions }
  | { op: 'recognize'; lang: AcousticLang; pcm: ArrayBuffer };

export type AcousticTaskResult =
  | { op: 'ready'; threadId: number }
  | { op: 'align'; result: AlignResult }
  | { op: 'alignPhones'; result: AlignResult }
  | { op: 'phoneLoop'; result: PhoneSegment[] }
  | { op: 'recognize'; result: RecognizeResult };

/** What a thread holds: the engine, and the free recogniser built on the engine's decoders. */
export interface TaskContext {
  engine: SphinxEngine;
  /** Created on first use (the Mandarin language model is converted once into a cache). */
  recognizer: () => Recognizer;
  threadId: number;
}

/** Runs one task on an engine; throws only when the engine itself fails. */
export function runTask(ctx: TaskContext, task: AcousticTask): AcousticTaskResult {
  const { engine } = ctx;
  switch (task.op) {
    case 'ready':
      return { op: 'ready', threadId: ctx.threadId };
    case 'align':
      return { op: 'align', result: engine.align(task.lang, new Int16Array(task.pcm), task.grammar, task.opts) };
    case 'alignPhones':
      return { op: 'alignPhones', result: engine.alignPhones(task.lang, new Int16Array(task.pcm), task.grammar, task.units, task.pass) };
    case 'phoneLoop':
      return { op: 'phoneLoop', result: engine.phoneLoop(task.lang, new Int16Array(task.pcm), task.pass) };
    case 'recognize': {
      const lexicon = task.lang === 'zh' ? engine.lexicon('zh') : null;
      const result = ctx.recognizer().recognize(task.lang, engine.decoder(task.lang), new Int16Array(task.pcm), lexicon);
      return { op: 'recognize', result };
    }
  }
}

/** A copy of the samples in a buffer of their own, ready to transfer (the caller keeps its array). */
export function ownBuffer(pcm: Int16Array): ArrayBuffer {
  const copy = new Int16Array(pcm.length);
  copy.set(pcm);
  return copy.buffer;
}

/**
 * The samples of a window and the frame they start at, with the engine's own rounding and
 * clamping (whole frames, inside the audio). The pool sends only these samples, so a window
 * call on a 60 s passage copies its window rather than the whole recording; the whole audio
 * when there is no window.
 */
export function cutWindow(pcm: Int16Array, window?: FrameWindow): { pcm: Int16Array; startFrame: number } {
  if (!window) return { pcm, startFrame: 0 };
  const total = Math.floor(pcm.length / SAMPLES_PER_FRAME);
  const start = Math.max(0, Math.min(total, Math.floor(window.startFrame)));
  const end = Math.max(start, Math.min(total, Math.floor(window.endFrame)));
  return { pcm: pcm.subarray(start * SAMPLES_PER_FRAME, end * SAMPLES_PER_FRAME), startFrame: start };
}

/** Phone segments moved `frames` later (results on a cut window, back on the whole audio's axis). */
export function shiftPhones(phones: PhoneSegment[], frames: number): PhoneSegment[] {
  if (frames === 0) return phones;
  return phones.map((p) => ({ ...p, startFrame: p.startFrame + frames, endFrame: p.endFrame + frames }));
}

/**
 * An alignment moved `frames` later (units, their phones, and a phone loop when one came
 * back); `frames` (the window's length) and failures are unchanged.
 */
export function shiftAlignment(result: AlignResult, frames: number): AlignResult {
  if (!result.ok || frames === 0) return result;
  const units = shiftUnits(result.units, frames);
  const loop = 'loop' in result && Array.isArray(result.loop) ? { loop: shiftPhones(result.loop as PhoneSegment[], frames) } : {};
  return { ...result, units, ...loop };
}

/** Units (and their phones) moved `frames` later. */
export function shiftUnits(units: UnitSegment[], frames: number): UnitSegment[] {
  if (frames === 0) return units;
  return units.map((u) => ({ ...u, startFrame: u.startFrame + frames, endFrame: u.endFrame + frames, phones: shiftPhones(u.phones, frames) }));
}

/** A task context whose recogniser is built on first use. */
export function taskContext(engine: SphinxEngine, makeRecognizer: () => Recognizer, threadId: number): TaskContext {
  let recognizer: Recognizer | null = null;
  return { engine, threadId, recognizer: () => (recognizer ??= makeRecognizer()) };
}

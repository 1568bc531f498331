/**
 * Messages between the backend (main thread) and the acoustic workers, and the dispatcher
 * both the workers and the in-thread backend run. Audio travels as a transferred ArrayBuffer
 * of 16 kHz mono signed 16-bit samples.
 */
import type { AcousticLang, AlignOptions, AlignResult, FrameWindow, GrammarSpec, PhoneSegment } from './types.js';
import type { SphinxEngine } from './sphinx/engine.js';

export type AcousticTask =
  | { op: 'ready' }
  | { op: 'align'; lang: AcousticLang; pcm: ArrayBuffer; grammar: GrammarSpec; opts: AlignOptions }
  | { op: 'phoneLoop'; lang: AcousticLang; pcm: ArrayBuffer; window?: FrameWindow };

export type AcousticTaskResult = { op: 'ready'; threadId: number } | { op: 'align'; result: AlignResult } | { op: 'phoneLoop'; result: PhoneSegment[] };

/** Runs one task on an engine; throws only when the engine itself fails. */
export function runTask(engine: SphinxEngine, task: AcousticTask, threadId: number): AcousticTaskResult {
  switch (task.op) {
    case 'ready':
      return { op: 'ready', threadId };
    case 'align':
      return { op: 'align', result: engine.align(task.lang, new Int16Array(task.pcm), task.grammar, task.opts) };
    case 'phoneLoop':
      return { op: 'phoneLoop', result: engine.phoneLoop(task.lang, new Int16Array(task.pcm), { window: task.window }) };
  }
}

/** A copy of the samples in a buffer of their own, ready to transfer (the caller keeps its array). */
export function ownBuffer(pcm: Int16Array): ArrayBuffer {
  const copy = new Int16Array(pcm.length);
  copy.set(pcm);
  return copy.buffer;
}

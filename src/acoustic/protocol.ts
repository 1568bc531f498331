/**
 * Messages between the backend (main thread) and the acoustic workers, and the dispatcher
 * both the workers and the in-thread backend run. Audio travels as a transferred ArrayBuffer
 * of 16 kHz mono signed 16-bit samples.
 */
import type { AcousticLang, AlignOptions, AlignResult, FrameWindow, GrammarSpec, PhoneSegment, RecognizeResult } from './types.js';
import type { SphinxEngine } from './sphinx/engine.js';
import type { Recognizer } from './recognize.js';

export type AcousticTask =
  | { op: 'ready' }
  | { op: 'align'; lang: AcousticLang; pcm: ArrayBuffer; grammar: GrammarSpec; opts: AlignOptions }
  | { op: 'phoneLoop'; lang: AcousticLang; pcm: ArrayBuffer; window?: FrameWindow }
  | { op: 'recognize'; lang: AcousticLang; pcm: ArrayBuffer };

export type AcousticTaskResult =
  | { op: 'ready'; threadId: number }
  | { op: 'align'; result: AlignResult }
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
    case 'phoneLoop':
      return { op: 'phoneLoop', result: engine.phoneLoop(task.lang, new Int16Array(task.pcm), { window: task.window }) };
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

/** A task context whose recogniser is built on first use. */
export function taskContext(engine: SphinxEngine, makeRecognizer: () => Recognizer, threadId: number): TaskContext {
  let recognizer: Recognizer | null = null;
  return { engine, threadId, recognizer: () => (recognizer ??= makeRecognizer()) };
}

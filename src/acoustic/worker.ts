/**
 * Acoustic pool worker. Piscina imports this module when the thread starts, so the decoders
 * (150-230 ms each) and their recognition language models load before the thread reports
 * ready, and live as long as the thread.
 * Piscina gives a thread one task at a time (concurrentTasksPerWorker 1), and the decoder
 * calls are synchronous, so a decoder never serves two requests at once.
 */
import { threadId } from 'node:worker_threads';
import { workerData } from 'piscina';
import type { FastScoring } from '../config.js';
import { SphinxEngine, type DecoderArgs } from './sphinx/engine.js';
import { runTask, taskContext, type AcousticTask, type AcousticTaskResult } from './protocol.js';
import { Recognizer, type RecognizerSetup } from './recognize.js';
import type { AcousticLang } from './types.js';

export interface AcousticWorkerData {
  modelsDir: string;
  /** Language-model files for recognition (the Mandarin one converted by the main thread). */
  recognition: RecognizerSetup;
  langs: AcousticLang[];
  decoderArgs: DecoderArgs;
  /** Config.fastScoring. */
  fastScoring: FastScoring;
}

const data = workerData as AcousticWorkerData;
const engine = SphinxEngine.create(data.modelsDir, data.langs, data.decoderArgs, data.fastScoring);
const ctx = taskContext(engine, () => new Recognizer(data.recognition), threadId);
// The n-gram searches load here too (1-2 s for Mandarin), so the first ASR request does not pay.
for (const lang of data.langs) ctx.recognizer().prepare(lang, engine.decoder(lang));

export default function handle(task: AcousticTask): AcousticTaskResult {
  return runTask(ctx, task);
}

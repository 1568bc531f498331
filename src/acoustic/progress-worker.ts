/**
 * Progress worker thread: hosts the decoders of real-time sessions.
 *
 * A session keeps one decoder for its whole life (the utterance's search state lives in it), so
 * sessions cannot run in the stateless alignment pool, where consecutive tasks may land on any
 * thread. Each progress thread keeps, per language, a free list of decoders: a few are loaded at
 * start-up (before the thread reports ready), more are loaded when more sessions are open at
 * once (about 0.1 s of CPU each, during which the thread's other sessions wait), and a finished
 * session's decoder goes back to the list for the next session.
 * Messages are handled one at a time, in order, so a decoder is never used by two sessions.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { resolveModels } from '../models.js';
import { SphinxDecoder } from './sphinx/decoder.js';
import { ProgressTracker } from './progress-tracker.js';
import type { ProgressReply, ProgressRequest, ProgressWorkerData } from './progress-protocol.js';
import type { AcousticLang } from './types.js';

const data = workerData as ProgressWorkerData;
const paths = resolveModels(data.modelsDir);
const free = new Map<AcousticLang, ProgressTracker[]>();
const sessions = new Map<number, ProgressTracker>();

function newTracker(lang: AcousticLang): ProgressTracker {
  const model = lang === 'zh' ? paths.zh : paths.en;
  return new ProgressTracker(lang, SphinxDecoder.create({ hmm: model.acoustic, dict: model.dict, fastScoring: data.fastScoring }));
}

function checkout(lang: AcousticLang): ProgressTracker {
  return free.get(lang)?.pop() ?? newTracker(lang);
}

function release(id: number): void {
  const tracker = sessions.get(id);
  if (!tracker) return;
  sessions.delete(id);
  tracker.stop();
  free.get(tracker.lang)?.push(tracker);
}

function handle(msg: ProgressRequest): ProgressReply | null {
  switch (msg.op) {
    case 'open': {
      const tracker = checkout(msg.lang);
      sessions.set(msg.id, tracker);
      try {
        tracker.start(msg.reference);
      } catch (err) {
        release(msg.id);
        throw err;
      }
      return { rid: msg.rid, ok: true, update: null };
    }
    case 'push': {
      const tracker = sessions.get(msg.id);
      if (!tracker) throw new Error('progress session is closed');
      return { rid: msg.rid, ok: true, update: tracker.push(new Int16Array(msg.pcm)) };
    }
    case 'finish': {
      const tracker = sessions.get(msg.id);
      if (!tracker) throw new Error('progress session is closed');
      const update = tracker.finish();
      release(msg.id);
      return { rid: msg.rid, ok: true, update };
    }
    case 'close':
      release(msg.id);
      return null;
  }
}

for (const lang of data.langs) free.set(lang, Array.from({ length: Math.max(1, data.decodersPerLang) }, () => newTracker(lang)));
const port = parentPort;
if (!port) throw new Error('progress-worker must run in a worker thread');
port.on('message', (msg: ProgressRequest) => {
  try {
    const reply = handle(msg);
    if (reply) port.postMessage(reply);
  } catch (err) {
    port.postMessage({ rid: msg.rid, ok: false, error: err instanceof Error ? err.message : String(err) } satisfies ProgressReply);
  }
});
port.postMessage({ rid: 0, ok: true, update: null } satisfies ProgressReply);

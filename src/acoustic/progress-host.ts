/**
 * Real-time progress sessions for the service: the main-thread side of the progress workers.
 *
 * Why separate threads from the alignment pool: a session's decoder holds the search state of an
 * utterance for as long as the session lasts, while the pool hands each task to whichever thread
 * is free. A few dedicated threads (default 1) each own their sessions' decoders. The grammar
 * search costs about 1.7% (Mandarin) and 5% (English) of one core per session, measured as CPU
 * time, so one thread on an otherwise idle core carries roughly 50 Mandarin or 15 English
 * readers; on a loaded machine fewer. Sessions go to the thread with the fewest open sessions. Every decode happens in a
 * worker, so the event loop only passes messages.
 */
import { Worker } from 'node:worker_threads';
import type { FastScoring } from '../config.js';
import type { AcousticLang, AlignUnit, ProgressSession, ProgressUpdate } from './types.js';
import type { ProgressReply, ProgressRequest, ProgressWorkerData } from './progress-protocol.js';

export interface ProgressHostOptions {
  modelsDir: string;
  /** Worker threads for sessions (default 1). */
  threads?: number;
  langs?: AcousticLang[];
  /**
   * Decoders loaded per language and thread at start (default 2). More sessions at once are
   * served by decoders loaded on demand, which delays that thread's other sessions by about
   * 0.1 s of CPU each, so size this to the expected concurrent sessions per thread.
   */
  decodersPerLang?: number;
  /** How frames are scored (config.ts `FastScoring`; default `on`; the same results every way). */
  fastScoring?: FastScoring;
}

/** A request before the thread numbers it (Omit distributed over the union). */
type Unnumbered = ProgressRequest extends infer R ? (R extends ProgressRequest ? Omit<R, 'rid'> : never) : never;

type Pending = { resolve: (u: ProgressUpdate | null) => void; reject: (e: Error) => void };

/**
 * Starts the worker module beside this file: worker.js from dist; from source (tests, tools run
 * through tsx) the .ts module, loaded after registering tsx inside the thread, because Node 20
 * does not carry the main thread's loader hooks into worker threads.
 */
function startWorker(workerData: ProgressWorkerData): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./progress-worker.js', import.meta.url), { workerData });
  const url = JSON.stringify(new URL('./progress-worker.ts', import.meta.url).href);
  const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${url}); });`;
  return new Worker(boot, { eval: true, workerData });
}

class ProgressThread {
  sessions = 0;
  private rid = 0;
  private readonly pending = new Map<number, Pending>();
  private failure: Error | null = null;

  constructor(private readonly worker: Worker) {
    worker.on('message', (reply: ProgressReply) => {
      const p = this.pending.get(reply.rid);
      if (!p) return;
      this.pending.delete(reply.rid);
      if (reply.ok) p.resolve(reply.update);
      else p.reject(new Error(reply.error));
    });
    const fail = (err: Error) => {
      this.failure = err;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`progress worker exited with code ${code}`)));
  }

  /** Resolves when the worker has loaded its first decoders. */
  ready(): Promise<unknown> {
    return new Promise((resolve, reject) => this.pending.set(0, { resolve, reject }));
  }

  request(msg: Unnumbered, transfer?: ArrayBuffer): Promise<ProgressUpdate | null> {
    if (this.failure) return Promise.reject(this.failure);
    const rid = ++this.rid;
    return new Promise((resolve, reject) => {
      this.pending.set(rid, { resolve, reject });
      this.worker.postMessage({ ...msg, rid }, transfer ? [transfer] : []);
    });
  }

  /** Fire-and-forget message (close). */
  post(msg: Unnumbered): void {
    if (!this.failure) this.worker.postMessage({ ...msg, rid: -1 });
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }
}

class HostedSession implements ProgressSession {
  private state: 'open' | 'finished' | 'closed' = 'open';
  private readonly opened: Promise<unknown>;

  constructor(
    private readonly thread: ProgressThread,
    private readonly id: number,
    lang: AcousticLang,
    reference: AlignUnit[],
  ) {
    thread.sessions++;
    this.opened = thread.request({ op: 'open', id, lang, reference });
    // A failed open surfaces on the next push or finish; keep it from being unhandled meanwhile.
    this.opened.catch(() => this.release());
  }

  push(pcm: Int16Array): Promise<ProgressUpdate> {
    if (this.state !== 'open') return Promise.reject(new Error('progress session is no longer open'));
    const copy = new Int16Array(pcm);
    return this.opened.then(() => this.expect(this.thread.request({ op: 'push', id: this.id, pcm: copy.buffer }, copy.buffer)));
  }

  finish(): Promise<ProgressUpdate> {
    if (this.state !== 'open') return Promise.reject(new Error('progress session is no longer open'));
    this.state = 'finished';
    const done = this.opened.then(() => this.expect(this.thread.request({ op: 'finish', id: this.id })));
    return done.finally(() => this.release());
  }

  close(): void {
    if (this.state === 'open') this.thread.post({ op: 'close', id: this.id });
    this.release();
  }

  private release(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.thread.sessions--;
  }

  private async expect(p: Promise<ProgressUpdate | null>): Promise<ProgressUpdate> {
    const update = await p;
    if (!update) throw new Error('progress worker sent no update');
    return update;
  }
}

export class ProgressHost {
  private nextId = 1;

  private constructor(private readonly threads: ProgressThread[]) {}

  /** Starts the threads and waits until each has loaded a decoder per language. */
  static async start(opts: ProgressHostOptions): Promise<ProgressHost> {
    const workerData: ProgressWorkerData = { modelsDir: opts.modelsDir, langs: opts.langs ?? ['zh', 'en'], decodersPerLang: opts.decodersPerLang ?? 2, fastScoring: opts.fastScoring ?? 'on' };
    const threads = Array.from({ length: Math.max(1, opts.threads ?? 1) }, () => new ProgressThread(startWorker(workerData)));
    try {
      await Promise.all(threads.map((t) => t.ready()));
    } catch (err) {
      await Promise.all(threads.map((t) => t.terminate()));
      throw err;
    }
    return new ProgressHost(threads);
  }

  /** Opens a session; audio pushed to it is decoded in order on one thread. */
  open(lang: AcousticLang, reference: AlignUnit[]): ProgressSession {
    const thread = this.threads.reduce((a, b) => (b.sessions < a.sessions ? b : a));
    return new HostedSession(thread, this.nextId++, lang, reference);
  }

  /** Open sessions per thread (for readiness and load reporting). */
  load(): number[] {
    return this.threads.map((t) => t.sessions);
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.terminate()));
  }
}

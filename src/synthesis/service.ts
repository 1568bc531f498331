/**
 * The transport-free TTS service: owns a pool of worker threads (piscina), each with its own
 * loaded engines, so synthesis never blocks the event loop. The HTTP routes validate the body
 * (validateSynthesisRequest), resolve tenant voices to a base voice plus a profile, then call
 * `synthesize`.
 *
 * @example
 *   const tts = createSynthesisService(config);
 *   const req = validateSynthesisRequest(body);
 *   const { audio, durationSec, warnings } = await tts.synthesize(req);
 *   await tts.close();
 */
import { Piscina } from 'piscina';
import type { Config } from '../config.js';
import { invalid } from '../errors.js';
import type { SynthesisOverrides } from './synthesize.js';
import type { SynthesisReply, SynthesisTask } from './worker.js';
import type { SynthesisRequest, SynthesisResult } from './types.js';

export interface SynthesisService {
  synthesize(req: SynthesisRequest, overrides?: SynthesisOverrides): Promise<SynthesisResult>;
  /** Loads the engines in every thread (start-up; readiness). */
  warm(): Promise<void>;
  close(): Promise<void>;
}

export interface SynthesisServiceOptions {
  /** Worker threads (default: min(2, config.workers)). */
  threads?: number;
  /** eSpeak build: in-process WebAssembly (default) or the Debian binary. */
  espeak?: 'wasm' | 'cli';
}

function workerFile(): { filename: string; execArgv: string[] } {
  // Under tsx (tests, dev) this module is .ts and the worker must load through tsx as well.
  const ts = import.meta.url.endsWith('.ts');
  const filename = new URL(ts ? './worker.ts' : './worker.js', import.meta.url).href;
  return { filename, execArgv: ts ? ['--import', 'tsx'] : [] };
}

export function createSynthesisService(config: Config, opts: SynthesisServiceOptions = {}): SynthesisService {
  const threads = Math.max(1, opts.threads ?? Math.min(2, config.workers));
  const { filename, execArgv } = workerFile();
  const pool = new Piscina({ filename, minThreads: threads, maxThreads: threads, execArgv, idleTimeout: 60_000 });
  const espeak = opts.espeak ?? 'wasm';
  const run = async (req: SynthesisRequest, overrides?: SynthesisOverrides): Promise<SynthesisResult> => {
    const task: SynthesisTask = { req, overrides, modelsDir: config.modelsDir, espeak };
    const reply = (await pool.run(task)) as SynthesisReply;
    if (!reply.ok) throw reply.invalid ? invalid(reply.message) : new Error(reply.message);
    const r = reply.result;
    return { ...r, audio: Buffer.from(r.audio.buffer, r.audio.byteOffset, r.audio.byteLength) };
  };
  return {
    synthesize: run,
    async warm() {
      const probe: SynthesisRequest = { text: '你好', language: 'zh-CN', voice: 'female', format: 'wav', speed: 50, pitch: 50, volume: 50 };
      await Promise.all(Array.from({ length: threads }, () => run(probe)));
    },
    close: () => pool.destroy(),
  };
}

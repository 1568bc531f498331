/**
 * The PocketSphinx acoustic backend: a pool of worker threads (piscina), sized to
 * `config.workers`, each holding one decoder per language created at start-up; or, for tools
 * and benchmarks, the same engine in the calling thread.
 */
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { Config } from '../config.js';
import { resolveModels } from '../models.js';
import { loadDictionary, type LoadedLexicon } from './lexicon.js';
import { ownBuffer, runTask, type AcousticTask, type AcousticTaskResult } from './protocol.js';
import { SphinxEngine } from './sphinx/engine.js';
import type {
  AcousticBackend,
  AcousticLang,
  AlignOptions,
  AlignResult,
  AlignUnit,
  GrammarSpec,
  Lexicon,
  PhoneSegment,
  ProgressSession,
  RecognizeResult,
} from './types.js';
import type { AcousticWorkerData } from './worker.js';

const LANGS: AcousticLang[] = ['zh', 'en'];

export interface BackendOptions {
  /** Languages to load (default both). */
  langs?: AcousticLang[];
}

/** The worker module beside this file: worker.ts when running from source (tsx), worker.js from dist. */
function workerFile(): string {
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return fileURLToPath(new URL(`./worker${ext}`, import.meta.url));
}

function loadLexicons(modelsDir: string, langs: AcousticLang[]): Map<AcousticLang, LoadedLexicon> {
  const paths = resolveModels(modelsDir);
  const map = new Map<AcousticLang, LoadedLexicon>();
  for (const lang of langs) map.set(lang, loadDictionary(lang === 'zh' ? paths.zh.dict : paths.en.dict, lang));
  return map;
}

abstract class BaseBackend implements AcousticBackend {
  constructor(private readonly lexicons: Map<AcousticLang, LoadedLexicon>) {}

  protected abstract run(task: AcousticTask, transfer: boolean): Promise<AcousticTaskResult>;

  async align(lang: AcousticLang, pcm: Int16Array, grammar: GrammarSpec, opts: AlignOptions = {}): Promise<AlignResult> {
    const out = await this.run({ op: 'align', lang, pcm: ownBuffer(pcm), grammar, opts }, true);
    if (out.op !== 'align') throw new Error(`acoustic worker answered ${out.op} to align`);
    return out.result;
  }

  async phoneLoop(lang: AcousticLang, pcm: Int16Array, opts: { window?: AlignOptions['window'] } = {}): Promise<PhoneSegment[]> {
    const out = await this.run({ op: 'phoneLoop', lang, pcm: ownBuffer(pcm), window: opts.window }, true);
    if (out.op !== 'phoneLoop') throw new Error(`acoustic worker answered ${out.op} to phoneLoop`);
    return out.result;
  }

  /** Free recognition is built on the same decoders by the recognition module (not in this backend yet). */
  async recognize(_lang: AcousticLang, _pcm: Int16Array): Promise<RecognizeResult> {
    throw new Error('free recognition is not available in this acoustic backend');
  }

  /** Real-time progress is built by the progress module (not in this backend yet). */
  openProgress(_lang: AcousticLang, _reference: AlignUnit[]): ProgressSession {
    throw new Error('real-time progress is not available in this acoustic backend');
  }

  lexicon(lang: AcousticLang): Lexicon {
    const lex = this.lexicons.get(lang);
    if (!lex) throw new Error(`no lexicon loaded for ${lang}`);
    return lex;
  }

  abstract close(): Promise<void>;
}

class PooledBackend extends BaseBackend {
  constructor(
    lexicons: Map<AcousticLang, LoadedLexicon>,
    private readonly pool: Piscina,
  ) {
    super(lexicons);
  }

  protected run(task: AcousticTask, transfer: boolean): Promise<AcousticTaskResult> {
    const transferList = transfer && 'pcm' in task ? [task.pcm] : undefined;
    return this.pool.run(task, { transferList });
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}

class InThreadBackend extends BaseBackend {
  constructor(
    lexicons: Map<AcousticLang, LoadedLexicon>,
    private readonly engine: SphinxEngine,
  ) {
    super(lexicons);
  }

  protected async run(task: AcousticTask): Promise<AcousticTaskResult> {
    return runTask(this.engine, task, 0);
  }

  async close(): Promise<void> {
    this.engine.close();
  }
}

/**
 * Starts `config.workers` threads, each loading its decoders, and resolves once every thread
 * has answered (so the service can report ready). Rejects if a model fails to load.
 */
export async function createAcousticBackend(config: Config, options: BackendOptions = {}): Promise<AcousticBackend> {
  const langs = options.langs ?? LANGS;
  const threads = Math.max(1, config.workers);
  const workerData: AcousticWorkerData = { modelsDir: config.modelsDir, langs };
  const pool = new Piscina({
    filename: workerFile(),
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Number.POSITIVE_INFINITY,
    concurrentTasksPerWorker: 1,
    workerData,
  });
  try {
    await Promise.all(Array.from({ length: threads }, () => pool.run({ op: 'ready' } satisfies AcousticTask)));
  } catch (err) {
    await pool.destroy();
    throw err;
  }
  return new PooledBackend(loadLexicons(config.modelsDir, langs), pool);
}

/** The same backend without threads: the engine runs in the calling thread (tools, benchmarks). */
export function createInThreadBackend(config: Pick<Config, 'modelsDir'>, options: BackendOptions = {}): AcousticBackend {
  const langs = options.langs ?? LANGS;
  return new InThreadBackend(loadLexicons(config.modelsDir, langs), SphinxEngine.create(config.modelsDir, langs));
}

/**
 * The PocketSphinx acoustic backend: a pool of worker threads (piscina), sized to
 * `config.workers`, each holding one decoder per language created at start-up, which serve
 * alignment, phone loops and free recognition; real-time progress sessions run on their own
 * threads (progress-host.ts), since a session keeps one decoder for its whole length. For tools
 * and benchmarks, the same engine can run in the calling thread.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { fileURLToPath } from 'node:url';
import { Piscina, type PiscinaTask, type TaskQueue } from 'piscina';
import type { Config } from '../config.js';
import { resolveModels } from '../models.js';
import { loadDictionary, type LoadedLexicon } from './lexicon.js';
import { cutWindow, ownBuffer, runTask, shiftAlignment, shiftPhones, shiftUnits, taskContext, type AcousticTask, type AcousticTaskResult, type TaskContext } from './protocol.js';
import { ProgressHost } from './progress-host.js';
import { cacheDirOf, Recognizer, recognizerSetup } from './recognize.js';
import { SphinxEngine, type DecoderArgs } from './sphinx/engine.js';
import type {
  AcousticBackend,
  AcousticLang,
  AlignOptions,
  PassOptions,
  WindowOptions,
  AlignResult,
  AlignUnit,
  GrammarSpec,
  Lexicon,
  PhoneSegment,
  ProgressSession,
  RecognizeResult,
  UnitSegment,
} from './types.js';
import type { AcousticWorkerData } from './worker.js';

const LANGS: AcousticLang[] = ['zh', 'en'];

export interface BackendOptions {
  /** Languages to load (default both). */
  langs?: AcousticLang[];
  /** Threads for real-time progress sessions (default 1; 0 starts none and openProgress throws). */
  progressThreads?: number;
  /** Extra options of the alignment decoders (tools measuring a front-end variant; see DecoderArgs). */
  decoderArgs?: DecoderArgs;
}

/** When the evaluation (or other request) that makes the current acoustic calls began. */
const requestStart = new AsyncLocalStorage<number>();

/**
 * Runs `work` as one request: the acoustic calls it makes queue behind the calls of requests
 * that began earlier. A request's calls come in waves (an alignment, then dozens of window
 * calls), and in plain arrival order five concurrent requests would interleave their waves
 * and all finish near the end; served by request, they finish one after another, which halves
 * the median latency at the tier's concurrency limit without changing the last one.
 */
export function asOneRequest<T>(work: () => Promise<T>): Promise<T> {
  return requestStart.run(performance.now(), work);
}

const ORDER = Piscina.queueOptionsSymbol;

/** Tasks ordered by the start of their request, then by arrival; calls outside a request by arrival. */
export class RequestOrderQueue implements TaskQueue {
  private readonly tasks: { order: number; seq: number; task: PiscinaTask }[] = [];
  private seq = 0;

  get size(): number {
    return this.tasks.length;
  }

  push(task: PiscinaTask): void {
    const options = task[ORDER as keyof PiscinaTask] as { order?: number } | null;
    const entry = { order: options?.order ?? performance.now(), seq: this.seq++, task };
    let i = this.tasks.length;
    while (i > 0 && (this.tasks[i - 1].order > entry.order || (this.tasks[i - 1].order === entry.order && this.tasks[i - 1].seq > entry.seq))) i--;
    this.tasks.splice(i, 0, entry);
  }

  shift(): PiscinaTask | null {
    return this.tasks.shift()?.task ?? null;
  }

  remove(task: PiscinaTask): void {
    const i = this.tasks.findIndex((e) => e.task === task);
    if (i >= 0) this.tasks.splice(i, 1);
  }
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
  /** `speakerNormalisation` false drops the callers' voice options (Config.speakerNormalisation). */
  constructor(
    private readonly lexicons: Map<AcousticLang, LoadedLexicon>,
    private readonly speakerNormalisation: boolean,
  ) {}

  /** The options of a pass that reach the decoder: the reading, and the voice unless normalisation is off. */
  private pass(opts: PassOptions): PassOptions {
    const out: PassOptions = opts.reading === undefined ? {} : { reading: opts.reading };
    return this.speakerNormalisation && opts.speakerF0 !== undefined ? { ...out, speakerF0: opts.speakerF0 } : out;
  }

  protected abstract run(task: AcousticTask, transfer: boolean): Promise<AcousticTaskResult>;

  /** A window is cut here (only its samples travel) and the answer shifted back onto the whole audio. */
  async align(lang: AcousticLang, pcm: Int16Array, grammar: GrammarSpec, opts: AlignOptions = {}): Promise<AlignResult> {
    const { window, speakerF0, reading, ...rest } = opts;
    const cut = cutWindow(pcm, window);
    const out = await this.run({ op: 'align', lang, pcm: ownBuffer(cut.pcm), grammar, opts: { ...rest, ...this.pass({ speakerF0, reading }) } }, true);
    if (out.op !== 'align') throw new Error(`acoustic worker answered ${out.op} to align`);
    return shiftAlignment(out.result, cut.startFrame);
  }

  /** As `align`: the units travel on the window's frame axis and come back on the whole audio's. */
  async alignPhones(lang: AcousticLang, pcm: Int16Array, grammar: GrammarSpec, units: UnitSegment[], opts: WindowOptions = {}): Promise<AlignResult> {
    const cut = cutWindow(pcm, opts.window);
    const local = shiftUnits(units, -cut.startFrame);
    const out = await this.run({ op: 'alignPhones', lang, pcm: ownBuffer(cut.pcm), grammar, units: local, pass: this.pass(opts) }, true);
    if (out.op !== 'alignPhones') throw new Error(`acoustic worker answered ${out.op} to alignPhones`);
    return shiftAlignment(out.result, cut.startFrame);
  }

  async phoneLoop(lang: AcousticLang, pcm: Int16Array, opts: WindowOptions = {}): Promise<PhoneSegment[]> {
    const cut = cutWindow(pcm, opts.window);
    const out = await this.run({ op: 'phoneLoop', lang, pcm: ownBuffer(cut.pcm), pass: this.pass(opts) }, true);
    if (out.op !== 'phoneLoop') throw new Error(`acoustic worker answered ${out.op} to phoneLoop`);
    return shiftPhones(out.result, cut.startFrame);
  }

  async recognize(lang: AcousticLang, pcm: Int16Array): Promise<RecognizeResult> {
    const out = await this.run({ op: 'recognize', lang, pcm: ownBuffer(pcm) }, true);
    if (out.op !== 'recognize') throw new Error(`acoustic worker answered ${out.op} to recognize`);
    return out.result;
  }

  abstract openProgress(lang: AcousticLang, reference: AlignUnit[]): ProgressSession;

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
    private readonly progress: ProgressHost | null,
    speakerNormalisation: boolean,
  ) {
    super(lexicons, speakerNormalisation);
  }

  openProgress(lang: AcousticLang, reference: AlignUnit[]): ProgressSession {
    if (!this.progress) throw new Error('this acoustic backend was started without progress threads');
    return this.progress.open(lang, reference);
  }

  protected run(task: AcousticTask, transfer: boolean): Promise<AcousticTaskResult> {
    const transferList = transfer && 'pcm' in task ? [task.pcm] : undefined;
    // The queue reads the order from the task; symbol keys do not travel to the worker.
    return this.pool.run({ ...task, [ORDER]: { order: requestStart.getStore() } }, { transferList });
  }

  async close(): Promise<void> {
    await Promise.all([this.pool.destroy(), this.progress?.close()]);
  }
}

class InThreadBackend extends BaseBackend {
  constructor(
    lexicons: Map<AcousticLang, LoadedLexicon>,
    private readonly ctx: TaskContext,
    speakerNormalisation: boolean,
  ) {
    super(lexicons, speakerNormalisation);
  }

  protected async run(task: AcousticTask): Promise<AcousticTaskResult> {
    return runTask(this.ctx, task);
  }

  /** Progress sessions need their own threads: use ProgressHost (progress-host.ts) directly. */
  openProgress(): ProgressSession {
    throw new Error('the in-thread acoustic backend has no progress sessions; start a ProgressHost');
  }

  async close(): Promise<void> {
    this.ctx.engine.close();
  }
}

/**
 * Starts `config.workers` threads, each loading its decoders, and resolves once every thread
 * has answered (so the service can report ready). Rejects if a model fails to load.
 */
export async function createAcousticBackend(config: Config, options: BackendOptions = {}): Promise<AcousticBackend> {
  const langs = options.langs ?? LANGS;
  const threads = Math.max(1, config.workers);
  // Converts the Mandarin language model once, here, rather than racing in every worker.
  const recognition = recognizerSetup(config.modelsDir, cacheDirOf(config.dataDir));
  const workerData: AcousticWorkerData = { modelsDir: config.modelsDir, recognition, langs, decoderArgs: options.decoderArgs ?? {}, fastScoring: config.fastScoring };
  const pool = new Piscina({
    filename: workerFile(),
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Number.POSITIVE_INFINITY,
    concurrentTasksPerWorker: 1,
    taskQueue: new RequestOrderQueue(),
    workerData,
  });
  const progressThreads = options.progressThreads ?? 1;
  const progress =
    progressThreads > 0 ? ProgressHost.start({ modelsDir: config.modelsDir, threads: progressThreads, langs, fastScoring: config.fastScoring }) : Promise.resolve(null);
  const ready = Promise.all(Array.from({ length: threads }, () => pool.run({ op: 'ready' } satisfies AcousticTask)));
  const [poolReady, host] = await Promise.allSettled([ready, progress]);
  if (poolReady.status === 'rejected' || host.status === 'rejected') {
    await Promise.all([pool.destroy(), host.status === 'fulfilled' ? host.value?.close() : undefined]);
    throw poolReady.status === 'rejected' ? poolReady.reason : (host as PromiseRejectedResult).reason;
  }
  return new PooledBackend(loadLexicons(config.modelsDir, langs), pool, host.value, config.speakerNormalisation);
}

/**
 * The same backend without threads: the engine runs in the calling thread (tools, benchmarks).
 * It has no progress sessions.
 */
export function createInThreadBackend(config: Pick<Config, 'modelsDir' | 'dataDir'> & Partial<Pick<Config, 'fastScoring' | 'speakerNormalisation'>>, options: BackendOptions = {}): AcousticBackend {
  const langs = options.langs ?? LANGS;
  const engine = SphinxEngine.create(config.modelsDir, langs, options.decoderArgs, config.fastScoring ?? 'on');
  const setup = () => new Recognizer(recognizerSetup(config.modelsDir, cacheDirOf(config.dataDir)));
  return new InThreadBackend(loadLexicons(config.modelsDir, langs), taskContext(engine, setup, 0), config.speakerNormalisation ?? true);
}

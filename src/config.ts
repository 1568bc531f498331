/**
 * Configuration is read from the environment once, here, into a typed object.
 * Nothing else in the code base reads `process.env`.
 */
import os from 'node:os';
import path from 'node:path';

export interface LimitsConfig {
  /** Gateway rate limits (code 3001), requests per minute. */
  ipPerMinute: number;
  userPerMinute: number;
  keyPerMinute: number;
  /** TTS and ASR calls per minute per key (spec: 60). */
  ttsAsrPerMinute: number;
  /** Daily call cap of sandbox keys (code 42903). */
  sandboxDailyCalls: number;
  /** Daily cap of AI (LLM) reports for trial-tier tenants (code 42902). */
  trialDailyAiReports: number;
}

export interface LlmConfig {
  /** OpenAI-compatible chat-completions base URL, e.g. http://host:port/v1. Unset: template reports only. */
  baseUrl: string | null;
  apiKey: string | null;
  model: string;
  timeoutMs: number;
}

/**
 * How frames are scored against the acoustic models: `off` by PocketSphinx alone; `on` by the
 * native codebook evaluation, with each frame's top-N lists (and the audio's cepstra) shared
 * between the passes of a reading; `unshared` natively, each pass on its own. The scores are
 * the same every way.
 */
export const FAST_SCORING = ['on', 'off', 'unshared'] as const;
export type FastScoring = (typeof FAST_SCORING)[number];

export interface Config {
  port: number;
  host: string;
  /**
   * Public base URL of the service (KOUYU_PUBLIC_BASE_URL, e.g. https://kouyu.example.com),
   * used for absolute download addresses (compat `audioUrl`); null: taken from each request.
   */
  publicBaseUrl: string | null;
  /**
   * Real-time rounds scored once the reading has ended and gone quiet, before `end`
   * (KOUYU_EARLY_SCORING, on by default; off: every round is scored on its whole upload
   * after `end`).
   */
  earlyScoring: boolean;
  /**
   * English and Mandarin frames scored by the native codebook evaluation (KOUYU_FAST_SCORING,
   * on by default; docs/acoustic.md, "Fast frame scoring"). Answers are the same every way;
   * off only spends more CPU.
   */
  fastScoring: FastScoring;
  /**
   * Features normalised for each reader's voice from the reading's pitch (KOUYU_VTLN, on by
   * default; docs/acoustic.md, "Speaker normalisation"). Off decodes every voice as it is.
   */
  speakerNormalisation: boolean;
  dataDir: string;
  modelsDir: string;
  /** PostgreSQL connection string; null selects the embedded SQLite file under dataDir. */
  databaseUrl: string | null;
  /** Redis connection string; null selects the embedded (database + memory) stores. */
  redisUrl: string | null;
  /** Secret for signing console JWTs; generated into dataDir on first start when unset. */
  jwtSecret: string | null;
  jwtTtlSeconds: number;
  /** Number of worker threads for CPU-heavy speech work; defaults to the core count. */
  workers: number;
  /** Log level for the HTTP server (pino levels), `silent` in tests. */
  logLevel: string;
  limits: LimitsConfig;
  llm: LlmConfig;
  // --- Storage section -------------------------------------------------------------------
  /**
   * Master key (KOUYU_SECRET_KEY: 32 bytes as 64 hex digits or base64) that encrypts API-key
   * secrets at rest with AES-256-GCM; null: generated once into `${dataDir}/secret.key`.
   */
  secretKey: Buffer | null;
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  }
  return value;
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = str(env, name);
  if (raw === null) return fallback;
  if ((values as readonly string[]).includes(raw)) return raw as T;
  throw new Error(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
}

function onOff(env: Env, name: string, fallback: boolean): boolean {
  const raw = str(env, name);
  if (raw === null) return fallback;
  if (raw === 'on') return true;
  if (raw === 'off') return false;
  throw new Error(`${name} must be on or off, got "${raw}"`);
}

function str(env: Env, name: string): string | null {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? null : raw.trim();
}

/** Parses and validates the environment. Throws with the variable's name on a bad value. */
export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
  const dataDir = path.resolve(cwd, str(env, 'KOUYU_DATA_DIR') ?? 'data');
  const modelsDir = path.resolve(cwd, str(env, 'KOUYU_MODELS_DIR') ?? 'models');
  return {
    port: int(env, 'PORT', 8080),
    host: str(env, 'HOST') ?? '0.0.0.0',
    publicBaseUrl: baseUrl(env, 'KOUYU_PUBLIC_BASE_URL'),
    earlyScoring: onOff(env, 'KOUYU_EARLY_SCORING', true),
    fastScoring: oneOf(env, 'KOUYU_FAST_SCORING', FAST_SCORING, 'on'),
    speakerNormalisation: onOff(env, 'KOUYU_VTLN', true),
    dataDir,
    modelsDir,
    databaseUrl: str(env, 'DATABASE_URL'),
    redisUrl: str(env, 'REDIS_URL'),
    jwtSecret: str(env, 'KOUYU_JWT_SECRET'),
    jwtTtlSeconds: int(env, 'KOUYU_JWT_TTL_SECONDS', 7200, 1),
    workers: int(env, 'KOUYU_WORKERS', 0) || defaultWorkers(),
    logLevel: str(env, 'KOUYU_LOG_LEVEL') ?? 'info',
    limits: {
      ipPerMinute: int(env, 'KOUYU_RATE_IP_PER_MIN', 600, 1),
      userPerMinute: int(env, 'KOUYU_RATE_USER_PER_MIN', 300, 1),
      keyPerMinute: int(env, 'KOUYU_RATE_KEY_PER_MIN', 300, 1),
      ttsAsrPerMinute: int(env, 'KOUYU_RATE_TTS_ASR_PER_MIN', 60, 1),
      sandboxDailyCalls: int(env, 'KOUYU_SANDBOX_DAILY_CALLS', 100, 1),
      trialDailyAiReports: int(env, 'KOUYU_TRIAL_DAILY_AI_REPORTS', 20, 0),
    },
    llm: {
      baseUrl: str(env, 'KOUYU_LLM_BASE_URL'),
      apiKey: str(env, 'KOUYU_LLM_API_KEY'),
      model: str(env, 'KOUYU_LLM_MODEL') ?? 'gpt-4o-mini',
      timeoutMs: int(env, 'KOUYU_LLM_TIMEOUT_MS', 20000, 1),
    },
    secretKey: masterKey(env, 'KOUYU_SECRET_KEY'),
  };
}

/** An http(s) URL without query or fragment, returned without its trailing slash. */
function baseUrl(env: Env, name: string): string | null {
  const raw = str(env, name);
  if (raw === null) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${name} must be an http or https URL, got "${raw}"`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash) {
    throw new Error(`${name} must be an http or https URL without query or fragment, got "${raw}"`);
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

// --- Storage section ---------------------------------------------------------------------
/** Parses a 256-bit key given as 64 hex digits or as base64; throws naming the variable. */
function masterKey(env: Env, name: string): Buffer | null {
  const raw = str(env, name);
  if (raw === null) return null;
  const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (key.length !== 32) throw new Error(`${name} must be 32 bytes as 64 hex digits or base64`);
  return key;
}

function defaultWorkers(): number {
  return Math.max(1, os.availableParallelism());
}

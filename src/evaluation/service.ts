/**
 * The evaluation service: one flow for every transport.
 *   decode audio → (compat) minimum length → scorer for the kind → standard audio → kept
 *   recording → report → record + usage + charge in one transaction → bare response.
 * Failures before the commit write nothing and meter nothing (spec, Metering). The report comes
 * last before the commit because writing it may spend a unit of the trial tier's daily
 * AI-report cap (42902): a call that fails at any earlier step spends nothing. Compat calls
 * keep the deterministic template report in the record (report lookup works for them) and
 * never call the model or touch the cap, since the compat result carries no report.
 * The real-time channels may hand in an early scoring of the round (ws/early.ts): the scorer
 * already ran on the audio up to the reader's endpoint, and the rest of the upload was silence.
 * Every other step runs on the whole upload as usual.
 * Each step's wall time is kept (`timings.platformStages`) for `timing=1` and the benchmark.
 */
import { asOneRequest } from '../acoustic/backend.js';
import type { DecodedAudio } from '../audio/decode.js';
import { LOW_SAMPLE_RATE_WARNING, decodeAudio, minDurationError } from '../audio/decode.js';
import { ApiError } from '../errors.js';
import { evaluationUsage } from '../metering/meters.js';
import { randomId } from '../storage/ids.js';
import type { Storage } from '../storage/types.js';
import { asCompatError } from './compat.js';
import type { EvaluationConfig } from './config.js';
import type { BareEvaluationResponse, CompatOptions, EvaluationInput, EvaluationOutput, EvaluationService, EvaluationTimings } from './types.js';

/** The current scoring standard (spec Versioning). */
export const RUBRIC_VERSION = 'v20260705a';

/**
 * Kouyu's own warning code for input at 8 kHz or below (the spec asks callers to be told
 * accuracy is lower but has no code for it; 1010 is outside the spec's 1001-1009 range).
 */
export const LOW_SAMPLE_RATE_CODE = 1010;

export interface ScoredEvaluation {
  /** The spec-shaped `result` object. */
  result: Record<string, unknown>;
  asrText?: Record<string, unknown>;
  /** Redundant top-level summary (spec: clients merge it with result.warning[]). */
  warnings: unknown[];
  /** Engine evidence for the report writer (typed by the engines). */
  assessment?: unknown;
  engineStages: Record<string, number>;
}

/** Scores one kind of task; the result already has the spec's shape for that kind. */
export interface KindScorer {
  score(request: { config: EvaluationConfig; audio: DecodedAudio; compat?: CompatOptions }): Promise<ScoredEvaluation>;
}

/** Finds the scorer of a task, or null when that kind is not available in this build. */
export type ScorerRegistry = (config: EvaluationConfig) => KindScorer | null;

export interface WriteOptions {
  /** false: the deterministic template report, without the model and outside the AI-report cap. */
  model?: boolean;
}

export interface ReportWriter {
  write(scored: ScoredEvaluation, config: EvaluationConfig, input: EvaluationInput, options?: WriteOptions): Promise<Record<string, unknown> | null>;
  /** Spends this call's unit of a report cap, or refuses (e.g. 42902); optional. */
  checkReportQuota?(principal: EvaluationInput['principal'], config: EvaluationConfig, input: EvaluationInput): Promise<void>;
  /** Refuses before any work when the cap is already used up, spending nothing; optional. */
  refuseOverReportCap?(principal: EvaluationInput['principal'], config: EvaluationConfig): Promise<void>;
}

export interface StandardAudioProvider {
  /** Synthesises the reference text; `scored` carries the readings the evaluation used. */
  create(config: EvaluationConfig, scored?: ScoredEvaluation): Promise<{ url: string; format: string; duration: string }>;
}

/** Keeps uploaded recordings for `attachAudioUrl=1` (7 days) and names their address. */
export interface RecordingStore {
  save(recordId: string, audio: Buffer, format: string): Promise<string>;
}

/** Runs one step and adds its wall time (ms) to `stages[name]`. */
async function timed<T>(stages: Record<string, number>, name: string, work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  try {
    return await work();
  } finally {
    stages[name] = (stages[name] ?? 0) + Math.round(performance.now() - start);
  }
}

export interface EvaluationServiceDeps {
  storage: Storage;
  scorers: ScorerRegistry;
  reports?: ReportWriter;
  standardAudio?: StandardAudioProvider;
  recordings?: RecordingStore;
  decode?: typeof decodeAudio;
}

const RECORD_PREFIX: Partial<Record<EvaluationConfig['coreType'], string>> = { connected: 'conn_', open: 'open_' };

export function createEvaluationService(deps: EvaluationServiceDeps): EvaluationService {
  const decode = deps.decode ?? decodeAudio;

  const scorerOf = (config: EvaluationConfig): KindScorer => {
    const scorer = deps.scorers(config);
    if (!scorer) throw new ApiError('NOT_IMPLEMENTED', `coreType ${config.coreType} for ${config.language} is not available in this version`);
    return scorer;
  };

  return {
    async score({ config, compat, audio }) {
      const scorer = scorerOf(config);
      return asOneRequest(() => scorer.score({ config, audio, compat }));
    },

    async evaluate(input: EvaluationInput): Promise<EvaluationOutput> {
      const { config, compat, principal } = input;
      const started = performance.now();
      // HTTP: `receivedAt` was taken when the request arrived (before upload parsing and
      // authentication), so the total counts from there. Real time: `receivedAt` is the start
      // frame and the recording follows; the total counts from the end of the recording.
      const beforeService = input.channel.endsWith('-http') ? Math.max(0, Date.now() - input.receivedAt) : 0;
      const stages: Record<string, number> = {};
      // A caller whose AI reports are used up for the day is refused before the engine runs;
      // the unit itself is spent only when the report is written (below).
      if (config.includeReport && !compat) await timed(stages, 'reportQuota', async () => deps.reports?.refuseOverReportCap?.(principal, config));
      const audio = input.decoded ?? (await timed(stages, 'decode', () => decode(input.audio)));
      if (input.channel.startsWith('compat')) {
        const tooShort = minDurationError(audio, 1);
        if (tooShort) throw tooShort;
      }
      const scorer = scorerOf(config);
      if (config.includeStandardAudio && !deps.standardAudio) {
        throw new ApiError('NOT_IMPLEMENTED', 'includeStandardAudio is not available in this version');
      }

      const engineStart = performance.now();
      const scored = input.early?.scored ?? (await asOneRequest(() => scorer.score({ config, audio, compat })).catch((err: unknown) => {
        throw compat ? asCompatError(err) : err;
      }));
      const engineMs = performance.now() - engineStart;

      // Compat `output_rawtext=1`: the reference text exactly as sent, beside the scores.
      if (compat?.outputRawText) scored.result.rawtext = config.referenceText;
      const recordId = randomId(RECORD_PREFIX[config.coreType] ?? 'eval_');
      const response: BareEvaluationResponse = { recordId, eof: 1, result: scored.result, warnings: [...scored.warnings] };
      if (audio.lowSampleRate) response.warnings.push({ code: LOW_SAMPLE_RATE_CODE, message: LOW_SAMPLE_RATE_WARNING });
      if (config.includeAsrText && scored.asrText) response.asrText = scored.asrText;
      if (config.includeStandardAudio && deps.standardAudio) {
        response.standardAudio = await timed(stages, 'standardAudio', () => deps.standardAudio!.create(config, scored));
      }
      if (compat?.attachAudioUrl && deps.recordings) {
        response.audioUrl = await timed(stages, 'recording', () => deps.recordings!.save(recordId, input.audio, audio.source.format));
      }
      if (config.includeReport && deps.reports) {
        const report = await timed(stages, 'report', () => deps.reports!.write(scored, config, input, { model: !compat }));
        if (report) response.report = report;
      }

      const committed = await timed(stages, 'commit', () =>
        deps.storage.ledger.commitSuccess({
          record: { id: recordId, tenantId: principal.tenantId, appKey: principal.meterKey, kind: compat?.kind ?? config.coreType, rubricVersion: RUBRIC_VERSION, response },
          usage: evaluationUsage(principal, config.referenceText, audio.durationSec),
          charge: principal.key ? { keyId: principal.key.id, units: 1 } : undefined,
        }),
      );
      if (!committed) throw new ApiError('QUOTA_EXHAUSTED');
      // Measured once, after the commit: the body's `timing` and the Server-Timing header
      // carry the same numbers.
      const totalMs = Math.round(beforeService + performance.now() - started);
      const timings: EvaluationTimings = {
        totalMs,
        engineMs: Math.round(engineMs),
        platformMs: Math.max(0, totalMs - Math.round(engineMs)),
        engineStages: scored.engineStages,
        platformStages: stages,
      };
      if (compat?.timing) {
        response.timing = {
          receivedAt: input.receivedAt,
          totalMs: timings.totalMs,
          engineMs: timings.engineMs,
          platformMs: timings.platformMs,
          engineStages: scored.engineStages,
          platformStages: { ...stages },
          audioBytes: input.audio.length,
          ...(input.early ? { earlyScoredAudioMs: Math.round(input.early.audioMs) } : {}),
        };
      }
      return { response, timings };
    },
  };
}

/**
 * What the evaluation transports (native and compat, HTTP and WebSocket) hand to the
 * evaluation service, and what they get back. Transports parse and present; the service
 * decodes, scores, writes the record and meters, the same way for every channel.
 */
import type { Principal } from '../auth/types.js';
import type { DecodedAudio } from '../audio/decode.js';
import type { EvaluationConfig } from './config.js';
import type { ScoredEvaluation } from './service.js';

export type Channel = 'native-http' | 'native-ws' | 'compat-http' | 'compat-ws';

/** Options the compat protocol adds on top of the native config. */
export interface CompatOptions {
  /** The compat coreType name as requested (e.g. `sent.eval.cn`). */
  kind: string;
  readtypeDiagnosis: boolean;
  attachAudioUrl: boolean;
  timing: boolean;
  /** `.pro` kinds without `dict_dialect`: British and American variants both accepted (scoringDialect). */
  adaptive: boolean;
  /** Caller-supplied pronunciations: word → pronunciation strings (see README). */
  lexicon: Record<string, string[]>;
  outputRawText: boolean;
}

export interface EvaluationInput {
  principal: Principal;
  channel: Channel;
  config: EvaluationConfig;
  /** The uploaded bytes, as sent (stored for attachAudioUrl). */
  audio: Buffer;
  /** Already decoded audio (the real-time channels decode while audio arrives). */
  decoded?: DecodedAudio;
  /**
   * The real-time channels' early scoring (ws/early.ts): the scorer's answer on the first
   * `audioMs` of the audio, used because everything after that was silence.
   */
  early?: EarlyScore;
  /** Picture for open/picture tasks. */
  image?: Buffer;
  compat?: CompatOptions;
  /** Milliseconds since epoch when the request arrived (for timing). */
  receivedAt: number;
}

/** The bare result style of the spec ("Response styles"). */
export interface BareEvaluationResponse {
  recordId: string;
  eof: 1;
  result: Record<string, unknown>;
  report?: Record<string, unknown>;
  asrText?: Record<string, unknown>;
  standardAudio?: { url: string; format: string; duration: string };
  audioUrl?: string;
  timing?: Record<string, unknown>;
  warnings: unknown[];
}

export interface EarlyScore {
  scored: ScoredEvaluation;
  audioMs: number;
}

export interface EvaluationTimings {
  totalMs: number;
  engineMs: number;
  platformMs: number;
  engineStages: Record<string, number>;
  /** Wall time of the service's other steps that ran (decode, report, recording, commit…), ms. */
  platformStages: Record<string, number>;
}

export interface EvaluationOutput {
  response: BareEvaluationResponse;
  timings: EvaluationTimings;
}

export interface EvaluationService {
  evaluate(input: EvaluationInput): Promise<EvaluationOutput>;
  /** The scorer alone on decoded audio: nothing is written or metered (early scoring). */
  score(request: { config: EvaluationConfig; compat?: CompatOptions; audio: DecodedAudio }): Promise<ScoredEvaluation>;
}

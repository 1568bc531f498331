/**
 * Pieces shared by the two real-time channels: frame parsing, error frames, timeouts, and
 * one evaluation round (admission → idempotency → decode → evaluate → stored frame).
 */
import { createHash } from 'node:crypto';
import type { WebSocket } from 'ws';
import { ApiError, invalid } from '../../errors.js';
import type { StreamingIntake } from '../../audio/stream.js';
import type { Principal } from '../../auth/types.js';
import { validateIdempotencyKey, type IdempotencyGuard } from '../../gateway/idempotency.js';
import { MAX_AUDIO_BYTES } from '../../audio/decode.js';
import { admitEvaluation, type LimitDeps } from '../../gateway/limits.js';
import { stableStringify } from '../../gateway/fingerprint.js';
import type { EvaluationConfig } from '../config.js';
import type { BareEvaluationResponse, Channel, CompatOptions, EvaluationService } from '../types.js';
import type { EarlyScoring } from './early.js';

export interface RealtimeDeps {
  service: EvaluationService;
  guard: IdempotencyGuard;
  limits: LimitDeps;
  /** Closes a session that sends nothing for this long. */
  idleMs: number;
  /** Closes any session after this long. */
  sessionMs: number;
  /** false: no early scoring, every round is scored on its whole upload after `end` (early.ts). */
  earlyScoring?: boolean;
}

export const DEFAULT_IDLE_MS = 60_000;
export const DEFAULT_SESSION_MS = 10 * 60_000;

/**
 * Largest WebSocket message accepted (the `ws` maxPayload): a `{cmd:'audio', data}` frame
 * carrying the whole 10 MB audio limit in base64 (4 characters per 3 bytes), with room for the
 * JSON around it and line breaks inside the base64. Audio over the limit in a frame that fits
 * is answered with the 40001 error frame of the intake; only a message larger than any legal
 * audio frame is refused by the protocol layer (close 1009).
 */
export const MAX_FRAME_BYTES = Math.ceil(MAX_AUDIO_BYTES / 3) * 4 + 256 * 1024;

export function send(socket: WebSocket, frame: unknown): void {
  if (socket.readyState === socket.OPEN) socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
}

/** `{event:'error', code?, message}`; code is present for business errors (spec Events). */
export function sendError(socket: WebSocket, err: unknown): void {
  if (err instanceof ApiError) send(socket, { event: 'error', code: err.code, message: err.message });
  else send(socket, { event: 'error', code: 50000, message: 'system busy, please try again later' });
}

export type Frame = { kind: 'json'; value: Record<string, unknown> } | { kind: 'audio'; data: Buffer } | { kind: 'bad'; message: string };

/** Text frames are JSON (`{cmd:'audio', data:<base64>}` carries audio); binary frames are audio. */
export function parseFrame(data: Buffer, isBinary: boolean): Frame {
  if (isBinary) return { kind: 'audio', data };
  let value: unknown;
  try {
    value = JSON.parse(data.toString('utf8'));
  } catch {
    return { kind: 'bad', message: 'malformed JSON frame' };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { kind: 'bad', message: 'a frame must be a JSON object' };
  const frame = value as Record<string, unknown>;
  if (frame.cmd === 'audio') {
    const audio = decodeBase64(frame.data);
    return audio ? { kind: 'audio', data: audio } : { kind: 'bad', message: 'malformed base64 in audio frame' };
  }
  return { kind: 'json', value: frame };
}

/** Strict base64 (standard or URL-safe alphabet, optional padding); null when malformed. */
export function decodeBase64(data: unknown): Buffer | null {
  if (typeof data !== 'string' || data.length === 0) return null;
  const clean = data.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(clean) || clean.replace(/=+$/, '').length % 4 === 1) return null;
  return Buffer.from(clean, clean.includes('-') || clean.includes('_') ? 'base64url' : 'base64');
}

/**
 * Frames that arrive while the handshake is still being authenticated. `ws` emits messages as
 * they arrive and drops them when nobody listens, and authentication is asynchronous, so a
 * listener is attached at once and the frames are kept; `release()` (after the session has
 * attached its own handler) hands them over in order, synchronously, so no later frame can
 * overtake them. Without `release()` (credentials refused) they are dropped with the socket.
 */
export function holdFrames(socket: WebSocket): { release(): void } {
  const held: [Buffer, boolean][] = [];
  const hold = (data: Buffer, isBinary: boolean) => held.push([data, isBinary]);
  socket.on('message', hold);
  return {
    release() {
      socket.off('message', hold);
      for (const [data, isBinary] of held.splice(0)) socket.emit('message', data, isBinary);
    },
  };
}

/**
 * The key of a round: the start / parameter frame's `idempotencyKey`, else the handshake
 * query's (a signature client signs it there). Checked when the round starts, so a bad key is
 * refused before `started` with a message naming the field.
 */
export function roundIdempotencyKey(fromFrame: string | null, fromQuery: string | undefined): string | null {
  const key = fromFrame ?? (fromQuery === undefined || fromQuery === '' ? null : fromQuery);
  if (key !== null) validateIdempotencyKey(key, 'idempotencyKey');
  return key;
}

/**
 * Idle and whole-session timers; `touch()` on every frame. A timeout is not a parameter
 * error, so its error frame has no `code` (spec Errors: `code` is present when the cause is a
 * server business error); the socket is then closed normally (1000, reason `timeout`).
 */
export function sessionTimers(socket: WebSocket, deps: Pick<RealtimeDeps, 'idleMs' | 'sessionMs'>) {
  const close = (message: string) => {
    send(socket, { event: 'error', message });
    socket.close(1000, 'timeout');
  };
  const idleMessage = () => `no frame for ${deps.idleMs / 1000} s; session closed (idle timeout)`;
  let idle = setTimeout(() => close(idleMessage()), deps.idleMs);
  const whole = setTimeout(() => close(`session longer than ${deps.sessionMs / 1000} s; closed (session time limit)`), deps.sessionMs);
  socket.on('close', () => {
    clearTimeout(idle);
    clearTimeout(whole);
  });
  return {
    touch() {
      clearTimeout(idle);
      idle = setTimeout(() => close(idleMessage()), deps.idleMs);
    },
  };
}

export interface Round {
  principal: Principal;
  channel: Channel;
  config: EvaluationConfig;
  compat?: CompatOptions;
  intake: StreamingIntake;
  /** The round's early scoring, used when only silence followed it. */
  early?: EarlyScoring;
  idempotencyKey: string | null;
  receivedAt: number;
  /** Turns the bare response into the channel's final frame (a JSON string). */
  frame(response: BareEvaluationResponse): string;
}

/**
 * Evaluates one round and returns the final frame text. With an idempotency key, a repeat of
 * the same round (same config and audio, e.g. after a reconnect) gets the stored frame back.
 */
export async function evaluateRound(deps: RealtimeDeps, round: Round): Promise<string> {
  if (round.intake.bytes === 0) throw invalid('no audio was received before end');
  let admission: Awaited<ReturnType<IdempotencyGuard['begin']>> | null = null;
  if (round.idempotencyKey) {
    const fingerprint = createHash('sha256')
      .update(`${round.channel}\n${stableStringify(round.config)}\n${stableStringify(round.compat ?? null)}\n`)
      .update(round.intake.raw)
      .digest('hex');
    admission = await deps.guard.begin(round.principal.tenantId, round.idempotencyKey, fingerprint);
    if (admission.kind === 'replay') return admission.response.body.toString('utf8');
  }
  let release: (() => Promise<void>) | null = null;
  try {
    release = await admitEvaluation(deps.limits, round.principal, Date.now());
    const decoded = await round.intake.finish();
    const early = (await round.early?.take(decoded.pcm)) ?? undefined;
    const { response } = await deps.service.evaluate({
      principal: round.principal,
      channel: round.channel,
      config: round.config,
      compat: round.compat,
      audio: round.intake.raw,
      decoded,
      early,
      receivedAt: round.receivedAt,
    });
    const text = round.frame(response);
    if (admission?.kind === 'proceed') await admission.finish({ status: 200, headers: {}, body: Buffer.from(text, 'utf8') });
    return text;
  } catch (err) {
    if (admission?.kind === 'proceed') await admission.abandon();
    throw err;
  } finally {
    if (release) await release();
  }
}

/**
 * Sends a round's final frame when it is ready, or its error; `onFailure` lets the session
 * forget a failed round (a new start or parameter frame is then needed).
 */
export function deliverRound(socket: WebSocket, result: Promise<string>, onFailure: () => void): void {
  result.then(
    (text) => send(socket, text),
    (err) => {
      onFailure();
      sendError(socket, err);
    },
  );
}

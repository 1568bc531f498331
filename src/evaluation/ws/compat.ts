/**
 * WS /{coreType} — the legacy real-time channel (spec "Compat WebSocket session"):
 *   open at /{compat kind}        → {event:'connected', coreType}
 *   parameter frame {refText, language, realtime_feedback, idempotencyKey?, timing?, …}
 *                                 → {event:'started'} (idempotencyKey falls back to the
 *                                   handshake query's; realtime_feedback 1/true, also in `request`)
 *   audio (binary, or {cmd:'audio', data:<base64>})
 *       with realtime_feedback: {eof:0, result:{bytes}} progress frames, and the mobile
 *       intermediate results (tokenId, recordId '', eof 0, incremental words, readUnits, …);
 *       with or without it, reading progress is followed for early scoring (early.ts)
 *   {cmd:'ping'}                  → {event:'pong'} (audio kept)
 *   {cmd:'end'}                   → {recordId, eof:1, result} (+ timing with timing=1)
 */
import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import { StreamingIntake } from '../../audio/stream.js';
import type { Principal } from '../../auth/types.js';
import { invalid } from '../../errors.js';
import { compatParams, compatToConfig, flag } from '../compat.js';
import type { EvaluationConfig } from '../config.js';
import { assertKindAllowed } from '../routes/common.js';
import { compatBody } from '../routes/compat-http.js';
import type { CompatOptions } from '../types.js';
import { EarlyScoring } from './early.js';
import { deliverRound, evaluateRound, parseFrame, roundIdempotencyKey, send, sendError, sessionTimers, type RealtimeDeps } from './realtime.js';

/** Live reading progress for the mobile intermediate results (built from the engines). */
export interface InterimTracker {
  /** Feeds 16 kHz PCM received so far; resolves to the interim frame to send, or null when nothing new was read. */
  update(pcm: Int16Array): Promise<Record<string, unknown> | null>;
  /** After the last audio: decodes what is left and returns the last interim frame, if any. */
  finish(pcm: Int16Array | null): Promise<Record<string, unknown> | null>;
  /** Every reference word has been reported read. */
  readonly complete: boolean;
  close(): void;
}

export interface CompatRealtimeDeps extends RealtimeDeps {
  /**
   * Creates the interim tracker of a round; null when the kind has none. `compat` carries what
   * the scorer accepts beyond the dictionary (`customized_lexicon` / `customized_pron`, `.pro`).
   */
  interim?: (config: EvaluationConfig, tokenId: string, compat?: CompatOptions) => InterimTracker | null;
  /** Minimum spacing of `{eof:0, result:{bytes}}` frames, ms. */
  progressIntervalMs?: number;
}

interface Round {
  config: EvaluationConfig;
  compat: CompatOptions;
  idempotencyKey: string | null;
  realtime: boolean;
  intake: StreamingIntake;
  receivedAt: number;
  firstAudioAt: number | null;
  /** Reading progress: interim frames (with realtime_feedback) and the endpoint for early scoring. */
  tracker: InterimTracker | null;
  early: EarlyScoring;
  lastProgressAt: number;
  result: Promise<string> | null;
}

/** Parameter-frame values arrive as JSON; the compat mapping takes strings like form parts. */
function asFields(frame: Record<string, unknown>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(frame)) {
    if (name === 'cmd' || value === null || value === undefined) continue;
    if (typeof value === 'boolean') fields[name] = value ? '1' : '0';
    else if (typeof value === 'object') fields[name] = JSON.stringify(value);
    else fields[name] = String(value);
  }
  return fields;
}

/** What a session takes from its handshake request. */
export interface CompatHandshake {
  /** The query's `idempotencyKey`, used by rounds whose frame has none. */
  queryKey?: string;
  /** A served path made absolute, as the compat HTTP route does (`audioUrl`). */
  absoluteUrl(path: string): string;
}

export function runCompatSession(socket: WebSocket, kind: string, principal: Principal, deps: CompatRealtimeDeps, handshake: CompatHandshake): void {
  let round: Round | null = null;
  const tokenId = randomUUID();
  const timers = sessionTimers(socket, deps);
  const interval = deps.progressIntervalMs ?? 100;
  let tracking = Promise.resolve();
  send(socket, { event: 'connected', coreType: kind });

  const onAudio = (current: Round, data: Buffer) => {
    current.firstAudioAt ??= Date.now();
    current.intake.push(data);
    const now = Date.now();
    if (now - current.lastProgressAt < interval) return;
    current.lastProgressAt = now;
    if (current.realtime) send(socket, { eof: 0, result: { bytes: current.intake.bytes } });
    const tracker = current.tracker;
    const pcm = current.intake.pcmSoFar();
    if (tracker && pcm) {
      // One update at a time, in order; frames are sent only when something new was read.
      tracking = tracking.then(() => tracker.update(pcm)).then((interim) => {
        if (interim && current.realtime && round === current) send(socket, interim);
        current.early.observe(pcm, tracker.complete);
      }, () => undefined);
    }
  };

  /** The last characters of the reading arrive as an interim frame before the final result. */
  const finishInterim = async (current: Round): Promise<void> => {
    const tracker = current.tracker;
    if (!tracker) return;
    try {
      await tracking;
      if (!current.realtime) return;
      const last = await tracker.finish(current.intake.pcmSoFar());
      if (last && round === current) send(socket, last);
    } catch {
      // Progress is advisory: the final result does not depend on it.
    } finally {
      tracker.close();
    }
  };

  socket.on('close', () => {
    round?.tracker?.close();
    round?.early.close();
  });
  socket.on('message', (data: Buffer, isBinary: boolean) => {
    timers.touch();
    const frame = parseFrame(data, isBinary);
    if (frame.kind === 'bad') return send(socket, { event: 'error', message: frame.message });
    if (frame.kind === 'audio') {
      if (!round || round.result) return sendError(socket, invalid('audio before the parameter frame'));
      try {
        onAudio(round, frame.data);
      } catch (err) {
        round.tracker?.close();
        round.early.close();
        round = null;
        sendError(socket, err);
      }
      return;
    }
    const cmd = frame.value.cmd;
    if (cmd === 'ping') return send(socket, { event: 'pong' });
    if (cmd === 'end') {
      if (!round) return sendError(socket, invalid('end before the parameter frame'));
      const current = round;
      // The evaluation starts at once; the last interim frame, decoded meanwhile, goes first.
      current.result ??= Promise.all([
        finishInterim(current),
        evaluateRound(deps, {
          principal,
          channel: 'compat-ws',
          config: current.config,
          compat: current.compat,
          intake: current.intake,
          early: current.early,
          idempotencyKey: current.idempotencyKey,
          receivedAt: current.receivedAt,
          frame: (response) => {
            const out = compatBody(response, handshake.absoluteUrl);
            if (response.timing) out.timing = { ...response.timing, wsFirstAudioAt: current.firstAudioAt };
            return JSON.stringify(out);
          },
        }),
      ]).then(([, text]) => text);
      deliverRound(socket, current.result, () => {
        if (round === current) round = null;
      });
      return;
    }
    if (cmd === undefined || cmd === 'start') {
      try {
        const fields = asFields(frame.value);
        const { config, compat } = compatToConfig(kind, fields);
        assertKindAllowed(principal, config.coreType, kind);
        // read like the other compat switches, from the merged parameters (`request` included)
        const realtime = flag(compatParams(fields), 'realtime_feedback', false);
        const idempotencyKey = roundIdempotencyKey(config.idempotencyKey, handshake.queryKey);
        round?.tracker?.close();
        round?.early.close();
        const intake = new StreamingIntake();
        round = {
          config,
          compat,
          idempotencyKey,
          realtime,
          intake,
          receivedAt: Date.now(),
          firstAudioAt: null,
          tracker: deps.interim ? deps.interim(config, tokenId, compat) : null,
          early: new EarlyScoring((audio) => deps.service.score({ config, compat, audio }), () => intake.raw, deps.earlyScoring !== false),
          lastProgressAt: 0,
          result: null,
        };
        send(socket, { event: 'started' });
      } catch (err) {
        sendError(socket, err);
      }
    }
    // Unknown commands are ignored.
  });
}

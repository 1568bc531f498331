/**
 * WS /api/v1/ws/evaluate — the native real-time channel, following the spec's state table:
 *   (closed) --open, credentials ok--> connected   {event:'connected', message}
 *   connected --{cmd:'start', ...config}--> started {event:'started'}
 *   started --binary | {cmd:'audio', data}--> started (audio buffered whole)
 *   started --{cmd:'end'}--> delivered             {event:'result', recordId, eof:1, result, report, asrText, warnings}
 *   delivered --start--> started (a new round)
 *   any --malformed JSON/base64--> unchanged        recoverable {event:'error'}
 * Reading progress is followed without frames of its own, for early scoring (early.ts).
 * Choices where the spec is silent (README): a second `end` for the same start repeats the
 * same result frame (no new record, no new charge); `stop` and unknown commands are ignored;
 * audio outside a round gets a recoverable error; credentials failures get an error frame
 * and the connection is closed with code 1008. The round's idempotency key is the start
 * frame's `idempotencyKey`, else the handshake query's; it is checked at start.
 */
import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { StreamingIntake } from '../../audio/stream.js';
import type { Principal } from '../../auth/types.js';
import { invalid } from '../../errors.js';
import { parseEvaluationConfig, type EvaluationConfig } from '../config.js';
import { isCompatOnlyKind } from '../compat.js';
import { assertKindAllowed, unknownCoreType } from '../routes/common.js';
import type { CompatRealtimeDeps, InterimTracker } from './compat.js';
import { EarlyScoring } from './early.js';
import { deliverRound, evaluateRound, parseFrame, roundIdempotencyKey, send, sendError, sessionTimers } from './realtime.js';

/**
 * Flags the server fixes for WebSocket sessions (spec: client values are ignored). The
 * client's values are dropped before the config is parsed, so even a malformed one is ignored.
 */
const WS_FLAGS = { includeReport: true, includeAsrText: true, includeStandardAudio: false } as const;

interface Round {
  config: EvaluationConfig;
  idempotencyKey: string | null;
  intake: StreamingIntake;
  receivedAt: number;
  tracker: InterimTracker | null;
  early: EarlyScoring;
  lastProgressAt: number;
  result: Promise<string> | null;
}

export function runNativeSession(socket: WebSocket, request: FastifyRequest, principal: Principal, deps: CompatRealtimeDeps): void {
  let round: Round | null = null;
  const queryKey = (request.query as Record<string, string | undefined>).idempotencyKey;
  const timers = sessionTimers(socket, deps);
  const interval = deps.progressIntervalMs ?? 100;
  let tracking = Promise.resolve();
  const closeRound = (r: Round | null) => {
    r?.tracker?.close();
    r?.early.close();
  };
  socket.on('close', () => closeRound(round));

  /** Progress is read at most every `interval` ms, one update at a time. */
  const follow = (current: Round) => {
    const now = Date.now();
    const tracker = current.tracker;
    const pcm = current.intake.pcmSoFar();
    if (!tracker || !pcm || now - current.lastProgressAt < interval) return;
    current.lastProgressAt = now;
    tracking = tracking.then(() => tracker.update(pcm)).then(() => current.early.observe(pcm, tracker.complete), () => undefined);
  };
  send(socket, { event: 'connected', message: 'connected; send {cmd:"start", ...config}' });

  socket.on('message', (data: Buffer, isBinary: boolean) => {
    timers.touch();
    const frame = parseFrame(data, isBinary);
    if (frame.kind === 'bad') return send(socket, { event: 'error', message: frame.message });
    if (frame.kind === 'audio') {
      if (!round || round.result) return sendError(socket, invalid('audio outside a round: send start first'));
      try {
        round.intake.push(frame.data);
        follow(round);
      } catch (err) {
        closeRound(round);
        round = null; // the round is over; a new start is needed
        sendError(socket, err);
      }
      return;
    }
    const cmd = frame.value.cmd;
    if (cmd === 'start') {
      try {
        const { cmd: _cmd, includeReport: _r, includeAsrText: _a, includeStandardAudio: _s, ...fields } = frame.value;
        if (typeof fields.coreType === 'string' && isCompatOnlyKind(fields.coreType)) throw unknownCoreType();
        const config = { ...parseEvaluationConfig(fields), ...WS_FLAGS };
        assertKindAllowed(principal, config.coreType);
        const idempotencyKey = roundIdempotencyKey(config.idempotencyKey, queryKey);
        closeRound(round);
        const intake = new StreamingIntake();
        round = {
          config,
          idempotencyKey,
          intake,
          receivedAt: Date.now(),
          tracker: deps.interim?.(config, 'native') ?? null,
          early: new EarlyScoring((audio) => deps.service.score({ config, audio }), () => intake.raw, deps.earlyScoring !== false),
          lastProgressAt: 0,
          result: null,
        };
        send(socket, { event: 'started' });
      } catch (err) {
        sendError(socket, err);
      }
      return;
    }
    if (cmd === 'end') {
      if (!round) return sendError(socket, invalid('end without a started round'));
      const current = round;
      current.tracker?.close();
      current.result ??= evaluateRound(deps, {
        principal,
        channel: 'native-ws',
        config: current.config,
        intake: current.intake,
        early: current.early,
        idempotencyKey: current.idempotencyKey,
        receivedAt: current.receivedAt,
        frame: (response) => JSON.stringify({ event: 'result', ...response }),
      });
      deliverRound(socket, current.result, () => {
        if (round === current) round = null;
      });
      return;
    }
    // Other commands (including `stop`) are ignored, as the spec says.
    request.log.debug({ cmd }, 'ignored websocket command');
  });
}

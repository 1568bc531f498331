/** Pieces shared by the evaluation transports. */
import type { FastifyReply } from 'fastify';
import { ApiError } from '../../errors.js';
import type { Principal } from '../../auth/types.js';
import type { CoreType } from '../config.js';
import type { EvaluationTimings } from '../types.js';

/** A key bound to a coreType whitelist may call only those (native) kinds: 403 40300. */
export function assertKindAllowed(principal: Principal, coreType: CoreType, requested: string = coreType): void {
  const allowed = principal.key?.coreTypes;
  if (allowed && !allowed.includes(coreType) && !allowed.includes(requested)) {
    throw new ApiError('FORBIDDEN', `this key is not authorised for coreType ${requested}`);
  }
}

/** HTTP 404 with the spec's text for a coreType used on the wrong endpoint family. */
export function unknownCoreType(): ApiError {
  return new ApiError('NOT_FOUND', 'Unknown coreType');
}

/** `Server-Timing: total;dur=…, engine;dur=…, platform;dur=…` (spec "Compat-layer result"). */
export function setServerTiming(reply: FastifyReply, t: EvaluationTimings): void {
  reply.header('Server-Timing', `total;dur=${Math.round(t.totalMs)}, engine;dur=${Math.round(t.engineMs)}, platform;dur=${Math.round(t.platformMs)}`);
}

/** Route config of every evaluation route: all write-path machinery applies. */
export const EVALUATION_ROUTE = { idempotent: true, admission: 'evaluation' } as const;

/**
 * The limit steps of the request pipeline:
 *   onRequest   per-IP gateway limit                                   → 429 3001
 *   preHandler  per-key / per-user gateway limit                       → 429 3001
 *               TTS and ASR: 60 calls per minute per key               → 429 3001
 *   preHandler  (evaluation routes, after idempotency, so replays pass free)
 *               sandbox daily cap, reset at 00:00 Beijing time        → 429 42903
 *               plan quota and balance both spent                     → 409 40902
 *               concurrent evaluations above the tier's limit         → 429 42901, immediately, never queued
 */
import type { FastifyInstance } from 'fastify';
import type { LimitsConfig } from '../config.js';
import { ApiError } from '../errors.js';
import { beijingDay, msUntilNextBeijingDay } from '../storage/day.js';
import type { KeyStore, Tier } from '../storage/types.js';
import type { LimitBackend, LimitOutcome } from './limiters.js';

/** Concurrent evaluations per account tier (spec Limits). */
export const TIER_CONCURRENCY: Record<Tier, number> = { trial: 2, standard: 5, enterprise: 10 };

const MINUTE = 60;
/** Paths that never count against limits (probes must not be throttled). */
const UNLIMITED_PATHS = new Set(['/healthz', '/readyz']);

declare module 'fastify' {
  interface FastifyRequest {
    releaseSlot: (() => Promise<void>) | null;
  }
}

function refuse(outcome: LimitOutcome, kind: 'RATE_LIMITED', message: string): void {
  if (!outcome.ok) throw new ApiError(kind, message, { 'Retry-After': String(outcome.retryAfterSeconds) });
}

export interface LimitDeps {
  backend: LimitBackend;
  limits: LimitsConfig;
  keys: KeyStore;
  now?: () => number;
}

/** Per-IP and per-caller gateway limits, and the TTS/ASR per-key limit. */
export function registerRateLimits(app: FastifyInstance, deps: LimitDeps): void {
  const { backend, limits } = deps;
  app.addHook('onRequest', async (request) => {
    if (UNLIMITED_PATHS.has(request.url.split('?')[0])) return;
    refuse(await backend.consume('ip', request.ip, limits.ipPerMinute, MINUTE), 'RATE_LIMITED', 'too many requests from this address');
  });
  app.addHook('preHandler', async (request) => {
    const principal = request.principal;
    if (!principal) return;
    const caller = principal.key
      ? await backend.consume('key', principal.key.appKey, limits.keyPerMinute, MINUTE)
      : await backend.consume('user', principal.user!.id, limits.userPerMinute, MINUTE);
    refuse(caller, 'RATE_LIMITED', principal.key ? 'too many requests for this appKey' : 'too many requests for this user');
    if (request.routeOptions.config?.rateLimit === 'ttsAsr') {
      const outcome = await backend.consume('tts-asr', principal.meterKey, limits.ttsAsrPerMinute, MINUTE);
      refuse(outcome, 'RATE_LIMITED', `at most ${limits.ttsAsrPerMinute} TTS and ASR calls per minute per key`);
    }
  });
}

/**
 * Admission of evaluations: sandbox cap, quota, concurrency. Register after idempotency so
 * that a replayed result is neither counted nor refused. The slot is given back when the
 * response has been sent or the client went away.
 */
export function registerEvaluationAdmission(app: FastifyInstance, deps: LimitDeps): void {
  const now = deps.now ?? Date.now;
  app.decorateRequest('releaseSlot', null);
  app.addHook('preHandler', async (request) => {
    if (request.routeOptions.config?.admission !== 'evaluation' || !request.principal) return;
    request.releaseSlot = await admitEvaluation(deps, request.principal, now());
  });
  const release = async (request: { releaseSlot: (() => Promise<void>) | null }) => {
    const slot = request.releaseSlot;
    request.releaseSlot = null;
    if (slot) await slot();
  };
  app.addHook('onResponse', release);
  app.addHook('onRequestAbort', release);
}

/**
 * The admission checks, shared by HTTP and WebSocket evaluations. Resolves to the release
 * function of the concurrency slot it took.
 */
export async function admitEvaluation(
  deps: LimitDeps,
  principal: NonNullable<import('fastify').FastifyRequest['principal']>,
  nowMs: number,
): Promise<() => Promise<void>> {
  const key = principal.key;
  if (key?.sandbox) {
    const day = beijingDay(nowMs);
    // The day is part of the counter's name, so the cap resets at 00:00 Beijing time.
    const outcome = await deps.backend.consume('sandbox', `${key.appKey}:${day}`, deps.limits.sandboxDailyCalls, 2 * 24 * 3600);
    if (!outcome.ok) {
      throw new ApiError('SANDBOX_CAP', undefined, { 'Retry-After': String(Math.ceil(msUntilNextBeijingDay(nowMs) / 1000)) });
    }
  }
  if (key && !(await deps.keys.hasCredit(key.id, 1))) throw new ApiError('QUOTA_EXHAUSTED');
  const release = await deps.backend.acquire(`tenant:${principal.tenantId}`, TIER_CONCURRENCY[principal.tier]);
  if (!release) {
    throw new ApiError('CONCURRENCY_LIMITED', `at most ${TIER_CONCURRENCY[principal.tier]} concurrent evaluations for the ${principal.tier} tier`, {
      'Retry-After': '1',
    });
  }
  return release;
}

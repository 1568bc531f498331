/**
 * The write-path pipeline, registered in this fixed, visible order:
 *   1. multipart body parser (raw text parts, so signatures can cover them)
 *   2. onRequest   per-IP rate limit
 *   3. preHandler  authentication (API key, Bearer JWT, signature + nonce)
 *   4. preHandler  per-key/per-user rate limit; TTS/ASR per-key limit
 *   5. preHandler  idempotency (replays stop here)
 *   6. preHandler  evaluation admission: sandbox cap, quota, concurrency slot
 * Each step reads what the route declared in its config (see route-config.ts, auth/types.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { LimitsConfig } from '../config.js';
import { registerAuthentication } from '../auth/hook.js';
import { createAuthenticator, type JwtVerifier } from '../auth/authenticate.js';
import { registerMultipart } from '../http/multipart.js';
import type { Storage } from '../storage/types.js';
import { DEFAULT_IDEMPOTENCY, IdempotencyGuard, registerIdempotency, type IdempotencyOptions } from './idempotency.js';
import type { LimitBackend } from './limiters.js';
import { registerEvaluationAdmission, registerRateLimits, type LimitDeps } from './limits.js';
import './route-config.js';

export interface GatewayDeps {
  storage: Storage;
  jwt: JwtVerifier;
  limitBackend: LimitBackend;
  limits: LimitsConfig;
  idempotency?: Partial<IdempotencyOptions>;
  now?: () => number;
}

export interface Gateway {
  guard: IdempotencyGuard;
  authenticator: ReturnType<typeof createAuthenticator>;
  limitDeps: LimitDeps;
}

export function registerGateway(app: FastifyInstance, deps: GatewayDeps): Gateway {
  const authenticator = createAuthenticator({
    keys: deps.storage.keys,
    users: deps.storage.users,
    jwt: deps.jwt,
    nonces: deps.storage.nonces,
    now: deps.now,
  });
  const limitDeps: LimitDeps = { backend: deps.limitBackend, limits: deps.limits, keys: deps.storage.keys, now: deps.now };
  const guard = new IdempotencyGuard(deps.storage.idempotency, { ...DEFAULT_IDEMPOTENCY, ...deps.idempotency });

  registerMultipart(app);
  registerAuthentication(app, authenticator);
  registerRateLimits(app, limitDeps);
  registerIdempotency(app, guard);
  registerEvaluationAdmission(app, limitDeps);
  return { guard, authenticator, limitDeps };
}

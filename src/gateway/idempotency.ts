/**
 * Idempotency keys, exactly per the spec's state table:
 *   none       → first request with the key: processing
 *   processing → same key, same request: wait up to 30 s, then replay; still unfinished → 409 40901 + Retry-After
 *   processing → first request finishes: stored for 24 hours
 *   stored     → same key, same request: original response byte for byte, `Idempotency-Replayed: true`
 *   any        → same key, different request: 409 40903
 * The guard is transport-neutral so the WebSocket start frame can use it too; the Fastify
 * hooks below apply it to routes whose config says `idempotent: true`.
 */
import { EventEmitter } from 'node:events';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, invalid } from '../errors.js';
import type { IdempotencyStore, StoredResponse } from '../storage/types.js';
import { requestFingerprint } from './fingerprint.js';

export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,200}$/;

export interface IdempotencyOptions {
  /** How long a stored result is replayed (spec: 24 h). */
  retentionMs: number;
  /** How long a duplicate waits for an unfinished first request (spec: 30 s). */
  waitMs: number;
  /**
   * Lease of a processing claim. A process that dies mid-request leaves its claim behind;
   * after the lease the key may be used again. Longer than any request can take.
   */
  processingLeaseMs: number;
  pollMs: number;
}

export const DEFAULT_IDEMPOTENCY: IdempotencyOptions = {
  retentionMs: 24 * 3600 * 1000,
  waitMs: 30_000,
  processingLeaseMs: 10 * 60 * 1000,
  pollMs: 100,
};

export type Admission =
  | { kind: 'proceed'; finish(response: StoredResponse): Promise<void>; abandon(): Promise<void> }
  | { kind: 'replay'; response: StoredResponse };

/** 40001 unless `key` is 1-200 visible ASCII characters; `field` names where it came from. */
export function validateIdempotencyKey(key: string, field = 'Idempotency-Key'): void {
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) throw invalid(`${field} must be 1-200 visible ASCII characters`);
}

export class IdempotencyGuard {
  /** Wakes local waiters at once; waiters on other instances poll the shared store. */
  private readonly finished = new EventEmitter().setMaxListeners(0);

  constructor(
    private readonly store: IdempotencyStore,
    private readonly options: IdempotencyOptions = DEFAULT_IDEMPOTENCY,
  ) {}

  async begin(scope: string, key: string, fingerprint: string): Promise<Admission> {
    validateIdempotencyKey(key);
    const claim = await this.store.claim(scope, key, fingerprint, this.options.processingLeaseMs);
    if (claim.state === 'claimed') return this.proceed(scope, key);
    if (claim.fingerprint !== fingerprint) throw new ApiError('IDEMPOTENCY_MISMATCH');
    if (claim.state === 'done') return { kind: 'replay', response: claim.response };
    return this.waitForFirst(scope, key, fingerprint);
  }

  private proceed(scope: string, key: string): Admission {
    const topic = `${scope}\u0000${key}`;
    let settled = false;
    return {
      kind: 'proceed',
      finish: async (response) => {
        if (settled) return;
        settled = true;
        await this.store.complete(scope, key, response, this.options.retentionMs);
        this.finished.emit(topic);
      },
      abandon: async () => {
        if (settled) return;
        settled = true;
        await this.store.release(scope, key);
        this.finished.emit(topic);
      },
    };
  }

  private async waitForFirst(scope: string, key: string, fingerprint: string): Promise<Admission> {
    const topic = `${scope}\u0000${key}`;
    const deadline = Date.now() + this.options.waitMs;
    while (Date.now() < deadline) {
      await this.nextChange(topic, Math.min(this.options.pollMs, deadline - Date.now()));
      const state = await this.store.peek(scope, key);
      if (state === null) return this.begin(scope, key, fingerprint); // the first request gave up: take over
      if (state.state === 'claimed') continue;
      if (state.fingerprint !== fingerprint) throw new ApiError('IDEMPOTENCY_MISMATCH');
      if (state.state === 'done') return { kind: 'replay', response: state.response };
    }
    throw new ApiError('IDEMPOTENCY_IN_PROGRESS', undefined, { 'Retry-After': '1' });
  }

  private nextChange(topic: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, Math.max(0, ms));
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.finished.once(topic, done);
    });
  }
}

/** HTTP statuses whose responses are not stored, so the client can retry with the same key. */
function isRetryable(status: number): boolean {
  return status >= 500 || status === 409 || status === 429;
}

interface PendingIdempotency {
  admission: Extract<Admission, { kind: 'proceed' }>;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: PendingIdempotency | null;
  }
}

/** Response headers kept with a stored response and replayed with it. */
const STORED_HEADERS = ['content-type', 'server-timing'];

export function registerIdempotency(app: FastifyInstance, guard: IdempotencyGuard): void {
  app.decorateRequest('idempotency', null);

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.routeOptions.config?.idempotent) return;
    const header = request.headers['idempotency-key'];
    const key = Array.isArray(header) ? header[0] : header;
    if (key === undefined) return;
    const scope = request.principal?.tenantId ?? 'anonymous';
    const admission = await guard.begin(scope, key, requestFingerprint(request));
    if (admission.kind === 'proceed') {
      request.idempotency = { admission };
      return;
    }
    const { status, headers, body } = admission.response;
    reply.code(status).headers(headers).header('Idempotency-Replayed', 'true');
    return reply.send(body);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const pending = request.idempotency;
    if (!pending) return payload;
    request.idempotency = null;
    if (isRetryable(reply.statusCode) || !(typeof payload === 'string' || Buffer.isBuffer(payload))) {
      await pending.admission.abandon();
      return payload;
    }
    const headers: Record<string, string> = {};
    for (const name of STORED_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    const body = Buffer.isBuffer(payload) ? payload : Buffer.from(payload, 'utf8');
    await pending.admission.finish({ status: reply.statusCode, headers, body });
    return body;
  });

  // A request that ends without a response (client gone, crash in a hook) frees its key.
  app.addHook('onResponse', async (request) => {
    if (request.idempotency) await request.idempotency.admission.abandon();
  });
}

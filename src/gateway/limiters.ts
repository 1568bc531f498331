/**
 * Limit stores behind one small interface, in memory (single instance) or in Redis (shared
 * by every instance when scaled out). Counting windows come from rate-limiter-flexible;
 * concurrency is a counter that is taken before an evaluation and given back after it.
 */
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';

export type LimitOutcome = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface LimitBackend {
  /** Takes one point from `key` in a window of `durationSeconds` holding `points`. */
  consume(name: string, key: string, points: number, durationSeconds: number): Promise<LimitOutcome>;
  /** What `consume` would answer now, without taking a point. */
  peek(name: string, key: string, points: number, durationSeconds: number): Promise<LimitOutcome>;
  /** Takes a concurrency slot; resolves to a release function, or null when `limit` are in use. */
  acquire(key: string, limit: number): Promise<(() => Promise<void>) | null>;
  close(): Promise<void>;
}

/** Concurrency slots left behind by a crashed instance expire after this long (seconds). */
const SLOT_SAFETY_TTL_SECONDS = 15 * 60;

export function createLimitBackend(redis: Redis | null): LimitBackend {
  const limiters = new Map<string, RateLimiterAbstract>();
  const limiterFor = (name: string, points: number, duration: number): RateLimiterAbstract => {
    const id = `${name}:${points}:${duration}`;
    let limiter = limiters.get(id);
    if (!limiter) {
      const opts = { keyPrefix: `kouyu:rl:${name}`, points, duration };
      limiter = redis ? new RateLimiterRedis({ ...opts, storeClient: redis }) : new RateLimiterMemory(opts);
      limiters.set(id, limiter);
    }
    return limiter;
  };

  const local = new Map<string, number>();

  return {
    async consume(name, key, points, durationSeconds) {
      try {
        await limiterFor(name, points, durationSeconds).consume(key, 1);
        return { ok: true };
      } catch (err) {
        if (err instanceof RateLimiterRes) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(err.msBeforeNext / 1000)) };
        throw err;
      }
    },

    async peek(name, key, points, durationSeconds) {
      const state = await limiterFor(name, points, durationSeconds).get(key);
      if (!state || state.consumedPoints < points) return { ok: true };
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(state.msBeforeNext / 1000)) };
    },

    async acquire(key, limit) {
      if (redis) {
        const slotKey = `kouyu:slots:${key}`;
        const [[, count]] = (await redis.multi().incr(slotKey).expire(slotKey, SLOT_SAFETY_TTL_SECONDS).exec()) as [[unknown, number]];
        if (count > limit) {
          await redis.decr(slotKey);
          return null;
        }
        return once(async () => {
          await redis.decr(slotKey);
        });
      }
      const used = local.get(key) ?? 0;
      if (used >= limit) return null;
      local.set(key, used + 1);
      return once(async () => {
        const left = (local.get(key) ?? 1) - 1;
        if (left <= 0) local.delete(key);
        else local.set(key, left);
      });
    },

    async close() {
      limiters.clear();
    },
  };
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done = false;
  return async () => {
    if (done) return;
    done = true;
    await fn();
  };
}

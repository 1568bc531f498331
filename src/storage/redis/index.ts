/** Redis-backed shared state (REDIS_URL): idempotency entries and nonces. */
import { Redis } from 'ioredis';
import type { IdempotencyStore, NonceStore } from '../types.js';
import { createRedisIdempotencyStore } from './idempotency.js';
import { createRedisNonceStore } from './nonces.js';

export interface RedisStores {
  redis: Redis;
  idempotency: IdempotencyStore;
  nonces: NonceStore;
  close(): Promise<void>;
}

/** Default key prefix; tests pass a random one so runs never see each other's keys. */
export const REDIS_PREFIX = 'kouyu:';

export function createRedisStores(url: string, prefix = REDIS_PREFIX): RedisStores {
  const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 3 });
  return {
    redis,
    idempotency: createRedisIdempotencyStore(redis, prefix),
    nonces: createRedisNonceStore(redis, prefix),
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

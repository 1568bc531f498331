/** Signature nonces in Redis: SET NX PX, so the first writer wins and Redis expires the rest. */
import type { Redis } from 'ioredis';
import type { NonceStore } from '../types.js';

export function createRedisNonceStore(redis: Redis, prefix: string): NonceStore {
  return {
    async remember(appKey, nonce, ttlMs) {
      const reply = await redis.set(`${prefix}nonce:${appKey.length}:${appKey}:${nonce}`, '1', 'PX', ttlMs, 'NX');
      return reply === 'OK';
    },
  };
}

/**
 * Idempotency entries in Redis, shared by every server instance. Each entry is one hash
 * (`<prefix>idem:<scope>:<key>`) with fields state, fingerprint, status, headers, body and a
 * PEXPIRE; Redis expiry makes expired entries absent. Claim and complete are Lua scripts
 * so each is atomic on the server.
 */
import type { Redis } from 'ioredis';
import type { IdempotencyClaim, IdempotencyStore } from '../types.js';

// Returns {'claimed'} after creating the entry, otherwise the existing hash as a flat list.
const CLAIM = `
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], 'state', 'processing', 'fingerprint', ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {'claimed'}
end
return redis.call('HGETALL', KEYS[1])`;

// Only an entry that still exists is completed (an expired claim is not resurrected).
const COMPLETE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'state', 'done', 'status', ARGV[1], 'headers', ARGV[2], 'body', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1`;

const RELEASE = `
if redis.call('HGET', KEYS[1], 'state') == 'processing' then return redis.call('DEL', KEYS[1]) end
return 0`;

type ScriptedRedis = Redis & {
  kouyuIdemClaimBuffer(key: string, fingerprint: string, ttlMs: number): Promise<Buffer[]>;
  kouyuIdemComplete(key: string, status: number, headers: string, body: Buffer, ttlMs: number): Promise<number>;
  kouyuIdemRelease(key: string): Promise<number>;
};

function parseHash(flat: Buffer[]): IdempotencyClaim | null {
  if (flat.length === 0) return null;
  const fields = new Map<string, Buffer>();
  for (let i = 0; i + 1 < flat.length; i += 2) fields.set(flat[i].toString('utf8'), flat[i + 1]);
  const fingerprint = fields.get('fingerprint')?.toString('utf8') ?? '';
  if (fields.get('state')?.toString('utf8') !== 'done') return { state: 'processing', fingerprint };
  return {
    state: 'done',
    fingerprint,
    response: {
      status: Number(fields.get('status')?.toString('utf8') ?? 200),
      headers: JSON.parse(fields.get('headers')?.toString('utf8') ?? '{}') as Record<string, string>,
      body: Buffer.from(fields.get('body') ?? Buffer.alloc(0)),
    },
  };
}

export function createRedisIdempotencyStore(redis: Redis, prefix: string): IdempotencyStore {
  const r = redis as ScriptedRedis;
  if (typeof r.kouyuIdemClaimBuffer !== 'function') {
    redis.defineCommand('kouyuIdemClaim', { numberOfKeys: 1, lua: CLAIM });
    redis.defineCommand('kouyuIdemComplete', { numberOfKeys: 1, lua: COMPLETE });
    redis.defineCommand('kouyuIdemRelease', { numberOfKeys: 1, lua: RELEASE });
  }
  // Scope and key are joined with a length prefix so "a:b"+"c" and "a"+"b:c" never collide.
  const entry = (scope: string, key: string) => `${prefix}idem:${scope.length}:${scope}:${key}`;
  return {
    async claim(scope, key, fingerprint, ttlMs) {
      const reply = await r.kouyuIdemClaimBuffer(entry(scope, key), fingerprint, ttlMs);
      if (reply.length === 1 && reply[0].toString('utf8') === 'claimed') return { state: 'claimed' };
      return parseHash(reply) ?? this.claim(scope, key, fingerprint, ttlMs);
    },
    async complete(scope, key, response, ttlMs) {
      await r.kouyuIdemComplete(entry(scope, key), response.status, JSON.stringify(response.headers), response.body, ttlMs);
    },
    async release(scope, key) {
      await r.kouyuIdemRelease(entry(scope, key));
    },
    async peek(scope, key) {
      return parseHash(await redis.hgetallBuffer(entry(scope, key)).then(flatten));
    },
  };
}

/** hgetallBuffer answers an object; turn it into the flat list the parser reads. */
function flatten(hash: Record<string, Buffer>): Buffer[] {
  return Object.entries(hash).flatMap(([field, value]) => [Buffer.from(field, 'utf8'), value]);
}

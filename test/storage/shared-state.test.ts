/**
 * Idempotency entries and nonces on every implementation: SQL (SQLite, PostgreSQL) and
 * Redis. The claim must be atomic: of 50 simultaneous first requests exactly one wins.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { IdempotencyStore, NonceStore } from '../../src/storage/types.js';
import { createRedisStores, type RedisStores } from '../../src/storage/redis/index.js';
import { Redis } from 'ioredis';
import { createStorage, type KouyuStorage } from '../../src/storage/index.js';
import { testConfig } from '../helpers/app.js';
import {
  clearRedisPrefix,
  openMigrated,
  postgresBackend,
  randomRedisPrefix,
  REDIS_SKIP,
  REDIS_URL,
  sqliteBackend,
  type Backend,
} from './backends.js';

interface Stores {
  idempotency: IdempotencyStore;
  nonces: NonceStore;
}

const DAY_MS = 24 * 3600 * 1000;

function sharedStateSuite(name: string, skip: string | false, open: () => Promise<Stores>, close: () => Promise<void>): void {
  describe(`idempotency and nonces on ${name}`, { skip }, () => {
    let stores: Stores;
    before(async () => {
      stores = await open();
    });
    after(close);

    test('50 simultaneous claims: exactly one claimed, the rest see processing', async () => {
      const claims = await Promise.all(Array.from({ length: 50 }, () => stores.idempotency.claim('tenant-a', 'key-50', 'fp1', DAY_MS)));
      assert.equal(claims.filter((c) => c.state === 'claimed').length, 1);
      for (const claim of claims.filter((c) => c.state !== 'claimed')) assert.deepEqual(claim, { state: 'processing', fingerprint: 'fp1' });
    });

    test('a completed entry replays status, headers and body byte for byte', async () => {
      assert.deepEqual(await stores.idempotency.claim('tenant-a', 'key-done', 'fp2', DAY_MS), { state: 'claimed' });
      const body = Buffer.from([0x7b, 0x00, 0xff, 0xe4, 0xbd, 0xa0, 0x7d]); // includes a NUL and invalid UTF-8
      await stores.idempotency.complete('tenant-a', 'key-done', { status: 201, headers: { 'content-type': 'application/json' }, body }, DAY_MS);
      const again = await stores.idempotency.claim('tenant-a', 'key-done', 'other', DAY_MS);
      assert.equal(again.state, 'done');
      if (again.state !== 'done') return;
      assert.equal(again.fingerprint, 'fp2');
      assert.equal(again.response.status, 201);
      assert.deepEqual(again.response.headers, { 'content-type': 'application/json' });
      assert.ok(again.response.body.equals(body), 'body bytes differ');
      assert.deepEqual(await stores.idempotency.peek('tenant-a', 'key-done'), again);
      assert.equal(await stores.idempotency.peek('tenant-b', 'key-done'), null, 'scopes are separate');
    });

    test('release frees a processing claim but never a finished one', async () => {
      await stores.idempotency.claim('s', 'key-rel', 'fp', DAY_MS);
      await stores.idempotency.release('s', 'key-rel');
      assert.equal(await stores.idempotency.peek('s', 'key-rel'), null);
      assert.deepEqual(await stores.idempotency.claim('s', 'key-rel', 'fp', DAY_MS), { state: 'claimed' });
      await stores.idempotency.complete('s', 'key-rel', { status: 200, headers: {}, body: Buffer.from('ok') }, DAY_MS);
      await stores.idempotency.release('s', 'key-rel');
      assert.equal((await stores.idempotency.peek('s', 'key-rel'))?.state, 'done');
    });

    test('expired entries count as absent and are replaced', async () => {
      await stores.idempotency.claim('s', 'key-exp', 'old', 30);
      await sleep(80);
      assert.equal(await stores.idempotency.peek('s', 'key-exp'), null);
      assert.deepEqual(await stores.idempotency.claim('s', 'key-exp', 'new', DAY_MS), { state: 'claimed' });
      assert.deepEqual(await stores.idempotency.peek('s', 'key-exp'), { state: 'processing', fingerprint: 'new' });
    });

    test('a nonce is accepted once, a replay refused, and accepted again after expiry', async () => {
      assert.equal(await stores.nonces.remember('ak_1', 'n-1', 60_000), true);
      assert.equal(await stores.nonces.remember('ak_1', 'n-1', 60_000), false);
      assert.equal(await stores.nonces.remember('ak_2', 'n-1', 60_000), true, 'nonces are per appKey');
      const simultaneous = await Promise.all(Array.from({ length: 20 }, () => stores.nonces.remember('ak_1', 'n-2', 60_000)));
      assert.equal(simultaneous.filter(Boolean).length, 1);
      assert.equal(await stores.nonces.remember('ak_1', 'n-short', 30), true);
      await sleep(80);
      assert.equal(await stores.nonces.remember('ak_1', 'n-short', 30), true);
    });
  });
}

function sqlSuite(backend: Backend): void {
  let storage: KouyuStorage | null = null;
  sharedStateSuite(
    `SQL (${backend.name})`,
    backend.skip,
    async () => {
      storage = await openMigrated(await backend.setUp());
      assert.equal(storage.sharedState, 'database');
      return storage;
    },
    async () => {
      await storage?.close();
      await backend.tearDown();
    },
  );
}

sqlSuite(sqliteBackend());
sqlSuite(postgresBackend());

const prefix = randomRedisPrefix();
let redis: RedisStores | null = null;
sharedStateSuite(
  'Redis',
  REDIS_SKIP,
  async () => {
    redis = createRedisStores(REDIS_URL, prefix);
    return redis;
  },
  async () => {
    await redis?.close();
    if (!REDIS_SKIP) await clearRedisPrefix(prefix);
  },
);

describe('createStorage with REDIS_URL', { skip: REDIS_SKIP }, () => {
  const storagePrefix = randomRedisPrefix();
  after(async () => clearRedisPrefix(storagePrefix));

  test('idempotency entries and nonces go to Redis under the prefix', async () => {
    const storage = await createStorage(testConfig({ REDIS_URL }), { redisPrefix: storagePrefix });
    try {
      await storage.migrate();
      assert.equal(storage.sharedState, 'redis');
      assert.deepEqual(await storage.idempotency.claim('s', 'k', 'fp', DAY_MS), { state: 'claimed' });
      assert.equal(await storage.nonces.remember('ak_1', 'n', 60_000), true);
      const rows = await storage.db.selectFrom('idempotency_entries').selectAll().execute();
      assert.deepEqual(rows, [], 'nothing written to the database');
      const probe = new Redis(REDIS_URL);
      const keys = (await probe.keys(`${storagePrefix}*`)).sort();
      await probe.quit();
      assert.equal(keys.length, 2);
      assert.ok(keys.every((key) => key.startsWith(storagePrefix)));
    } finally {
      await storage.close();
    }
  });
});

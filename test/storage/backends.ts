/**
 * Test back ends for the storage suite: SQLite always; PostgreSQL when DATABASE_URL or a
 * local server at 127.0.0.1:5432 answers (a fresh database per run, dropped at the end);
 * Redis when REDIS_URL or 127.0.0.1:6379 answers (a random key prefix per run).
 */
import crypto from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import { Redis } from 'ioredis';
import type { Config } from '../../src/config.js';
import { createStorage, type KouyuStorage } from '../../src/storage/index.js';
import { testConfig } from '../helpers/app.js';

const PG_ADMIN_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

function reachable(url: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || defaultPort) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export const pgReachable = await reachable(PG_ADMIN_URL, 5432);
export const redisReachable = await reachable(REDIS_URL, 6379);

export const PG_SKIP = pgReachable ? false : `no PostgreSQL answers at ${new URL(PG_ADMIN_URL).host}; PostgreSQL cases skipped`;
export const REDIS_SKIP = redisReachable ? false : `no Redis answers at ${new URL(REDIS_URL).host}; Redis cases skipped`;

export interface PgDatabase {
  url: string;
  drop(): Promise<void>;
}

/** Creates `kouyu_test_<random>` beside the admin database; `drop()` removes it. */
export async function createPgDatabase(): Promise<PgDatabase> {
  const name = `kouyu_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: PG_ADMIN_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export function randomRedisPrefix(): string {
  return `kouyu-test:${crypto.randomBytes(6).toString('hex')}:`;
}

/** Deletes every key under the prefix (end of a Redis test run). */
export async function clearRedisPrefix(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
}

export interface Backend {
  name: string;
  skip: string | false;
  /** A config for this back end; call `open(config)` again to simulate a restart. */
  setUp(): Promise<Config>;
  tearDown(): Promise<void>;
}

export function sqliteBackend(): Backend {
  return { name: 'sqlite', skip: false, setUp: async () => testConfig(), tearDown: async () => undefined };
}

export function postgresBackend(): Backend {
  let database: PgDatabase | null = null;
  return {
    name: 'postgres',
    skip: PG_SKIP,
    async setUp() {
      database = await createPgDatabase();
      return testConfig({ DATABASE_URL: database.url });
    },
    async tearDown() {
      await database?.drop();
    },
  };
}

export async function openMigrated(config: Config): Promise<KouyuStorage> {
  const storage = await createStorage(config);
  await storage.migrate();
  return storage;
}

export { REDIS_URL };

/**
 * `createStorage(config)`: the one data-access layer. SQLite file under the data directory
 * by default, PostgreSQL when DATABASE_URL is set (same schema, same queries, see
 * migrations.ts); idempotency entries and nonces move to Redis when REDIS_URL is set.
 *
 * Usage:
 *   const storage = await createStorage(config);
 *   await storage.migrate();
 *   const key = await storage.keys.findByAppKey('ak_…');
 */
import { Migrator, type Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Storage } from './types.js';
import type { Database, Dialect } from './schema.js';
import { openPostgres, openSqlite } from './db.js';
import { migrationProvider } from './migrations.js';
import { createSecretBox, loadOrCreateSecretFile } from './secret-box.js';
import { createSqlKeyAdmin, createSqlKeyStore, type KeyAdmin } from './sql/keys.js';
import { createSqlUserStore, type UserAdmin } from './sql/users.js';
import { createSqlRecordStore } from './sql/records.js';
import { createSqlLedger } from './sql/ledger.js';
import { createSqlUsageStore } from './sql/usage.js';
import { createSqlIdempotencyStore } from './sql/idempotency.js';
import { createSqlNonceStore } from './sql/nonces.js';
import { createSqlVoiceStore } from './sql/voices.js';
import { createRedisStores, REDIS_PREFIX } from './redis/index.js';

export { beijingDay } from './day.js';
export type { KeyAdmin, NewKeyInput } from './sql/keys.js';

/** The storage the server and the admin command open; a Storage plus operator operations. */
export interface KouyuStorage extends Storage {
  admin: KeyAdmin & UserAdmin;
  dialect: Dialect;
  /** Where idempotency entries and nonces live. */
  sharedState: 'database' | 'redis';
  /** The Kysely instance, for tests and future stores in this folder. */
  db: Kysely<Database>;
}

export interface StorageOptions {
  /** Redis key prefix (tests use a random one). */
  redisPrefix?: string;
}

type StorageConfig = Pick<Config, 'dataDir' | 'databaseUrl' | 'redisUrl' | 'secretKey'>;

export async function createStorage(config: StorageConfig, options: StorageOptions = {}): Promise<KouyuStorage> {
  const masterKey = config.secretKey ?? loadOrCreateSecretFile(config.dataDir, 'secret.key', 32);
  const box = createSecretBox(masterKey);
  const { db, dialect } = config.databaseUrl ? openPostgres(config.databaseUrl) : openSqlite(config.dataDir);
  const redis = config.redisUrl ? createRedisStores(config.redisUrl, options.redisPrefix ?? REDIS_PREFIX) : null;
  const users = createSqlUserStore(db);
  let migration: Promise<void> | null = null;

  return {
    keys: createSqlKeyStore(db, box),
    users,
    records: createSqlRecordStore(db),
    ledger: createSqlLedger(db),
    usage: createSqlUsageStore(db),
    idempotency: redis?.idempotency ?? createSqlIdempotencyStore(db),
    nonces: redis?.nonces ?? createSqlNonceStore(db),
    voices: createSqlVoiceStore(db),
    admin: { ...createSqlKeyAdmin(db, box), createUser: (input) => users.createUser(input) },
    dialect,
    sharedState: redis ? 'redis' : 'database',
    db,
    migrate() {
      migration ??= runMigrations(db, dialect);
      return migration;
    },
    async close() {
      await migration?.catch(() => undefined);
      await redis?.close();
      await db.destroy();
    },
  };
}

async function runMigrations(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider(dialect) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`storage migration ${failed ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

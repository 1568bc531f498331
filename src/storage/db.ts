/**
 * Opens the Kysely instance for the configured dialect: the embedded SQLite file
 * (`${dataDir}/kouyu.db`, WAL journal, foreign keys, busy timeout so the admin command and
 * the server can share it) or a PostgreSQL pool when DATABASE_URL is set.
 */
import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { Database, Dialect } from './schema.js';

export interface OpenedDatabase {
  db: Kysely<Database>;
  dialect: Dialect;
}

/** Milliseconds a writer waits for another process's lock before SQLITE_BUSY. */
const SQLITE_BUSY_TIMEOUT_MS = 10_000;

export function openSqlite(dataDir: string): OpenedDatabase {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = new SqliteDatabase(path.join(dataDir, 'kouyu.db'));
  file.pragma('journal_mode = WAL');
  // FULL: a committed transaction survives power loss as well as a process crash.
  file.pragma('synchronous = FULL');
  file.pragma('foreign_keys = ON');
  file.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: file }) }), dialect: 'sqlite' };
}

/** int8 (OID 20) comes back as a string by default; every bigint here is ms or a count < 2^53. */
const PG_INT8_OID = 20;

export function openPostgres(connectionString: string): OpenedDatabase {
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === PG_INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // An idle pooled connection that the server drops (restart, failover) is reported as an
  // 'error' event; the pool already discards that client and the next query reconnects, so
  // the event must not crash the process as an unhandled error would.
  pool.on('error', () => undefined);
  return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres' };
}

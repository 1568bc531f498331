/**
 * Versioned migrations, listed statically (no directory scan) so they run the same from
 * `src/` under tsx and from `dist/` after the build. One schema on both dialects; only the
 * binary and 64-bit integer column types are spelled per dialect.
 */
import { type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Dialect } from './schema.js';

function types(dialect: Dialect) {
  return {
    bigint: dialect === 'postgres' ? ('bigint' as const) : ('integer' as const),
    double: 'double precision' as const,
    blob: dialect === 'postgres' ? ('bytea' as const) : ('blob' as const),
  };
}

function initial(dialect: Dialect): Migration {
  const t = types(dialect);
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('tenants')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('tier', 'text', (c) => c.notNull())
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
        .addColumn('app_key', 'text', (c) => c.notNull().unique())
        .addColumn('secret_enc', 'text', (c) => c.notNull())
        .addColumn('tier', 'text', (c) => c.notNull())
        .addColumn('sandbox', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('core_types', 'text')
        .addColumn('quota', t.bigint)
        .addColumn('balance', t.bigint, (c) => c.notNull().defaultTo(0))
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('api_keys_tenant').on('api_keys').column('tenant_id').execute();
      await db.schema
        .createTable('console_users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
        .addColumn('username', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('evaluation_records')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
        .addColumn('app_key', 'text')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('rubric_version', 'text', (c) => c.notNull())
        .addColumn('response', 'text', (c) => c.notNull())
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('evaluation_records_tenant')
        .on('evaluation_records')
        .columns(['tenant_id', 'created_at'])
        .execute();
      await db.schema
        .createTable('usage_daily')
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
        .addColumn('app_key', 'text', (c) => c.notNull())
        .addColumn('meter', 'text', (c) => c.notNull())
        .addColumn('quantity', t.double, (c) => c.notNull().defaultTo(0))
        .addUniqueConstraint('usage_daily_unique', ['day', 'tenant_id', 'app_key', 'meter'])
        .execute();
      await db.schema
        .createIndex('usage_daily_tenant_day')
        .on('usage_daily')
        .columns(['tenant_id', 'day'])
        .execute();
      await db.schema
        .createTable('idempotency_entries')
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('status', 'integer')
        .addColumn('headers', 'text')
        .addColumn('body', t.blob)
        .addColumn('expires_at', t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_entries_pk', ['scope', 'key'])
        .execute();
      await db.schema
        .createTable('nonces')
        .addColumn('app_key', 'text', (c) => c.notNull())
        .addColumn('nonce', 'text', (c) => c.notNull())
        .addColumn('expires_at', t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('nonces_pk', ['app_key', 'nonce'])
        .execute();
      await db.schema.createIndex('nonces_expiry').on('nonces').column('expires_at').execute();
      await db.schema
        .createIndex('idempotency_expiry')
        .on('idempotency_entries')
        .column('expires_at')
        .execute();
    },
    async down(db: Kysely<any>) {
      for (const table of ['nonces', 'idempotency_entries', 'usage_daily', 'evaluation_records', 'console_users', 'api_keys', 'tenants']) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}

/** Tenant-private TTS voices (console voice endpoints). */
function tenantVoices(dialect: Dialect): Migration {
  const t = types(dialect);
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('tenant_voices')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
        .addColumn('voice_id', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('gender', 'text', (c) => c.notNull())
        .addColumn('prompt_text', 'text', (c) => c.notNull())
        .addColumn('base_voice', 'text', (c) => c.notNull())
        .addColumn('profile', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .addUniqueConstraint('tenant_voices_name', ['tenant_id', 'name'])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('tenant_voices').execute();
    },
  };
}

/** Every migration, in order; names sort lexicographically (Kysely applies them that way). */
export function migrationProvider(dialect: Dialect): MigrationProvider {
  return {
    async getMigrations() {
      return { '0001_initial': initial(dialect), '0002_tenant_voices': tenantVoices(dialect) };
    },
  };
}

/** Used by tests to prove a table exists on either dialect. */
export async function tableNames(db: Kysely<any>): Promise<string[]> {
  const tables = await db.introspection.getTables();
  return tables.map((table) => table.name).sort();
}


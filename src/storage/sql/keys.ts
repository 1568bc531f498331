/**
 * API keys and tenants over SQL. Lookups read through to the database on every call (no
 * cache), so a key created, disabled or recharged by the admin command in another process
 * takes effect on the running server's next request.
 */
import type { Kysely, Selectable } from 'kysely';
import type { ApiKeyRecord, KeyStore, Tenant, Tier } from '../types.js';
import type { ApiKeysTable, Database } from '../schema.js';
import type { SecretBox } from '../secret-box.js';
import { randomId } from '../ids.js';

export interface NewKeyInput {
  tenantId: string;
  tier: Tier;
  sandbox: boolean;
  coreTypes: string[] | null;
  quota: number | null;
  balance: number;
}

/** Operator operations behind the admin command (not used by request handling). */
export interface KeyAdmin {
  createTenant(input: { name: string; tier: Tier }): Promise<Tenant>;
  findTenant(id: string): Promise<Tenant | null>;
  /** Creates a key with a fresh random appKey and secretKey (returned in plain text once). */
  createKey(input: NewKeyInput): Promise<ApiKeyRecord>;
  /** The three setters return false when no key has this appKey. */
  setEnabled(appKey: string, enabled: boolean): Promise<boolean>;
  setQuota(appKey: string, quota: number | null): Promise<boolean>;
  setBalance(appKey: string, balance: number): Promise<boolean>;
  listKeys(tenantId?: string): Promise<ApiKeyRecord[]>;
}

function toKey(row: Selectable<ApiKeysTable>, box: SecretBox): ApiKeyRecord {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    appKey: row.app_key,
    secret: box.open(row.secret_enc, row.app_key),
    tier: row.tier as Tier,
    sandbox: row.sandbox === 1,
    coreTypes: row.core_types === null ? null : (JSON.parse(row.core_types) as string[]),
    quota: row.quota,
    balance: row.balance,
    enabled: row.enabled === 1,
    createdAt: row.created_at,
  };
}

export function createSqlKeyStore(db: Kysely<Database>, box: SecretBox): KeyStore {
  return {
    async findByAppKey(appKey) {
      const row = await db.selectFrom('api_keys').selectAll().where('app_key', '=', appKey).executeTakeFirst();
      return row ? toKey(row, box) : null;
    },
    async hasCredit(keyId, units) {
      const row = await db.selectFrom('api_keys').select(['quota', 'balance']).where('id', '=', keyId).executeTakeFirst();
      if (!row) return false;
      return row.quota === null || row.quota + row.balance >= units;
    },
  };
}

export function createSqlKeyAdmin(db: Kysely<Database>, box: SecretBox): KeyAdmin {
  const update = async (appKey: string, set: Partial<Pick<ApiKeysTable, 'enabled' | 'quota' | 'balance'>>) => {
    const result = await db.updateTable('api_keys').set(set).where('app_key', '=', appKey).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  };
  return {
    async createTenant({ name, tier }) {
      const tenant: Tenant = { id: randomId('t_', 9), name, tier, createdAt: Date.now() };
      await db.insertInto('tenants').values({ id: tenant.id, name, tier, created_at: tenant.createdAt }).execute();
      return tenant;
    },
    async findTenant(id) {
      const row = await db.selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? { id: row.id, name: row.name, tier: row.tier as Tier, createdAt: row.created_at } : null;
    },
    async createKey(input) {
      const appKey = randomId('ak_', 12);
      const row: Selectable<ApiKeysTable> = {
        id: randomId('k_', 12),
        tenant_id: input.tenantId,
        app_key: appKey,
        secret_enc: box.seal(randomId('', 32), appKey),
        tier: input.tier,
        sandbox: input.sandbox ? 1 : 0,
        core_types: input.coreTypes === null ? null : JSON.stringify(input.coreTypes),
        quota: input.quota,
        balance: input.balance,
        enabled: 1,
        created_at: Date.now(),
      };
      await db.insertInto('api_keys').values(row).execute();
      return toKey(row, box);
    },
    setEnabled: (appKey, enabled) => update(appKey, { enabled: enabled ? 1 : 0 }),
    setQuota: (appKey, quota) => update(appKey, { quota }),
    setBalance: (appKey, balance) => update(appKey, { balance }),
    async listKeys(tenantId) {
      let query = db.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('app_key');
      if (tenantId !== undefined) query = query.where('tenant_id', '=', tenantId);
      return (await query.execute()).map((row) => toKey(row, box));
    },
  };
}

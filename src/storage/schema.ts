/**
 * Row types of the one schema shared by SQLite and PostgreSQL (see migrations.ts).
 * Times are Unix milliseconds; booleans are 0/1 integers on both dialects so the same
 * queries run unchanged; JSON values are stored as text.
 */


export interface TenantsTable {
  id: string;
  name: string;
  tier: string;
  created_at: number;
}

export interface ApiKeysTable {
  id: string;
  tenant_id: string;
  app_key: string;
  /** AES-256-GCM ciphertext of the secret (see secret-box.ts). */
  secret_enc: string;
  tier: string;
  sandbox: number;
  /** JSON array of whitelisted coreTypes, or null for all. */
  core_types: string | null;
  quota: number | null;
  balance: number;
  enabled: number;
  created_at: number;
}

export interface ConsoleUsersTable {
  id: string;
  tenant_id: string;
  username: string;
  /** argon2id PHC string. */
  password_hash: string;
  created_at: number;
}

export interface EvaluationRecordsTable {
  id: string;
  tenant_id: string;
  app_key: string | null;
  kind: string;
  rubric_version: string;
  /** The complete response as JSON text. */
  response: string;
  created_at: number;
}

export interface UsageDailyTable {
  day: string;
  tenant_id: string;
  app_key: string;
  meter: string;
  quantity: number;
}

export interface IdempotencyEntriesTable {
  scope: string;
  key: string;
  fingerprint: string;
  state: string;
  status: number | null;
  headers: string | null;
  body: Buffer | null;
  expires_at: number;
}

export interface NoncesTable {
  app_key: string;
  nonce: string;
  expires_at: number;
}

export interface TenantVoicesTable {
  id: string;
  tenant_id: string;
  voice_id: string;
  name: string;
  language: string;
  gender: string;
  prompt_text: string;
  base_voice: string;
  profile: string;
  status: string;
  created_at: number;
}

export interface Database {
  tenants: TenantsTable;
  api_keys: ApiKeysTable;
  console_users: ConsoleUsersTable;
  evaluation_records: EvaluationRecordsTable;
  usage_daily: UsageDailyTable;
  idempotency_entries: IdempotencyEntriesTable;
  nonces: NoncesTable;
  tenant_voices: TenantVoicesTable;
}

export type Dialect = 'sqlite' | 'postgres';


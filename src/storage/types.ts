/**
 * Storage contracts. The gateway (authentication, limits, idempotency), the services and the
 * admin command depend on these interfaces only; `src/storage` implements them over SQLite
 * (embedded default) and PostgreSQL with one Kysely schema.
 */

export type Tier = 'trial' | 'standard' | 'enterprise';

export interface Tenant {
  id: string;
  name: string;
  tier: Tier;
  createdAt: number;
}

export interface ApiKeyRecord {
  id: string;
  tenantId: string;
  appKey: string;
  /** Plain secret, decrypted for HMAC verification; stored encrypted at rest. */
  secret: string;
  tier: Tier;
  sandbox: boolean;
  /** Whitelisted native coreTypes; null allows every kind. */
  coreTypes: string[] | null;
  /** Remaining plan-quota calls; null means unlimited. */
  quota: number | null;
  /** Remaining prepaid balance in calls, used once the quota is spent. */
  balance: number;
  enabled: boolean;
  createdAt: number;
}

export interface ConsoleUser {
  id: string;
  tenantId: string;
  username: string;
  /** The tenant's tier (decides concurrency limits for evaluations a console user runs). */
  tier: Tier;
}

/** Meter names (spec "What the service does", item 8). */
export type MeterName = 'evaluation.calls' | 'evaluation.chars' | 'evaluation.audio_seconds' | 'tts.standard' | 'asr.stream';

export interface UsageIncrement {
  tenantId: string;
  appKey: string;
  meter: MeterName;
  quantity: number;
}

export interface UsageRow {
  day: string; // YYYY-MM-DD, Beijing time
  tenantId: string;
  appKey: string;
  meter: MeterName;
  quantity: number;
}

export interface EvaluationRecordInput {
  id: string;
  tenantId: string;
  appKey: string | null;
  /** coreType as requested (native or compat name). */
  kind: string;
  rubricVersion: string;
  /** The complete bare response as returned to the caller. */
  response: unknown;
}

export interface EvaluationRecord extends EvaluationRecordInput {
  createdAt: number;
}

export interface KeyStore {
  findByAppKey(appKey: string): Promise<ApiKeyRecord | null>;
  /** True when the key still has plan quota or balance for `units` calls. */
  hasCredit(keyId: string, units: number): Promise<boolean>;
}

export interface UserStore {
  /** Checks the password (memory-hard hash); null on unknown user or wrong password. */
  verifyLogin(username: string, password: string): Promise<ConsoleUser | null>;
  findById(userId: string): Promise<ConsoleUser | null>;
}

export interface RecordStore {
  /** Null when missing or owned by another tenant. */
  get(recordId: string, tenantId: string): Promise<EvaluationRecord | null>;
}

/**
 * Everything a successful call writes, in one transaction: the evaluation record (if any),
 * the usage increments, and the charge against plan quota then balance. Failed calls write
 * nothing. Returns false (and writes nothing) when quota and balance are both insufficient.
 */
export interface SuccessLedger {
  commitSuccess(input: {
    record?: EvaluationRecordInput;
    usage: UsageIncrement[];
    charge?: { keyId: string; units: number };
  }): Promise<boolean>;
}

export interface UsageStore {
  /** Daily rows in [fromDay, toDay] (inclusive, Beijing days), optionally one key or meter. */
  query(tenantId: string, q: { from: string; to: string; appKey?: string; meter?: MeterName }): Promise<UsageRow[]>;
}

/** Idempotency entries (spec "Idempotency key" state table). Implemented in SQL and in Redis. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export type IdempotencyClaim =
  | { state: 'claimed' }
  | { state: 'processing'; fingerprint: string }
  | { state: 'done'; fingerprint: string; response: StoredResponse };

export interface IdempotencyStore {
  /** Atomically claims (scope, key) for a new request, or reports what is there. */
  claim(scope: string, key: string, fingerprint: string, ttlMs: number): Promise<IdempotencyClaim>;
  /** Stores the finished response for ttlMs (24 h). */
  complete(scope: string, key: string, response: StoredResponse, ttlMs: number): Promise<void>;
  /** Drops a processing claim whose request failed, so the key can be retried. */
  release(scope: string, key: string): Promise<void>;
  peek(scope: string, key: string): Promise<IdempotencyClaim | null>;
}

export interface NonceStore {
  /** Records the nonce for ttlMs; false when it was already seen (replay). */
  remember(appKey: string, nonce: string, ttlMs: number): Promise<boolean>;
}

/** A tenant-private TTS voice: a base voice adapted to a reference speaker's profile. */
export interface TenantVoice {
  /** Item id used for deletion (spec: not the voiceId). */
  id: string;
  tenantId: string;
  /** The `voice` parameter of TTS. */
  voiceId: string;
  name: string;
  language: string;
  gender: string;
  promptText: string;
  baseVoice: string;
  profile: unknown;
  status: 'ready';
  createdAt: number;
}

export interface VoiceStore {
  /** Null when the tenant already has a voice with this name. */
  create(input: Omit<TenantVoice, 'id' | 'voiceId' | 'status' | 'createdAt'>): Promise<TenantVoice | null>;
  list(tenantId: string): Promise<TenantVoice[]>;
  findByVoiceId(tenantId: string, voiceId: string): Promise<TenantVoice | null>;
  /** False when no voice of this tenant has this item id. */
  delete(tenantId: string, id: string): Promise<boolean>;
}

export interface Storage {
  keys: KeyStore;
  users: UserStore;
  records: RecordStore;
  ledger: SuccessLedger;
  usage: UsageStore;
  idempotency: IdempotencyStore;
  nonces: NonceStore;
  voices: VoiceStore;
  /** Runs pending migrations; resolves when the schema is current. */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

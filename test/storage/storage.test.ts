/**
 * The storage suite on every available back end: migrations, keys, console logins, records,
 * the success ledger, usage rows and a restart without loss.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Config } from '../../src/config.js';
import type { KouyuStorage } from '../../src/storage/index.js';
import { createSqlLedger } from '../../src/storage/sql/ledger.js';
import { createSqlIdempotencyStore } from '../../src/storage/sql/idempotency.js';
import { tableNames } from '../../src/storage/migrations.js';
import { openMigrated, postgresBackend, sqliteBackend, type Backend } from './backends.js';

async function seedKey(storage: KouyuStorage, opts: { quota?: number | null; balance?: number; tier?: 'trial' | 'standard' } = {}) {
  const tenant = await storage.admin.createTenant({ name: 'school', tier: opts.tier ?? 'standard' });
  const key = await storage.admin.createKey({
    tenantId: tenant.id,
    tier: tenant.tier,
    sandbox: false,
    coreTypes: ['word', 'sentence'],
    quota: opts.quota === undefined ? null : opts.quota,
    balance: opts.balance ?? 0,
  });
  return { tenant, key };
}

function evaluationUsage(tenantId: string, appKey: string, chars: number) {
  return [
    { tenantId, appKey, meter: 'evaluation.calls' as const, quantity: 1 },
    { tenantId, appKey, meter: 'evaluation.chars' as const, quantity: chars },
    { tenantId, appKey, meter: 'evaluation.audio_seconds' as const, quantity: 2.5 },
  ];
}

function suite(backend: Backend): void {
  describe(`storage on ${backend.name}`, { skip: backend.skip }, () => {
    let config: Config;
    let storage: KouyuStorage;
    before(async () => {
      config = await backend.setUp();
      storage = await openMigrated(config);
    });
    after(async () => {
      await storage?.close();
      await backend.tearDown();
    });

    test('migrations create every table and a second run changes nothing', async () => {
      const names = await tableNames(storage.db);
      for (const table of ['tenants', 'api_keys', 'console_users', 'evaluation_records', 'usage_daily', 'idempotency_entries', 'nonces']) {
        assert.ok(names.includes(table), `${table} missing from ${names.join(',')}`);
      }
      const again = await openMigrated(config);
      assert.deepEqual(await tableNames(again.db), names);
      await again.close();
    });

    test('keys are found by appKey with the secret decrypted, and stored encrypted', async () => {
      const { tenant, key } = await seedKey(storage, { quota: 10, balance: 3 });
      const found = await storage.keys.findByAppKey(key.appKey);
      assert.ok(found);
      assert.equal(found.tenantId, tenant.id);
      assert.equal(found.secret, key.secret);
      assert.ok(found.secret.length >= 40, 'secret has at least 240 bits');
      assert.deepEqual(found.coreTypes, ['word', 'sentence']);
      assert.equal(found.quota, 10);
      assert.equal(found.balance, 3);
      assert.equal(found.enabled, true);
      assert.equal(await storage.keys.findByAppKey('ak_nobody'), null);
      const raw = await storage.db.selectFrom('api_keys').select('secret_enc').where('app_key', '=', key.appKey).executeTakeFirstOrThrow();
      assert.ok(!raw.secret_enc.includes(key.secret), 'secret must not be stored in plain text');
    });

    test('disabling, quota and balance changes are seen on the next lookup', async () => {
      const { key } = await seedKey(storage);
      assert.equal(await storage.admin.setEnabled(key.appKey, false), true);
      assert.equal((await storage.keys.findByAppKey(key.appKey))?.enabled, false);
      assert.equal(await storage.admin.setQuota(key.appKey, 7), true);
      assert.equal(await storage.admin.setBalance(key.appKey, 9), true);
      const found = await storage.keys.findByAppKey(key.appKey);
      assert.equal(found?.quota, 7);
      assert.equal(found?.balance, 9);
      assert.equal(await storage.admin.setEnabled('ak_nobody', false), false);
    });

    test('console login checks an argon2id hash', async () => {
      const { tenant } = await seedKey(storage, { tier: 'trial' });
      const username = `teacher_${backend.name}`;
      const user = await storage.admin.createUser({ tenantId: tenant.id, username, password: 'correct horse' });
      assert.equal(user.tier, 'trial');
      const row = await storage.db.selectFrom('console_users').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
      assert.match(row.password_hash, /^\$argon2id\$/);
      assert.deepEqual(await storage.users.verifyLogin(username, 'correct horse'), user);
      assert.equal(await storage.users.verifyLogin(username, 'wrong horse'), null);
      assert.equal(await storage.users.verifyLogin('nobody', 'correct horse'), null);
      assert.deepEqual(await storage.users.findById(user.id), user);
    });

    test('ledger charges quota, then balance, then refuses and writes nothing', async () => {
      const { tenant, key } = await seedKey(storage, { quota: 2, balance: 1 });
      const commit = (id: string) =>
        storage.ledger.commitSuccess({
          record: { id, tenantId: tenant.id, appKey: key.appKey, kind: 'word', rubricVersion: 'v20260705a', response: { recordId: id } },
          usage: evaluationUsage(tenant.id, key.appKey, 4),
          charge: { keyId: key.id, units: 1 },
        });
      assert.equal(await commit('eval_l1'), true);
      assert.equal(await commit('eval_l2'), true);
      let state = await storage.keys.findByAppKey(key.appKey);
      assert.deepEqual([state?.quota, state?.balance], [0, 1]);
      assert.equal(await storage.keys.hasCredit(key.id, 1), true);
      assert.equal(await commit('eval_l3'), true);
      state = await storage.keys.findByAppKey(key.appKey);
      assert.deepEqual([state?.quota, state?.balance], [0, 0]);
      assert.equal(await storage.keys.hasCredit(key.id, 1), false);
      assert.equal(await commit('eval_l4'), false);
      assert.equal(await storage.records.get('eval_l4', tenant.id), null, 'refused call left a record');
      const rows = await storage.usage.query(tenant.id, { from: '2000-01-01', to: '2100-01-01', meter: 'evaluation.calls' });
      assert.equal(rows.reduce((sum, row) => sum + row.quantity, 0), 3, 'refused call was metered');
    });

    test('concurrent charges never spend more than the credit', async () => {
      const { tenant, key } = await seedKey(storage, { quota: 3, balance: 2 });
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          storage.ledger.commitSuccess({ usage: evaluationUsage(tenant.id, key.appKey, 1), charge: { keyId: key.id, units: 1 } }),
        ),
      );
      assert.equal(results.filter(Boolean).length, 5);
      const rows = await storage.usage.query(tenant.id, { from: '2000-01-01', to: '2100-01-01', meter: 'evaluation.calls' });
      assert.equal(rows[0]?.quantity, 5);
    });

    test('unlimited quota charges nothing and always succeeds', async () => {
      const { tenant, key } = await seedKey(storage, { quota: null, balance: 0 });
      const ok = await storage.ledger.commitSuccess({ usage: evaluationUsage(tenant.id, key.appKey, 1), charge: { keyId: key.id, units: 1 } });
      assert.equal(ok, true);
      assert.equal((await storage.keys.findByAppKey(key.appKey))?.quota, null);
    });

    test('usage rows add up per Beijing day (UTC+8 boundary at 16:00 UTC)', async () => {
      const { tenant, key } = await seedKey(storage);
      const at = (iso: string) => createSqlLedger(storage.db, () => Date.parse(iso));
      const usage = evaluationUsage(tenant.id, key.appKey, 10);
      await at('2026-03-01T15:59:59.999Z').commitSuccess({ usage });
      await at('2026-03-01T01:00:00.000Z').commitSuccess({ usage });
      await at('2026-03-01T16:00:00.000Z').commitSuccess({ usage });
      const rows = await storage.usage.query(tenant.id, { from: '2026-03-01', to: '2026-03-02' });
      const get = (day: string, meter: string) => rows.find((r) => r.day === day && r.meter === meter)?.quantity;
      assert.equal(get('2026-03-01', 'evaluation.calls'), 2);
      assert.equal(get('2026-03-01', 'evaluation.chars'), 20);
      assert.ok(Math.abs((get('2026-03-01', 'evaluation.audio_seconds') ?? 0) - 5) < 1e-9, 'audio seconds within 1e-9');
      assert.equal(get('2026-03-02', 'evaluation.calls'), 1);
      assert.equal(rows.length, 6);
      const one = await storage.usage.query(tenant.id, { from: '2026-03-02', to: '2026-03-02', meter: 'evaluation.chars', appKey: key.appKey });
      assert.deepEqual(one, [{ day: '2026-03-02', tenantId: tenant.id, appKey: key.appKey, meter: 'evaluation.chars', quantity: 10 }]);
      const other = await seedKey(storage);
      assert.deepEqual(await storage.usage.query(other.tenant.id, { from: '2026-03-01', to: '2026-03-02' }), []);
    });

    test('records are visible to their own tenant only', async () => {
      const a = await seedKey(storage);
      const b = await seedKey(storage);
      const response = { recordId: 'eval_rec1', eof: 1, result: { overall: 87, words: [{ word: '你' }] }, report: { rubricVersion: 'v20260705a' }, warnings: [] };
      await storage.ledger.commitSuccess({
        record: { id: 'eval_rec1', tenantId: a.tenant.id, appKey: a.key.appKey, kind: 'sentence', rubricVersion: 'v20260705a', response },
        usage: [],
      });
      const found = await storage.records.get('eval_rec1', a.tenant.id);
      assert.deepEqual(found?.response, response);
      assert.equal(found?.kind, 'sentence');
      assert.ok(found && Math.abs(found.createdAt - Date.now()) < 60_000, 'createdAt within a minute of now');
      assert.equal(await storage.records.get('eval_rec1', b.tenant.id), null);
      assert.equal(await storage.records.get('eval_missing', a.tenant.id), null);
    });

    test('expired idempotency entries of other keys are swept at most once a minute', async () => {
      let now = Date.parse('2030-01-01T00:00:00Z');
      const store = createSqlIdempotencyStore(storage.db, () => now);
      const count = async () => (await storage.db.selectFrom('idempotency_entries').select('key').where('scope', '=', 'sweep').execute()).length;
      await store.claim('sweep', 'a', 'fp', 1000); // first claim sweeps (and sets the sweep time)
      await store.claim('sweep', 'b', 'fp', 1000);
      now += 30_000; // both expired, but the last sweep was 30 s ago
      await store.claim('sweep', 'c', 'fp', 1000);
      assert.equal(await count(), 3);
      now += 31_000; // a minute after the first sweep: a, b and c are expired and swept
      await store.claim('sweep', 'd', 'fp', 1000);
      assert.equal(await count(), 1);
    });

    test('a restart loses no key, record or usage row', async () => {
      const { tenant, key } = await seedKey(storage, { quota: 5 });
      await storage.ledger.commitSuccess({
        record: { id: 'eval_restart', tenantId: tenant.id, appKey: key.appKey, kind: 'word', rubricVersion: 'v20260705a', response: { ok: true } },
        usage: evaluationUsage(tenant.id, key.appKey, 3),
        charge: { keyId: key.id, units: 1 },
      });
      await storage.close();
      storage = await openMigrated(config);
      assert.equal((await storage.keys.findByAppKey(key.appKey))?.secret, key.secret);
      assert.equal((await storage.keys.findByAppKey(key.appKey))?.quota, 4);
      assert.deepEqual((await storage.records.get('eval_restart', tenant.id))?.response, { ok: true });
      const rows = await storage.usage.query(tenant.id, { from: '2000-01-01', to: '2100-01-01' });
      assert.equal(rows.length, 3);
    });
  });
}

suite(sqliteBackend());
suite(postgresBackend());

/**
 * What successful evaluations leave behind for one account: stored records, metered calls
 * and the key's remaining quota and balance. Tests compare a snapshot before and after.
 */
import type { FastifyInstance } from 'fastify';
import { beijingDay } from '../../src/storage/day.js';
import type { MeterName } from '../../src/storage/types.js';
import type { TestAccount } from './gateway.js';

export interface Ledger {
  records: number;
  calls: number;
  quota: number | null;
  balance: number;
}

export async function meterTotal(app: FastifyInstance, account: TestAccount, meter: MeterName): Promise<number> {
  const day = beijingDay();
  const rows = await app.storage.usage.query(account.tenantId, { from: day, to: day, meter });
  return rows.reduce((sum, r) => sum + r.quantity, 0);
}

export async function recordCount(app: FastifyInstance, account: TestAccount): Promise<number> {
  const row = await app.storage.db
    .selectFrom('evaluation_records')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('tenant_id', '=', account.tenantId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function ledger(app: FastifyInstance, account: TestAccount): Promise<Ledger> {
  const key = await app.storage.keys.findByAppKey(account.appKey);
  if (!key) throw new Error(`no key ${account.appKey}`);
  return { records: await recordCount(app, account), calls: await meterTotal(app, account, 'evaluation.calls'), quota: key.quota, balance: key.balance };
}

/** The ledger after `n` more charged evaluations (quota first, then balance). */
export function charged(before: Ledger, n: number): Ledger {
  const fromQuota = before.quota === null ? 0 : Math.min(before.quota, n);
  return {
    records: before.records + n,
    calls: before.calls + n,
    quota: before.quota === null ? null : before.quota - fromQuota,
    balance: before.quota === null ? before.balance : before.balance - (n - fromQuota),
  };
}

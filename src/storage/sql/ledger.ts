/**
 * The write path of a successful call (types.ts SuccessLedger): charge, record and usage
 * in ONE transaction, so a crash leaves either all of them or none.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { EvaluationRecordInput, SuccessLedger, UsageIncrement } from '../types.js';
import type { Database } from '../schema.js';
import { beijingDay } from '../day.js';

class InsufficientCredit extends Error {}

/**
 * Charges `units` calls to plan quota first and prepaid balance for the rest, as one
 * conditional UPDATE: the WHERE clause re-checks credit under the row lock, so two
 * concurrent charges can never both spend the last unit. A null quota means unlimited.
 * Returns false when quota + balance < units (nothing changed).
 */
async function charge(trx: Transaction<Database>, keyId: string, units: number): Promise<boolean> {
  const u = sql<number>`cast(${units} as bigint)`;
  const result = await trx
    .updateTable('api_keys')
    .set({
      quota: sql`case when quota is null then null when quota >= ${u} then quota - ${u} else 0 end`,
      balance: sql`case when quota is null or quota >= ${u} then balance else balance - (${u} - quota) end`,
    })
    .where('id', '=', keyId)
    .where(sql<boolean>`(quota is null or quota + balance >= ${u})`)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

async function insertRecord(trx: Transaction<Database>, record: EvaluationRecordInput, now: number): Promise<void> {
  await trx
    .insertInto('evaluation_records')
    .values({
      id: record.id,
      tenant_id: record.tenantId,
      app_key: record.appKey,
      kind: record.kind,
      rubric_version: record.rubricVersion,
      response: JSON.stringify(record.response),
      created_at: now,
    })
    .execute();
}

/** Adds each increment to its (day, tenant, appKey, meter) row, creating the row on first use. */
export async function addUsage(trx: Kysely<Database>, usage: UsageIncrement[], now: number): Promise<void> {
  const day = beijingDay(now);
  for (const inc of usage) {
    if (!(inc.quantity >= 0) || !Number.isFinite(inc.quantity)) throw new Error(`bad usage quantity for ${inc.meter}`);
    await trx
      .insertInto('usage_daily')
      .values({ day, tenant_id: inc.tenantId, app_key: inc.appKey, meter: inc.meter, quantity: inc.quantity })
      .onConflict((oc) =>
        oc
          .columns(['day', 'tenant_id', 'app_key', 'meter'])
          .doUpdateSet({ quantity: (eb) => eb('usage_daily.quantity', '+', eb.ref('excluded.quantity')) }),
      )
      .execute();
  }
}

export function createSqlLedger(db: Kysely<Database>, clock: () => number = Date.now): SuccessLedger {
  return {
    async commitSuccess({ record, usage, charge: debit }) {
      const now = clock();
      try {
        await db.transaction().execute(async (trx) => {
          if (debit && debit.units > 0 && !(await charge(trx, debit.keyId, debit.units))) throw new InsufficientCredit();
          if (record) await insertRecord(trx, record, now);
          await addUsage(trx, usage, now);
        });
        return true;
      } catch (err) {
        if (err instanceof InsufficientCredit) return false;
        throw err;
      }
    },
  };
}

/** Daily usage rows for the console (Beijing days, inclusive range). */
import type { Kysely } from 'kysely';
import type { MeterName, UsageStore } from '../types.js';
import type { Database } from '../schema.js';

export function createSqlUsageStore(db: Kysely<Database>): UsageStore {
  return {
    async query(tenantId, q) {
      let query = db
        .selectFrom('usage_daily')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .where('day', '>=', q.from)
        .where('day', '<=', q.to);
      if (q.appKey !== undefined) query = query.where('app_key', '=', q.appKey);
      if (q.meter !== undefined) query = query.where('meter', '=', q.meter);
      const rows = await query.orderBy('day').orderBy('app_key').orderBy('meter').execute();
      return rows.map((row) => ({
        day: row.day,
        tenantId: row.tenant_id,
        appKey: row.app_key,
        meter: row.meter as MeterName,
        quantity: row.quantity,
      }));
    },
  };
}

/** Evaluation records, read back per tenant (spec `GET /api/v1/report/{recordId}`). */
import type { Kysely } from 'kysely';
import type { RecordStore } from '../types.js';
import type { Database } from '../schema.js';

export function createSqlRecordStore(db: Kysely<Database>): RecordStore {
  return {
    async get(recordId, tenantId) {
      const row = await db
        .selectFrom('evaluation_records')
        .selectAll()
        .where('id', '=', recordId)
        .where('tenant_id', '=', tenantId)
        .executeTakeFirst();
      if (!row) return null;
      return {
        id: row.id,
        tenantId: row.tenant_id,
        appKey: row.app_key,
        kind: row.kind,
        rubricVersion: row.rubric_version,
        response: JSON.parse(row.response) as unknown,
        createdAt: row.created_at,
      };
    },
  };
}

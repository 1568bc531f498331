/** Tenant-private TTS voices; every query is scoped to the tenant (spec: tenants are isolated). */
import type { Kysely, Selectable } from 'kysely';
import type { Database, TenantVoicesTable } from '../schema.js';
import type { TenantVoice, VoiceStore } from '../types.js';
import { randomId } from '../ids.js';

function toVoice(row: Selectable<TenantVoicesTable>): TenantVoice {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    voiceId: row.voice_id,
    name: row.name,
    language: row.language,
    gender: row.gender,
    promptText: row.prompt_text,
    baseVoice: row.base_voice,
    profile: JSON.parse(row.profile) as unknown,
    status: 'ready',
    createdAt: row.created_at,
  };
}

export function createSqlVoiceStore(db: Kysely<Database>): VoiceStore {
  return {
    async create(input) {
      const row: Selectable<TenantVoicesTable> = {
        id: randomId('vi_'),
        tenant_id: input.tenantId,
        voice_id: randomId('tv_'),
        name: input.name,
        language: input.language,
        gender: input.gender,
        prompt_text: input.promptText,
        base_voice: input.baseVoice,
        profile: JSON.stringify(input.profile),
        status: 'ready',
        created_at: Date.now(),
      };
      const inserted = await db
        .insertInto('tenant_voices')
        .values(row)
        .onConflict((oc) => oc.columns(['tenant_id', 'name']).doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1 ? toVoice(row) : null;
    },
    async list(tenantId) {
      const rows = await db.selectFrom('tenant_voices').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at').execute();
      return rows.map(toVoice);
    },
    async findByVoiceId(tenantId, voiceId) {
      const row = await db.selectFrom('tenant_voices').selectAll().where('tenant_id', '=', tenantId).where('voice_id', '=', voiceId).executeTakeFirst();
      return row ? toVoice(row) : null;
    },
    async delete(tenantId, id) {
      const result = await db.deleteFrom('tenant_voices').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}

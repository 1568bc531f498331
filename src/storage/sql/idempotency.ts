/**
 * Idempotency entries in SQL (spec "Idempotency key" state table). The claim is one
 * INSERT … ON CONFLICT DO NOTHING: the primary key (scope, key) lets exactly one of any
 * number of concurrent first requests insert; the others read what is there. Expired rows
 * count as absent: they are deleted before the insert, so a stale entry is replaced, and all
 * expired rows are swept at most once a minute so stored bodies do not pile up.
 */
import type { Kysely, Selectable } from 'kysely';
import type { IdempotencyClaim, IdempotencyStore } from '../types.js';
import type { Database, IdempotencyEntriesTable } from '../schema.js';

function toClaim(row: Selectable<IdempotencyEntriesTable>): IdempotencyClaim {
  if (row.state !== 'done') return { state: 'processing', fingerprint: row.fingerprint };
  return {
    state: 'done',
    fingerprint: row.fingerprint,
    response: {
      status: row.status ?? 200,
      headers: JSON.parse(row.headers ?? '{}') as Record<string, string>,
      body: Buffer.from(row.body ?? Buffer.alloc(0)),
    },
  };
}

const SWEEP_INTERVAL_MS = 60_000;

export function createSqlIdempotencyStore(db: Kysely<Database>, clock: () => number = Date.now): IdempotencyStore {
  let lastSweep = 0;
  const live = (scope: string, key: string) =>
    db.selectFrom('idempotency_entries').selectAll().where('scope', '=', scope).where('key', '=', key).where('expires_at', '>', clock());

  return {
    async claim(scope, key, fingerprint, ttlMs) {
      const now = clock();
      let expired = db.deleteFrom('idempotency_entries').where('expires_at', '<=', now);
      if (now - lastSweep >= SWEEP_INTERVAL_MS) lastSweep = now;
      else expired = expired.where('scope', '=', scope).where('key', '=', key);
      await expired.execute();
      const inserted = await db
        .insertInto('idempotency_entries')
        .values({ scope, key, fingerprint, state: 'processing', status: null, headers: null, body: null, expires_at: now + ttlMs })
        .onConflict((oc) => oc.columns(['scope', 'key']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return { state: 'claimed' };
      const row = await live(scope, key).executeTakeFirst();
      // The holder expired between our insert and read: try once more from the top.
      return row ? toClaim(row) : this.claim(scope, key, fingerprint, ttlMs);
    },
    async complete(scope, key, response, ttlMs) {
      await db
        .updateTable('idempotency_entries')
        .set({
          state: 'done',
          status: response.status,
          headers: JSON.stringify(response.headers),
          body: response.body,
          expires_at: clock() + ttlMs,
        })
        .where('scope', '=', scope)
        .where('key', '=', key)
        .execute();
    },
    async release(scope, key) {
      await db.deleteFrom('idempotency_entries').where('scope', '=', scope).where('key', '=', key).where('state', '=', 'processing').execute();
    },
    async peek(scope, key) {
      const row = await live(scope, key).executeTakeFirst();
      return row ? toClaim(row) : null;
    },
  };
}

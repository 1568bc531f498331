/**
 * Signature nonces in SQL (spec "Authentication": deduplicated for 300 s). Remembering is
 * one INSERT … ON CONFLICT DO NOTHING on (app_key, nonce); an expired row for the same pair
 * is deleted first, and all expired rows are swept at most once a minute.
 */
import type { Kysely } from 'kysely';
import type { NonceStore } from '../types.js';
import type { Database } from '../schema.js';

const SWEEP_INTERVAL_MS = 60_000;

export function createSqlNonceStore(db: Kysely<Database>, clock: () => number = Date.now): NonceStore {
  let lastSweep = 0;
  return {
    async remember(appKey, nonce, ttlMs) {
      const now = clock();
      if (now - lastSweep >= SWEEP_INTERVAL_MS) {
        lastSweep = now;
        await db.deleteFrom('nonces').where('expires_at', '<=', now).execute();
      } else {
        await db.deleteFrom('nonces').where('app_key', '=', appKey).where('nonce', '=', nonce).where('expires_at', '<=', now).execute();
      }
      const result = await db
        .insertInto('nonces')
        .values({ app_key: appKey, nonce, expires_at: now + ttlMs })
        .onConflict((oc) => oc.columns(['app_key', 'nonce']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
    },
  };
}

/**
 * Console users. Passwords are stored as argon2id PHC strings (RFC 9106; @node-rs/argon2's
 * default algorithm and its OWASP-recommended cost: 19 MiB, 2 passes).
 */
import type { Kysely } from 'kysely';
import type { ConsoleUser, Tier, UserStore } from '../types.js';
import type { Database } from '../schema.js';
import { hashPassword, verifyPassword } from '../../auth/passwords.js';
import { randomId } from '../ids.js';

export interface UserAdmin {
  createUser(input: { tenantId: string; username: string; password: string }): Promise<ConsoleUser>;
}

export function createSqlUserStore(db: Kysely<Database>): UserStore & UserAdmin {
  const withTenant = () =>
    db
      .selectFrom('console_users')
      .innerJoin('tenants', 'tenants.id', 'console_users.tenant_id')
      .select(['console_users.id', 'console_users.tenant_id', 'console_users.username', 'console_users.password_hash', 'tenants.tier']);
  const toUser = (row: { id: string; tenant_id: string; username: string; tier: string }): ConsoleUser => ({
    id: row.id,
    tenantId: row.tenant_id,
    username: row.username,
    tier: row.tier as Tier,
  });
  return {
    async verifyLogin(username, password) {
      const row = await withTenant().where('console_users.username', '=', username).executeTakeFirst();
      // An unknown user still costs one hash check, so response time does not reveal which usernames exist.
      const ok = await verifyPassword(row?.password_hash ?? null, password);
      return row && ok ? toUser(row) : null;
    },
    async findById(userId) {
      const row = await withTenant().where('console_users.id', '=', userId).executeTakeFirst();
      return row ? toUser(row) : null;
    },
    async createUser({ tenantId, username, password }) {
      const id = randomId('u_', 12);
      await db
        .insertInto('console_users')
        .values({ id, tenant_id: tenantId, username, password_hash: await hashPassword(password), created_at: Date.now() })
        .execute();
      const user = await this.findById(id);
      if (!user) throw new Error('console user vanished after insert');
      return user;
    },
  };
}

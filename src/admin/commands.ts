/**
 * The admin operations, over the same storage as the server. Changes are visible to a
 * running server on its next request (key lookups read through to the database).
 */
import type { KouyuStorage } from '../storage/index.js';
import type { ApiKeyRecord } from '../storage/types.js';
import { randomPassword } from '../auth/passwords.js';
import { randomHex } from '../storage/ids.js';
import type { Command } from './args.js';

export class CommandError extends Error {}

export interface Output {
  out(line: string): void;
}

export interface CreatedKey {
  tenantId: string;
  appKey: string;
  secretKey: string;
  username: string;
  password: string;
}

async function createKey(storage: KouyuStorage, cmd: Extract<Command, { name: 'create-key' }>): Promise<CreatedKey> {
  const tenant = cmd.tenant
    ? await storage.admin.findTenant(cmd.tenant)
    : await storage.admin.createTenant({ name: cmd.tenantName ?? `tenant-${randomHex(3)}`, tier: cmd.tier });
  if (!tenant) throw new CommandError(`no tenant with id ${cmd.tenant}`);
  // The tier belongs to the account (it sets console users' concurrency too), so a key
  // added to an existing tenant must carry the tenant's tier.
  if (tenant.tier !== cmd.tier) throw new CommandError(`tenant ${tenant.id} is on the ${tenant.tier} tier; use --tier ${tenant.tier}`);
  const key = await storage.admin.createKey({
    tenantId: tenant.id,
    tier: cmd.tier,
    sandbox: cmd.sandbox,
    coreTypes: cmd.coreTypes,
    quota: cmd.quota,
    balance: cmd.balance,
  });
  const password = randomPassword();
  const user = await storage.admin.createUser({ tenantId: tenant.id, username: `u_${randomHex(5)}`, password });
  return { tenantId: tenant.id, appKey: key.appKey, secretKey: key.secret, username: user.username, password };
}

function describeKey(key: ApiKeyRecord): string {
  const quota = key.quota === null ? 'unlimited' : String(key.quota);
  const types = key.coreTypes?.join(',') ?? 'all';
  return [key.appKey, key.tenantId, key.tier, key.sandbox ? 'sandbox' : 'live', key.enabled ? 'enabled' : 'DISABLED', `quota=${quota}`, `balance=${key.balance}`, `coreTypes=${types}`].join('\t');
}

function publicKey(key: ApiKeyRecord) {
  const { secret: _secret, ...rest } = key;
  return rest;
}

async function mustChange(changed: Promise<boolean>, appKey: string): Promise<void> {
  if (!(await changed)) throw new CommandError(`no key with appKey ${appKey}`);
}

/** Runs one parsed command (not `help`), writing its result through `io`. */
export async function runCommand(storage: KouyuStorage, cmd: Exclude<Command, { name: 'help' }>, io: Output): Promise<void> {
  switch (cmd.name) {
    case 'create-key': {
      const created = await createKey(storage, cmd);
      if (cmd.json) io.out(JSON.stringify(created));
      else for (const [name, value] of Object.entries(created)) io.out(`${name.padEnd(10)} ${value}`);
      return;
    }
    case 'disable-key':
    case 'enable-key':
      await mustChange(storage.admin.setEnabled(cmd.appKey, cmd.name === 'enable-key'), cmd.appKey);
      io.out(`${cmd.appKey} ${cmd.name === 'enable-key' ? 'enabled' : 'disabled'}`);
      return;
    case 'set-quota':
      await mustChange(storage.admin.setQuota(cmd.appKey, cmd.quota), cmd.appKey);
      io.out(`${cmd.appKey} quota=${cmd.quota ?? 'unlimited'}`);
      return;
    case 'set-balance':
      await mustChange(storage.admin.setBalance(cmd.appKey, cmd.balance), cmd.appKey);
      io.out(`${cmd.appKey} balance=${cmd.balance}`);
      return;
    case 'list-keys': {
      const keys = await storage.admin.listKeys(cmd.tenant ?? undefined);
      // Secrets are never listed; they are shown once, by create-key.
      if (cmd.json) io.out(JSON.stringify(keys.map(publicKey)));
      else for (const key of keys) io.out(describeKey(key));
      return;
    }
  }
}

/** Command-line parsing for the admin command; every mistake is a UsageError (exit code 2). */
import { parseArgs } from 'node:util';
import type { Tier } from '../storage/types.js';

export class UsageError extends Error {}

export const TIERS: readonly Tier[] = ['trial', 'standard', 'enterprise'];

export const USAGE = `Usage: npm run --silent admin -- <command> [options]

Commands:
  create-key --tier <trial|standard|enterprise> [--sandbox] [--core-types word,sentence,...]
             [--quota <calls>] [--balance <calls>] [--tenant <id>] [--name <tenant name>] [--json]
      Creates a tenant (or adds a key to --tenant <id>), an appKey/secretKey pair and a
      console user with a random password. Without --quota the plan quota is unlimited.
  disable-key <appKey>            Refuses the key from the next request on.
  enable-key <appKey>             Accepts a disabled key again.
  set-quota <appKey> <calls|unlimited>
  set-balance <appKey> <calls>
  list-keys [--tenant <id>] [--json]

The command reads the same environment as the server (KOUYU_DATA_DIR, DATABASE_URL,
KOUYU_SECRET_KEY) and applies pending migrations first.`;

export type Command =
  | { name: 'create-key'; tier: Tier; sandbox: boolean; coreTypes: string[] | null; quota: number | null; balance: number; tenant: string | null; tenantName: string | null; json: boolean }
  | { name: 'disable-key' | 'enable-key'; appKey: string }
  | { name: 'set-quota'; appKey: string; quota: number | null }
  | { name: 'set-balance'; appKey: string; balance: number }
  | { name: 'list-keys'; tenant: string | null; json: boolean }
  | { name: 'help' };

function calls(name: string, raw: string | undefined): number {
  if (raw === undefined || !/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw new UsageError(`${name} must be a whole number of calls >= 0, got "${raw ?? ''}"`);
  }
  return Number(raw);
}

function positionals(args: string[], count: number, names: string[]): string[] {
  const { positionals: values } = parseArgs({ args, allowPositionals: true, strict: true, options: {} });
  if (values.length !== count) throw new UsageError(`expected ${names.join(' ')}`);
  return values;
}

function parseCreateKey(args: string[]): Command {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      tier: { type: 'string' },
      sandbox: { type: 'boolean', default: false },
      'core-types': { type: 'string' },
      quota: { type: 'string' },
      balance: { type: 'string' },
      tenant: { type: 'string' },
      name: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  if (!values.tier || !TIERS.includes(values.tier as Tier)) throw new UsageError(`--tier must be one of ${TIERS.join(', ')}`);
  const coreTypes = values['core-types']?.split(',').map((s) => s.trim()).filter((s) => s !== '') ?? null;
  if (coreTypes !== null && coreTypes.length === 0) throw new UsageError('--core-types needs at least one coreType');
  return {
    name: 'create-key',
    tier: values.tier as Tier,
    sandbox: values.sandbox ?? false,
    coreTypes,
    quota: values.quota === undefined ? null : calls('--quota', values.quota),
    balance: values.balance === undefined ? 0 : calls('--balance', values.balance),
    tenant: values.tenant ?? null,
    tenantName: values.name ?? null,
    json: values.json ?? false,
  };
}

/** Parses argv (without node and script). Throws UsageError with a precise message. */
export function parseCommand(argv: string[]): Command {
  const [name, ...rest] = argv;
  try {
    switch (name) {
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        return { name: 'help' };
      case 'create-key':
        return parseCreateKey(rest);
      case 'disable-key':
      case 'enable-key':
        return { name, appKey: positionals(rest, 1, ['<appKey>'])[0] };
      case 'set-quota': {
        const [appKey, raw] = positionals(rest, 2, ['<appKey>', '<calls|unlimited>']);
        return { name, appKey, quota: raw === 'unlimited' ? null : calls('quota', raw) };
      }
      case 'set-balance': {
        const [appKey, raw] = positionals(rest, 2, ['<appKey>', '<calls>']);
        return { name, appKey, balance: calls('balance', raw) };
      }
      case 'list-keys': {
        const { values } = parseArgs({ args: rest, strict: true, options: { json: { type: 'boolean', default: false }, tenant: { type: 'string' } } });
        return { name, tenant: values.tenant ?? null, json: values.json ?? false };
      }
      default:
        throw new UsageError(`unknown command "${name}"`);
    }
  } catch (err) {
    // parseArgs reports unknown or malformed options with a TypeError carrying a code.
    if (err instanceof UsageError) throw err;
    if ((err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) throw new UsageError(`${name}: ${(err as Error).message}`);
    throw err;
  }
}

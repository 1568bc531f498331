/**
 * The admin command as operators run it (a separate process), against SQLite and
 * PostgreSQL. A storage opened separately stands for the running server: it must see new
 * keys, disabled keys and quota changes without reopening.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { KouyuStorage } from '../../src/storage/index.js';
import { REPO_ROOT, tempDir } from '../helpers/app.js';
import { loadConfig } from '../../src/config.js';
import { parseCommand, UsageError } from '../../src/admin/args.js';
import { createPgDatabase, openMigrated, PG_SKIP, type PgDatabase } from '../storage/backends.js';

const run = promisify(execFile);

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  const childEnv = { ...process.env, DATABASE_URL: '', REDIS_URL: '', KOUYU_SECRET_KEY: '', ...env };
  return run(process.execPath, ['--import', 'tsx', 'src/admin/cli.ts', ...args], { cwd: REPO_ROOT, env: childEnv }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
  );
}

function cliSuite(name: string, skip: string | false, full: boolean, makeEnv: () => Promise<{ env: Record<string, string>; cleanup(): Promise<void> }>) {
  describe(`admin command on ${name}`, { skip }, () => {
    let env: Record<string, string>;
    let cleanup: () => Promise<void>;
    let server: KouyuStorage;
    before(async () => {
      ({ env, cleanup } = await makeEnv());
      // Migrated by the "server" first; the command must cope with an existing schema.
      server = await openMigrated(loadConfig({ ...env, KOUYU_LOG_LEVEL: 'silent' }, REPO_ROOT));
    });
    after(async () => {
      await server?.close();
      await cleanup?.();
    });

    test('create-key --json prints one JSON line; the running server finds the key and the login', async () => {
      const result = await cli(env, 'create-key', '--tier', 'standard', '--core-types', 'word,sentence', '--quota', '5', '--balance', '2', '--json');
      assert.equal(result.code, 0, result.stderr);
      const lines = result.stdout.split('\n').filter((line) => line !== '');
      assert.equal(lines.length, 1, result.stdout);
      const created = JSON.parse(lines[0]) as Record<string, string>;
      assert.deepEqual(Object.keys(created), ['tenantId', 'appKey', 'secretKey', 'username', 'password']);
      for (const value of Object.values(created)) assert.match(value, /^[A-Za-z0-9_-]{8,}$/, 'URL-safe');
      const key = await server.keys.findByAppKey(created.appKey);
      assert.ok(key, 'key created by the command is visible to the open storage');
      assert.equal(key.secret, created.secretKey);
      assert.equal(key.tenantId, created.tenantId);
      assert.deepEqual([key.tier, key.sandbox, key.quota, key.balance], ['standard', false, 5, 2]);
      assert.deepEqual(key.coreTypes, ['word', 'sentence']);
      const user = await server.users.verifyLogin(created.username, created.password);
      assert.equal(user?.tenantId, created.tenantId);

      if (!full) return; // the rest is dialect-independent command logic, run once on SQLite
      const second = JSON.parse((await cli(env, 'create-key', '--tier', 'standard', '--sandbox', '--tenant', created.tenantId, '--json')).stdout);
      assert.equal(second.tenantId, created.tenantId);
      assert.notEqual(second.appKey, created.appKey);
      const sandboxKey = await server.keys.findByAppKey(second.appKey);
      assert.deepEqual([sandboxKey?.sandbox, sandboxKey?.quota, sandboxKey?.coreTypes], [true, null, null]);

      // disable, quota and balance changes are seen by the running server without a restart
      assert.equal((await cli(env, 'disable-key', created.appKey)).code, 0);
      assert.equal((await server.keys.findByAppKey(created.appKey))?.enabled, false);
      assert.equal((await cli(env, 'set-quota', created.appKey, 'unlimited')).code, 0);
      assert.equal((await cli(env, 'set-balance', created.appKey, '40')).code, 0);
      const changed = await server.keys.findByAppKey(created.appKey);
      assert.deepEqual([changed?.quota, changed?.balance], [null, 40]);

      const listed = await cli(env, 'list-keys', '--json');
      const keys = JSON.parse(listed.stdout) as Record<string, unknown>[];
      assert.deepEqual(keys.map((k) => k.appKey).sort(), [created.appKey, second.appKey].sort());
      assert.ok(!listed.stdout.includes(created.secretKey), 'list-keys must not print secrets');
      assert.equal(keys.find((k) => k.appKey === created.appKey)?.enabled, false);
    });

    test('an unknown appKey or tenant fails with exit code 1 and a clear message', { skip: !full && 'run once, on SQLite' }, async () => {
      const missing = await cli(env, 'disable-key', 'ak_nobody');
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /no key with appKey ak_nobody/);
      const tenant = await cli(env, 'create-key', '--tier', 'trial', '--tenant', 't_nobody');
      assert.equal(tenant.code, 1);
      assert.match(tenant.stderr, /no tenant with id t_nobody/);
      const trial = JSON.parse((await cli(env, 'create-key', '--tier', 'trial', '--json')).stdout) as { tenantId: string };
      const mismatch = await cli(env, 'create-key', '--tier', 'enterprise', '--tenant', trial.tenantId);
      assert.equal(mismatch.code, 1);
      assert.match(mismatch.stderr, /is on the trial tier; use --tier trial/);
    });
  });
}

cliSuite('SQLite', false, true, async () => ({ env: { KOUYU_DATA_DIR: tempDir() }, cleanup: async () => undefined }));

let pgDb: PgDatabase | null = null;
cliSuite('PostgreSQL', PG_SKIP, false, async () => {
  pgDb = await createPgDatabase();
  return { env: { KOUYU_DATA_DIR: tempDir(), DATABASE_URL: pgDb.url }, cleanup: () => pgDb!.drop() };
});

test('a usage error exits with code 2 and prints the usage', async () => {
  const result = await cli({ KOUYU_DATA_DIR: tempDir() }, 'create-key', '--tier', 'gold');
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /--tier must be one of trial, standard, enterprise/);
  assert.match(result.stderr, /Usage: npm run --silent admin/);
  assert.equal(result.stdout, '');
});

test('every malformed command line is a UsageError with a precise message', () => {
  const cases: [string[], RegExp][] = [
    [['create-key'], /--tier must be one of trial, standard, enterprise/],
    [['create-key', '--tier', 'trial', '--quota=-3'], /--quota must be a whole number/],
    [['create-key', '--tier', 'trial', '--quota', '-3'], /create-key: Option '--quota' argument is ambiguous/],
    [['create-key', '--tier', 'trial', '--core-types', ' , '], /--core-types needs at least one coreType/],
    [['set-balance', 'ak_1', 'lots'], /balance must be a whole number/],
    [['set-quota', 'ak_1'], /expected <appKey> <calls\|unlimited>/],
    [['disable-key'], /expected <appKey>/],
    [['frobnicate'], /unknown command "frobnicate"/],
    [['create-key', '--tier', 'trial', '--colour', 'red'], /create-key: Unknown option '--colour'/],
  ];
  for (const [args, message] of cases) {
    assert.throws(() => parseCommand(args), (err: unknown) => err instanceof UsageError && message.test(err.message), args.join(' '));
  }
  assert.deepEqual(parseCommand(['set-quota', 'ak_1', 'unlimited']), { name: 'set-quota', appKey: 'ak_1', quota: null });
  assert.deepEqual(parseCommand(['create-key', '--tier', 'enterprise', '--core-types', 'word, open', '--balance', '9']), {
    name: 'create-key', tier: 'enterprise', sandbox: false, coreTypes: ['word', 'open'], quota: null, balance: 9, tenant: null, tenantName: null, json: false,
  });
});

/** Console tokens: issue/verify round trip, expiry (2001), anything else invalid (2002). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { SignJWT } from 'jose';
import { createJwtService } from '../../src/auth/jwt.js';
import { ApiError } from '../../src/errors.js';
import type { ConsoleUser } from '../../src/storage/types.js';
import { tempDir } from '../helpers/app.js';

const user: ConsoleUser = { id: 'u_1', tenantId: 't_1', username: 'teacher', tier: 'standard' };

function config(dataDir = tempDir(), jwtSecret: string | null = null) {
  return { dataDir, jwtSecret, jwtTtlSeconds: 600 };
}

async function rejectsWith(promise: Promise<unknown>, code: number) {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.code, code);
    assert.equal(err.message, code === 2001 ? 'token expired' : 'token invalid');
    return true;
  });
}

test('an issued token verifies to its user and tenant and expires after the TTL', async () => {
  let now = Date.parse('2026-05-01T00:00:00Z');
  const jwt = createJwtService(config(), () => now);
  const { token, expiresAt } = await jwt.issue(user);
  assert.equal(expiresAt, now + 600_000);
  assert.deepEqual(await jwt.verify(token), { userId: 'u_1', tenantId: 't_1' });
  now += 600_000 + 10_000; // past expiry plus the 5 s clock tolerance
  await rejectsWith(jwt.verify(token), 2001);
});

test('appKeys, garbage, other secrets and other algorithms are 2002 token invalid', async () => {
  const dir = tempDir();
  const jwt = createJwtService(config(dir));
  await rejectsWith(jwt.verify('ak_kmCHIYVk7GS6_5Wx'), 2002);
  await rejectsWith(jwt.verify('a.b.c'), 2002);
  const foreign = await createJwtService(config()).issue(user);
  await rejectsWith(jwt.verify(foreign.token), 2002);
  const { token } = await jwt.issue(user);
  const [header, payload] = token.split('.');
  const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
  await rejectsWith(jwt.verify(unsigned), 2002);
  await rejectsWith(jwt.verify(`${header}.${payload}.AAAA`), 2002);
  const secret = Buffer.from(fs.readFileSync(path.join(dir, 'jwt.secret'), 'utf8').trim(), 'base64');
  const noTenant = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('u_1').setIssuer('kouyu').setAudience('kouyu-console').setExpirationTime('1h').sign(secret);
  await rejectsWith(jwt.verify(noTenant), 2002);
});

test('the generated secret is stored once with mode 0600 and reused by the next process', async () => {
  const dir = tempDir();
  const first = createJwtService(config(dir));
  const file = path.join(dir, 'jwt.secret');
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  const { token } = await first.issue(user);
  assert.deepEqual(await createJwtService(config(dir)).verify(token), { userId: 'u_1', tenantId: 't_1' });
});

test('KOUYU_JWT_SECRET, when set, is used instead of a file', async () => {
  const dir = tempDir();
  const a = createJwtService(config(dir, 'configured-secret-of-enough-length'));
  assert.equal(fs.existsSync(path.join(dir, 'jwt.secret')), false);
  const { token } = await a.issue(user);
  assert.deepEqual(await createJwtService(config(tempDir(), 'configured-secret-of-enough-length')).verify(token), { userId: 'u_1', tenantId: 't_1' });
});

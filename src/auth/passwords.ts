/**
 * Console passwords: argon2id (RFC 9106), a memory-hard hash, through @node-rs/argon2 with
 * its defaults (argon2id, m = 19 MiB, t = 2, p = 1 — the OWASP password-storage minimum).
 */
import { hash, verify } from '@node-rs/argon2';
import crypto from 'node:crypto';

export async function hashPassword(password: string): Promise<string> {
  return hash(password);
}

let decoy: Promise<string> | null = null;

/**
 * True when `password` matches the stored PHC string. With `stored` null (unknown user) a
 * decoy hash is checked instead and false returned, so both paths cost the same time.
 */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (stored === null) {
    decoy ??= hash(crypto.randomBytes(16).toString('base64'));
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false; // a malformed stored hash never authenticates
  }
}

/** A random console password: 18 bytes from the CSPRNG, URL-safe base64 (24 characters). */
export function randomPassword(): string {
  return crypto.randomBytes(18).toString('base64url');
}

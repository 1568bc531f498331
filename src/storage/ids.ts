/** Random identifiers and credentials: URL-safe, from the system CSPRNG. */
import crypto from 'node:crypto';

export function randomId(prefix: string, bytes = 12): string {
  return `${prefix}${crypto.randomBytes(bytes).toString('base64url')}`;
}

/** Lower-case hex, for names people type (usernames). */
export function randomHex(bytes: number): string {
  return crypto.randomBytes(bytes).toString('hex');
}

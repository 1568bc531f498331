/**
 * Encryption at rest of API-key secrets. The signature scheme (spec "Authentication") needs
 * the plain secretKey to recompute HMAC-SHA256, so a one-way hash cannot be used; instead
 * each secret is sealed with AES-256-GCM (NIST SP 800-38D) under a master key that lives
 * outside the database (KOUYU_SECRET_KEY, or `secret.key` in the data directory, mode 0600).
 * The appKey is bound as additional authenticated data, so a ciphertext copied onto another
 * key row fails to open.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const VERSION = 'v1';
const IV_BYTES = 12; // 96-bit nonce, the size GCM is specified for
const TAG_BYTES = 16;

export interface SecretBox {
  seal(plain: string, aad: string): string;
  open(sealed: string, aad: string): string;
}

export function createSecretBox(masterKey: Buffer): SecretBox {
  if (masterKey.length !== 32) throw new Error('master key must be 32 bytes');
  return {
    seal(plain, aad) {
      const iv = crypto.randomBytes(IV_BYTES);
      const cipher = crypto.createCipheriv('aes-256-gcm', masterKey, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(aad, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
    },
    open(sealed, aad) {
      const [version, payload] = sealed.split(':', 2);
      if (version !== VERSION || payload === undefined) throw new Error('unknown secret format');
      const raw = Buffer.from(payload, 'base64');
      const iv = raw.subarray(0, IV_BYTES);
      const tag = raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
      const decipher = crypto.createDecipheriv('aes-256-gcm', masterKey, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(aad, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    },
  };
}

/**
 * Reads a random secret file from the data directory, creating it (mode 0600) on first use.
 * Creation uses O_EXCL so two processes starting together (server and admin command)
 * agree on one value.
 */
export function loadOrCreateSecretFile(dataDir: string, name: string, bytes: number): Buffer {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, name);
  const fresh = crypto.randomBytes(bytes).toString('base64');
  try {
    fs.writeFileSync(file, `${fresh}\n`, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const stored = Buffer.from(readWhenComplete(file), 'base64');
  if (stored.length !== bytes) throw new Error(`${name} in the data directory is not ${bytes} bytes of base64`);
  return stored;
}

/** A concurrent creator may not have written the content yet; wait briefly for the newline. */
function readWhenComplete(file: string): string {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const text = fs.readFileSync(file, 'utf8');
    if (text.endsWith('\n')) return text.trim();
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
  }
  throw new Error(`${path.basename(file)} is incomplete`);
}

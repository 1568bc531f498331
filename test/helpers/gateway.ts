/**
 * Helpers for driving the write path: tenants with keys and console users, signed
 * requests, and multipart bodies built by hand (so tests control every byte).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sign, canonicalPayload, formPayload, type ParamValue } from '../../src/auth/signature.js';
import type { Tier } from '../../src/storage/types.js';
import { buildTestApp, listenOnLoopback } from './app.js';

export interface TestAccount {
  tenantId: string;
  appKey: string;
  secret: string;
  username: string;
  password: string;
  token: string;
}

export async function createAccount(
  app: FastifyInstance,
  opts: { tier?: Tier; sandbox?: boolean; quota?: number | null; balance?: number; coreTypes?: string[] | null } = {},
): Promise<TestAccount> {
  const tenant = await app.storage.admin.createTenant({ name: `t-${randomBytes(3).toString('hex')}`, tier: opts.tier ?? 'standard' });
  const key = await app.storage.admin.createKey({
    tenantId: tenant.id,
    tier: opts.tier ?? 'standard',
    sandbox: opts.sandbox ?? false,
    coreTypes: opts.coreTypes ?? null,
    quota: opts.quota === undefined ? null : opts.quota,
    balance: opts.balance ?? 0,
  });
  const username = `u${randomBytes(4).toString('hex')}`;
  const password = randomBytes(9).toString('base64url');
  await app.storage.admin.createUser({ tenantId: tenant.id, username, password });
  const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { username, password } });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  return { tenantId: tenant.id, appKey: key.appKey, secret: key.secret, username, password, token: login.json().data.accessToken };
}

export interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
  contentType?: string;
}

export function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----kouyu${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"`;
    head += '\r\n';
    if (part.contentType) head += `Content-Type: ${part.contentType}\r\n`;
    chunks.push(Buffer.from(head + '\r\n', 'utf8'), Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value, 'utf8'), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A compat evaluation form: the audio file and one text part per field (`parts` for signing). */
export function compatForm(fields: Record<string, string>, audio: Buffer, filename = 'a.wav') {
  const parts: Part[] = [{ name: 'audio', value: audio, filename }, ...Object.entries(fields).map(([name, value]) => ({ name, value }))];
  return { ...multipart(parts), parts };
}

/** An evaluation-shaped form: audio file plus a JSON config part. */
export function evaluationForm(config: Record<string, unknown>, audio: Buffer = Buffer.alloc(32000, 1), extra: Part[] = []) {
  const configText = JSON.stringify(config);
  const parts: Part[] = [
    { name: 'audio', value: audio, filename: 'a.wav', contentType: 'audio/wav' },
    { name: 'config', value: configText, contentType: 'application/json' },
    ...extra,
  ];
  return { ...multipart(parts), configText, parts };
}

export interface SignOptions {
  timestamp?: number;
  nonce?: string | null;
}

export function signatureHeaders(appKey: string, secret: string, payload: string, opts: SignOptions = {}): Record<string, string> {
  const headers: Record<string, string> = {
    'x-app-key': appKey,
    'x-timestamp': String(opts.timestamp ?? Math.floor(Date.now() / 1000)),
    'x-signature': sign(payload, secret),
  };
  const nonce = opts.nonce === undefined ? randomBytes(8).toString('hex') : opts.nonce;
  if (nonce !== null) headers['x-nonce'] = nonce;
  return headers;
}

/** Signature headers for a multipart form: every text part (the native primary form for evaluate). */
export function signForm(account: TestAccount, parts: Part[], opts: SignOptions = {}): Record<string, string> {
  const text = parts.filter((p) => p.filename === undefined).map((p) => ({ name: p.name, value: String(p.value) }));
  return signatureHeaders(account.appKey, account.secret, formPayload(text), opts);
}

export function signJson(account: TestAccount, body: Record<string, ParamValue | object>, opts: SignOptions = {}): Record<string, string> {
  const scalars: Record<string, ParamValue> = {};
  for (const [k, v] of Object.entries(body)) if (typeof v !== 'object' || v === null) scalars[k] = v as ParamValue;
  return signatureHeaders(account.appKey, account.secret, canonicalPayload(scalars), opts);
}

/** A test app listening on loopback with one account; `base` is `<scheme>://127.0.0.1:<port>`. */
export async function listeningAppWithAccount(scheme: 'http' | 'ws', opts: Parameters<typeof createAccount>[1] = {}) {
  const { app } = await buildTestApp();
  const base = `${scheme}://${await listenOnLoopback(app)}`;
  return { app, base, account: await createAccount(app, opts) };
}

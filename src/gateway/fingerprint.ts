/**
 * Request fingerprint for idempotency: method, path, query and the whole body, uploaded
 * bytes included, so "same key, different request" (40903) is detected exactly.
 */
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { MultipartBody } from '../http/multipart.js';

export function requestFingerprint(request: FastifyRequest): string {
  const hash = createHash('sha256');
  const [path, query = ''] = request.url.split('?', 2);
  hash.update(`${request.method} ${path}\n${query}\n`);
  const body = request.body;
  if (body instanceof MultipartBody) {
    for (const f of body.fields) hash.update(`field ${f.name} ${f.mimetype} ${f.filename ?? ''} ${f.value.length}\n${f.value}\n`);
    for (const f of body.files) {
      hash.update(`file ${f.name} ${f.filename} ${f.mimetype} ${f.data.length}\n`);
      hash.update(f.data);
    }
  } else if (body !== undefined && body !== null) {
    hash.update(stableStringify(body));
  }
  return hash.digest('hex');
}

/** JSON with object keys sorted, so key order in the body does not change the fingerprint. */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
}

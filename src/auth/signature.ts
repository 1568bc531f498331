/**
 * The signature scheme of the spec (Authentication, "Algorithm" and "Signed parameters by
 * endpoint"), as pure functions:
 *   1. take the request's business parameters (not headers, not file bytes);
 *   2. drop entries whose value is null or an empty string;
 *   3. sort by name, ascending (UTF-16 code-unit order, which is byte order for ASCII names);
 *   4. join as k1=v1&k2=v2 without URL encoding and without the secret;
 *   5. signature = Base64(HMAC-SHA256(payload, secretKey)), both UTF-8.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type ParamValue = string | number | boolean | null | undefined;

/** Allowed clock skew and nonce memory (spec Limits: 300 s each). */
export const SIGNATURE_WINDOW_SECONDS = 300;

/** Steps 2–4: the canonical payload of a parameter set. */
export function canonicalPayload(params: Record<string, ParamValue>): string {
  return Object.entries(params)
    .filter((entry): entry is [string, string | number | boolean] => entry[1] !== null && entry[1] !== undefined && entry[1] !== '')
    .map(([name, value]) => [name, formatScalar(value)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

/** Step 5. */
export function sign(payload: string, secret: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(payload, 'utf8')).digest('base64');
}

/** Constant-time check of a provided signature against the signatures of candidate payloads. */
export function matchesAny(provided: string, payloads: string[], secret: string): boolean {
  const given = Buffer.from(provided, 'utf8');
  let ok = false;
  for (const payload of payloads) {
    const expected = Buffer.from(sign(payload, secret), 'utf8');
    // Compare every candidate so timing does not reveal which one matched.
    if (expected.length === given.length && timingSafeEqual(expected, given)) ok = true;
  }
  return ok;
}

/** Strings as they are, booleans as true/false, numbers in plain decimal (no exponent). */
export function formatScalar(value: string | number | boolean): string {
  if (typeof value === 'number') return plainDecimal(value);
  return String(value);
}

/** 1e21 → "1000000000000000000000", 1.5e-7 → "0.00000015"; integers and ordinary decimals unchanged. */
export function plainDecimal(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const text = String(n);
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign, lead, fraction = '', expText] = match;
  const digits = lead + fraction;
  const exponent = Number(expText);
  const point = 1 + exponent; // position of the decimal point within `digits`
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** Top-level non-empty scalar fields of a JSON object (objects and arrays are not signed). */
export function topLevelScalars(body: unknown): Record<string, ParamValue> {
  const out: Record<string, ParamValue> = {};
  if (!body || typeof body !== 'object' || Array.isArray(body)) return out;
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') out[name] = value;
  }
  return out;
}

export interface FormTextPart {
  name: string;
  value: string;
  /** Set when the part was sent as a file (a browser form upload of `config`). */
  filename?: string;
}

/**
 * `POST /api/v1/evaluate`: the payloads the server accepts.
 * - Primary: `config` = the raw JSON text of the config part, plus the other text parts.
 * - Alternative: the other text parts plus the config's top-level non-empty scalar fields
 *   (the only form for a config part sent with a filename).
 */
export function evaluatePayloads(parts: FormTextPart[], configText: string | null, configIsFile: boolean): string[] {
  const others: Record<string, ParamValue> = {};
  for (const part of parts) if (part.name !== 'config' && part.filename === undefined) others[part.name] = part.value;
  const payloads: string[] = [];
  if (configText !== null && !configIsFile) payloads.push(canonicalPayload({ ...others, config: configText }));
  let parsed: unknown = null;
  try {
    parsed = configText === null ? null : JSON.parse(configText);
  } catch {
    parsed = null;
  }
  payloads.push(canonicalPayload({ ...topLevelScalars(parsed), ...others }));
  return payloads;
}

/** Compat `POST /{coreType}` and other multipart endpoints: every text field actually sent. */
export function formPayload(parts: FormTextPart[]): string {
  const params: Record<string, ParamValue> = {};
  for (const part of parts) if (part.filename === undefined) params[part.name] = part.value;
  return canonicalPayload(params);
}

/** Real-time handshakes: every query parameter except `signature`. */
export function handshakePayload(query: Record<string, string | undefined>): string {
  const params: Record<string, ParamValue> = {};
  for (const [name, value] of Object.entries(query)) if (name !== 'signature') params[name] = value;
  return canonicalPayload(params);
}

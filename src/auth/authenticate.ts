/**
 * Authentication: turns a request's credentials into a Principal, by exactly one of the
 * spec's three methods (Authentication section):
 *   Bearer JWT  `Authorization: Bearer <token>` (query `token` for WebSocket handshakes)
 *   signature   `X-App-Key`, `X-Timestamp`, `X-Nonce`, `X-Signature` (query `appKey`,
 *               `timestamp`, `nonce`, `signature` for handshakes)
 *   API key     `X-App-Key` header or `api_key` query
 * Each route lists the methods it accepts; anything else is refused with the spec's codes.
 */
import { ApiError } from '../errors.js';
import type { KeyStore, NonceStore, UserStore } from '../storage/types.js';
import { SIGNATURE_WINDOW_SECONDS, matchesAny } from './signature.js';
import type { AuthMethod, Principal } from './types.js';

export interface JwtVerifier {
  /** Throws ApiError TOKEN_EXPIRED (2001) or TOKEN_INVALID (2002). */
  verify(token: string): Promise<{ userId: string; tenantId: string }>;
}

export interface AuthDeps {
  keys: KeyStore;
  users: UserStore;
  jwt: JwtVerifier;
  nonces: NonceStore;
  /** Current time in ms (tests move the clock). */
  now?: () => number;
}

/** The credentials found on a request, before they are checked. */
export type Credentials =
  | { method: 'bearer'; token: string }
  | { method: 'signature'; appKey: string; timestamp: string | undefined; nonce: string | undefined; signature: string }
  | { method: 'appKey'; appKey: string }
  | { method: null; appKey?: undefined };

/**
 * Candidate signature payloads, built lazily: only a signature request pays for them. More
 * than one payload is accepted where the spec allows alternatives (native evaluate).
 */
export type PayloadSource = () => string[];

const METHOD_NAMES: Record<AuthMethod, string> = {
  appKey: 'X-App-Key',
  bearer: 'a Bearer token',
  signature: 'a signature (X-App-Key, X-Timestamp, X-Nonce, X-Signature)',
};

export function createAuthenticator(deps: AuthDeps) {
  const now = deps.now ?? Date.now;

  async function principalForKey(appKey: string, method: AuthMethod): Promise<Principal> {
    const key = await deps.keys.findByAppKey(appKey);
    if (!key) throw new ApiError('UNAUTHENTICATED', 'unknown appKey');
    if (!key.enabled) throw new ApiError('FORBIDDEN', 'this appKey is disabled');
    return { method, tenantId: key.tenantId, tier: key.tier, meterKey: key.appKey, key, user: null };
  }

  async function principalForToken(token: string): Promise<Principal> {
    const claims = await deps.jwt.verify(token);
    const user = await deps.users.findById(claims.userId);
    if (!user || user.tenantId !== claims.tenantId) throw new ApiError('TOKEN_INVALID');
    return { method: 'bearer', tenantId: user.tenantId, tier: user.tier, meterKey: `console:${user.username}`, key: null, user };
  }

  async function checkSignature(creds: Extract<Credentials, { method: 'signature' }>, payloads: PayloadSource): Promise<Principal> {
    const principal = await principalForKey(creds.appKey, 'signature');
    const timestamp = Number(creds.timestamp);
    if (!creds.timestamp || !Number.isInteger(timestamp)) {
      throw new ApiError('UNAUTHENTICATED', 'X-Timestamp is required with a signature (Unix time in seconds)');
    }
    if (Math.abs(now() / 1000 - timestamp) > SIGNATURE_WINDOW_SECONDS) {
      throw new ApiError('UNAUTHENTICATED', `X-Timestamp is more than ${SIGNATURE_WINDOW_SECONDS} s away from server time`);
    }
    if (!matchesAny(creds.signature, payloads(), principal.key!.secret)) {
      throw new ApiError('UNAUTHENTICATED', 'signature mismatch');
    }
    // The nonce is remembered only for a valid signature, so nobody can burn a client's nonces.
    if (creds.nonce && !(await deps.nonces.remember(creds.appKey, creds.nonce, SIGNATURE_WINDOW_SECONDS * 1000))) {
      throw new ApiError('UNAUTHENTICATED', 'nonce already used (replayed request)');
    }
    return principal;
  }

  /** Checks credentials against the methods a route accepts. */
  async function authenticate(creds: Credentials, accepted: readonly AuthMethod[], payloads: PayloadSource): Promise<Principal> {
    if (creds.method === null) {
      throw new ApiError('UNAUTHENTICATED', `missing credentials: this endpoint accepts ${describe(accepted)}`);
    }
    if (!accepted.includes(creds.method)) {
      throw new ApiError('UNAUTHENTICATED', `this endpoint accepts only ${describe(accepted)}`);
    }
    switch (creds.method) {
      case 'bearer':
        return principalForToken(creds.token);
      case 'signature':
        return checkSignature(creds, payloads);
      case 'appKey':
        return principalForKey(creds.appKey, 'appKey');
    }
  }

  return { authenticate };
}

export type Authenticator = ReturnType<typeof createAuthenticator>;

function describe(methods: readonly AuthMethod[]): string {
  return methods.map((m) => METHOD_NAMES[m]).join(' or ');
}

/** Credentials of an HTTP request (headers first; `api_key` query for the API-key method). */
export function httpCredentials(headers: Record<string, string | string[] | undefined>, query: Record<string, unknown>): Credentials {
  const header = (name: string) => {
    const v = headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const authorization = header('authorization');
  if (authorization) {
    const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
    return { method: 'bearer', token: match ? match[1].trim() : '' };
  }
  const appKey = header('x-app-key') ?? (typeof query.api_key === 'string' ? query.api_key : undefined);
  const signature = header('x-signature');
  if (appKey && signature) {
    return { method: 'signature', appKey, timestamp: header('x-timestamp'), nonce: header('x-nonce'), signature };
  }
  if (appKey) return { method: 'appKey', appKey };
  return { method: null };
}

/** Credentials of a WebSocket handshake: query `token`, or the four signature parameters. */
export function handshakeCredentials(query: Record<string, string | undefined>): Credentials {
  if (query.token) return { method: 'bearer', token: query.token };
  if (query.appKey && query.signature) {
    return { method: 'signature', appKey: query.appKey, timestamp: query.timestamp, nonce: query.nonce, signature: query.signature };
  }
  if (query.appKey) return { method: 'appKey', appKey: query.appKey };
  return { method: null };
}

/**
 * Console access tokens: HS256 JWTs (RFC 7519) signed and checked with `jose`. The secret is
 * KOUYU_JWT_SECRET, or 32 random bytes generated once into `${dataDir}/jwt.secret` (0600)
 * so tokens survive restarts and every process on the same data directory agrees.
 *
 * Usage:
 *   const jwt = createJwtService(config);
 *   const { token, expiresAt } = await jwt.issue(user);
 *   const { userId, tenantId } = await jwt.verify(token); // ApiError 2001 / 2002
 */
import { SignJWT, errors, jwtVerify } from 'jose';
import type { Config } from '../config.js';
import { ApiError } from '../errors.js';
import { loadOrCreateSecretFile } from '../storage/secret-box.js';
import type { ConsoleUser } from '../storage/types.js';

const ISSUER = 'kouyu';
const AUDIENCE = 'kouyu-console';
const ALGORITHM = 'HS256';
/** Clock skew tolerated between processes, seconds. */
const CLOCK_TOLERANCE_S = 5;

export interface JwtService {
  issue(user: ConsoleUser): Promise<{ token: string; expiresAt: number }>;
  verify(token: string): Promise<{ userId: string; tenantId: string }>;
  /** Token lifetime in seconds. */
  readonly ttlSeconds: number;
}

type JwtConfig = Pick<Config, 'jwtSecret' | 'jwtTtlSeconds' | 'dataDir'>;

export function createJwtService(config: JwtConfig, now: () => number = Date.now): JwtService {
  const secret = config.jwtSecret ? new TextEncoder().encode(config.jwtSecret) : loadOrCreateSecretFile(config.dataDir, 'jwt.secret', 32);
  const ttlSeconds = config.jwtTtlSeconds;
  return {
    ttlSeconds,
    async issue(user) {
      const issuedAt = Math.floor(now() / 1000);
      const expiresAtS = issuedAt + ttlSeconds;
      const token = await new SignJWT({ tid: user.tenantId })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(user.id)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(expiresAtS)
        .sign(secret);
      return { token, expiresAt: expiresAtS * 1000 };
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, secret, {
          algorithms: [ALGORITHM],
          issuer: ISSUER,
          audience: AUDIENCE,
          clockTolerance: CLOCK_TOLERANCE_S,
          currentDate: new Date(now()),
        });
        if (typeof payload.sub !== 'string' || typeof payload.tid !== 'string') throw new ApiError('TOKEN_INVALID');
        return { userId: payload.sub, tenantId: payload.tid };
      } catch (err) {
        if (err instanceof errors.JWTExpired) throw new ApiError('TOKEN_EXPIRED');
        throw new ApiError('TOKEN_INVALID');
      }
    },
  };
}

/**
 * Who is calling. The authentication hook (src/auth) sets `request.principal` from one of
 * the three methods of the spec's Authentication section; routes declare which methods
 * they accept in their route config:
 *
 *   app.get('/api/v1/report/:recordId', { config: { auth: ['appKey', 'bearer', 'signature'] } }, handler)
 *
 * `signedParams` names how the signature payload is built for that route (spec table
 * "Signed parameters by endpoint").
 */
import type { ApiKeyRecord, ConsoleUser, Tier } from '../storage/types.js';

export type AuthMethod = 'appKey' | 'bearer' | 'signature';

export type SignedParams = 'evaluate' | 'compat' | 'tts' | 'empty' | 'handshake' | 'query';

export interface Principal {
  method: AuthMethod;
  tenantId: string;
  tier: Tier;
  /** The appKey usage is metered under: the key's own, or `console:<username>` for bearer calls. */
  meterKey: string;
  /** Present for appKey and signature methods. */
  key: ApiKeyRecord | null;
  /** Present for the bearer method. */
  user: ConsoleUser | null;
}

export interface RouteAuthConfig {
  auth?: AuthMethod[];
  signedParams?: SignedParams;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig extends RouteAuthConfig {}
}

/**
 * The authentication step of the request pipeline (a preHandler, so JSON and multipart
 * bodies are parsed and the signature can cover them). Routes opt in through their config:
 *   { config: { auth: ['appKey', 'bearer', 'signature'], signedParams: 'evaluate' } }
 * Routes without `auth` are public (health, login, static audio).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MultipartBody } from '../http/multipart.js';
import { type Authenticator, httpCredentials } from './authenticate.js';
import { canonicalPayload, evaluatePayloads, formPayload, handshakePayload, topLevelScalars, type ParamValue } from './signature.js';
import type { SignedParams } from './types.js';

export function registerAuthentication(app: FastifyInstance, authenticator: Authenticator): void {
  app.decorateRequest('principal', null);
  app.addHook('preHandler', async (request) => {
    const accepted = request.routeOptions.config?.auth;
    if (!accepted || accepted.length === 0) return;
    const creds = httpCredentials(request.headers, (request.query ?? {}) as Record<string, unknown>);
    request.principal = await authenticator.authenticate(creds, accepted, () => signedPayloads(request));
  });
}

/** The payload(s) a signature may cover on this route (spec "Signed parameters by endpoint"). */
export function signedPayloads(request: FastifyRequest): string[] {
  const kind: SignedParams = request.routeOptions.config?.signedParams ?? defaultKind(request);
  const body = request.body;
  switch (kind) {
    case 'empty':
      return [''];
    case 'evaluate': {
      if (!(body instanceof MultipartBody)) return [''];
      const config = body.field('config');
      return evaluatePayloads(body.fields, config?.value ?? null, config?.filename !== undefined);
    }
    case 'compat':
      return [body instanceof MultipartBody ? formPayload(body.fields) : ''];
    case 'tts':
      return [canonicalPayload(topLevelScalars(body))];
    case 'handshake':
      return [handshakePayload(request.query as Record<string, string | undefined>)];
    case 'query':
      return [canonicalPayload(queryParams(request))];
  }
}

function defaultKind(request: FastifyRequest): SignedParams {
  if (request.body instanceof MultipartBody) return 'compat';
  if (request.body && typeof request.body === 'object') return 'tts';
  return 'query';
}

function queryParams(request: FastifyRequest): Record<string, ParamValue> {
  const out: Record<string, ParamValue> = {};
  for (const [name, value] of Object.entries((request.query ?? {}) as Record<string, unknown>)) {
    if (name !== 'api_key' && typeof value === 'string') out[name] = value;
  }
  return out;
}

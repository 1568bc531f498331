/**
 * Registers every evaluation interface on the shared service:
 *   POST /api/v1/evaluate        native HTTP
 *   WS   /api/v1/ws/evaluate     native real-time
 *   POST /{coreType}             compat HTTP
 *   WS   /{coreType}             compat real-time (same address; an upgrade goes to WebSocket)
 * The real-time handshakes authenticate from the query: `token`, or the signature
 * parameters `appKey`, `timestamp`, `nonce`, `signature` (all other query parameters signed).
 */
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { handshakeCredentials } from '../../auth/authenticate.js';
import { handshakePayload } from '../../auth/signature.js';
import type { Principal } from '../../auth/types.js';
import { ApiError } from '../../errors.js';
import { publicUrl } from '../../http/public-url.js';
import type { Gateway } from '../../gateway/index.js';
import { isCompatKind } from '../compat.js';
import type { EvaluationService } from '../types.js';
import { runCompatSession, type CompatRealtimeDeps } from '../ws/compat.js';
import { runNativeSession } from '../ws/native.js';
import { DEFAULT_IDLE_MS, DEFAULT_SESSION_MS, holdFrames, MAX_FRAME_BYTES, sendError } from '../ws/realtime.js';
import { registerCompatEvaluateRoute } from './compat-http.js';
import { unknownCoreType } from './common.js';
import { registerNativeEvaluateRoute } from './native-http.js';

export interface EvaluationRouteOptions {
  service: EvaluationService;
  gateway: Gateway;
  interim?: CompatRealtimeDeps['interim'];
  idleMs?: number;
  sessionMs?: number;
  earlyScoring?: boolean;
}

/** Close code for refused credentials (policy violation). */
const CLOSE_POLICY = 1008;

export async function registerEvaluationRoutes(app: FastifyInstance, opts: EvaluationRouteOptions): Promise<void> {
  // A WebSocket message carries at most one audio chunk, up to the whole 10 MB in base64; the
  // intake answers audio over 10 MB (one frame or all of them) with a 40001 error frame.
  await app.register(websocket, { options: { maxPayload: MAX_FRAME_BYTES } });
  const realtime = {
    service: opts.service,
    guard: opts.gateway.guard,
    limits: opts.gateway.limitDeps,
    idleMs: opts.idleMs ?? DEFAULT_IDLE_MS,
    sessionMs: opts.sessionMs ?? DEFAULT_SESSION_MS,
    earlyScoring: opts.earlyScoring ?? true,
  };

  const authenticate = async (socket: WebSocket, request: FastifyRequest): Promise<Principal | null> => {
    const query = request.query as Record<string, string | undefined>;
    try {
      return await opts.gateway.authenticator.authenticate(handshakeCredentials(query), ['bearer', 'signature'], () => [handshakePayload(query)]);
    } catch (err) {
      sendError(socket, err);
      socket.close(CLOSE_POLICY, 'unauthenticated');
      return null;
    }
  };

  registerNativeEvaluateRoute(app, opts.service);
  app.route({
    method: 'GET',
    url: '/api/v1/ws/evaluate',
    schema: { hide: true },
    handler: async () => {
      throw new ApiError('VALIDATION', 'this address takes WebSocket connections only');
    },
    wsHandler: async (socket, request) => {
      const held = holdFrames(socket); // frames sent before authentication finishes
      const principal = await authenticate(socket, request);
      if (!principal) return;
      runNativeSession(socket, request, principal, { ...realtime, interim: opts.interim });
      held.release();
    },
  });

  registerCompatEvaluateRoute(app, opts.service);
  app.route<{ Params: { coreType: string } }>({
    method: 'GET',
    url: '/:coreType',
    schema: { hide: true },
    handler: async (request) => {
      if (!isCompatKind(request.params.coreType)) throw new ApiError('NOT_FOUND', `no route for GET ${request.url.split('?')[0]}`);
      throw new ApiError('VALIDATION', 'use POST for evaluation, or open a WebSocket at this address');
    },
    wsHandler: async (socket, request) => {
      const kind = (request.params as { coreType: string }).coreType;
      if (!isCompatKind(kind)) {
        sendError(socket, unknownCoreType());
        socket.close(CLOSE_POLICY, 'Unknown coreType');
        return;
      }
      const held = holdFrames(socket); // frames sent before authentication finishes
      const principal = await authenticate(socket, request);
      if (!principal) return;
      runCompatSession(socket, kind, principal, { ...realtime, interim: opts.interim }, {
        queryKey: (request.query as Record<string, string | undefined>).idempotencyKey,
        absoluteUrl: (path) => publicUrl(path, app.config.publicBaseUrl, request),
      });
      held.release();
    },
  });
}

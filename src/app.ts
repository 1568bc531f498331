/**
 * Builds the Fastify application. `main.ts` only listens; tests build the same app and
 * drive it with `app.inject()` or a real listening socket.
 *
 * Registration order is fixed and visible: infrastructure (errors, OpenAPI, health),
 * then services, then routes.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import type { Config } from './config.js';
import { registerErrorHandler } from './http/error-handler.js';
import { Readiness } from './http/readiness.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    readiness: Readiness;
  }
}

/** Largest accepted request body: 10 MB of audio plus the multipart framing and config. */
export const BODY_LIMIT_BYTES = 12 * 1024 * 1024;

export async function buildApp(config: Config): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.logLevel },
    bodyLimit: BODY_LIMIT_BYTES,
    return503OnClosing: true,
  });
  app.decorate('config', config);
  app.decorate('readiness', new Readiness());

  // Infrastructure.
  registerErrorHandler(app);
  await app.register(swagger, {
    openapi: {
      info: { title: 'Kouyu spoken-language assessment API', version: '2.0.0' },
      components: {
        securitySchemes: {
          appKey: { type: 'apiKey', in: 'header', name: 'X-App-Key' },
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        },
      },
    },
  });

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const body = { status: app.readiness.ready ? 'ready' : 'starting', checks: app.readiness.report() };
    return reply.status(app.readiness.ready ? 200 : 503).send(body);
  });

  // Services and routes are registered below, in this order.

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  return app;
}

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
import { registerStorage } from './storage/plugin.js';
import { registerStorageRoutes } from './console/routes.js';
import { registerGateway, type Gateway } from './gateway/index.js';
import { createLimitBackend } from './gateway/limiters.js';
import { registerProbeRoutes, type ProbeCounters } from './gateway/probe-routes.js';
import { Redis } from 'ioredis';
import { createEvaluationService } from './evaluation/service.js';
import { registerEvaluationRoutes } from './evaluation/routes/index.js';
import { createSpeechServices, type SpeechServices } from './speech.js';
import { createAudioStore, registerAudioRoute } from './tts/audio-store.js';
import { registerTtsRoutes } from './tts/routes.js';
import { registerAsrRoute } from './asr/routes.js';
import { createStandardAudio } from './tts/standard-audio.js';
import { createScorers } from './evaluation/scorers.js';
import { createRecordingStore } from './evaluation/recordings.js';
import { createInterimTracker } from './evaluation/ws/interim.js';
import { createReportWriter } from './report/writer.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    readiness: Readiness;
    gateway: Gateway;
    speech: SpeechServices;
    /** Present when the app was built with `probeRoutes: true` (tests only). */
    probes: ProbeCounters | null;
  }
}

export interface BuildOptions {
  /** Registers the write-path probe routes (tests only; see gateway/probe-routes.ts). */
  probeRoutes?: boolean;
  /** Clock in ms, for tests of time windows (signature skew, daily caps). */
  now?: () => number;
  /** Shorter idempotency waits, for tests. */
  idempotencyWaitMs?: number;
  /** Shorter WebSocket idle timeout, for tests. */
  wsIdleMs?: number;
  /**
   * Load the speech models at start-up, behind /readyz (default true). Tests that never
   * touch speech pass false; the engines are then created on first use.
   */
  warmSpeech?: boolean;
}

/** Largest accepted request body: 10 MB of audio plus the multipart framing and config. */
export const BODY_LIMIT_BYTES = 12 * 1024 * 1024;

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.logLevel },
    bodyLimit: BODY_LIMIT_BYTES,
    return503OnClosing: true,
  });
  app.decorate('config', config);
  app.decorate('readiness', new Readiness());

  // Infrastructure.
  registerErrorHandler(app);
  drainOnClose(app);
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
  const storage = await registerStorage(app); // app.storage (migrated in the background, tracked by /readyz), app.jwt
  const redis = config.redisUrl ? new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 }) : null;
  if (redis) app.addHook('onClose', async () => void redis.quit());
  const limitBackend = createLimitBackend(redis);
  const gateway = registerGateway(app, {
    storage,
    jwt: app.jwt,
    limitBackend,
    limits: config.limits,
    now: options.now,
    idempotency: options.idempotencyWaitMs === undefined ? undefined : { waitMs: options.idempotencyWaitMs },
  });
  app.decorate('gateway', gateway);
  app.decorate('probes', options.probeRoutes ? registerProbeRoutes(app, storage) : null);

  const speech = createSpeechServices(config);
  app.decorate('speech', speech);
  app.addHook('onClose', async () => speech.close());
  if (options.warmSpeech ?? true) app.readiness.track('speech-models', speech.warm());
  const audioStore = createAudioStore(config.dataDir);
  registerAudioRoute(app, audioStore);
  registerTtsRoutes(app, { storage, speech, audio: audioStore });
  registerAsrRoute(app, { storage, speech });

  const evaluation = createEvaluationService({
    storage,
    scorers: createScorers(speech, config.modelsDir),
    standardAudio: createStandardAudio(speech, audioStore),
    reports: createReportWriter({ llm: config.llm, limitBackend, trialDailyAiReports: config.limits.trialDailyAiReports, now: options.now }),
    recordings: createRecordingStore(app, config.dataDir),
  });
  await registerEvaluationRoutes(app, {
    service: evaluation,
    gateway,
    idleMs: options.wsIdleMs,
    earlyScoring: config.earlyScoring,
    interim: (cfg, tokenId, compat) => (cfg.coreType === 'open' ? null : createInterimTracker(speech.acoustic(), cfg, tokenId, compat)),
  });

  await registerStorageRoutes(app); // login, console usage, report lookup

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  return app;
}

/**
 * Graceful shutdown: Fastify stops accepting and lets in-flight requests finish, but a
 * keep-alive connection that becomes idle after `close()` began would be held until the
 * keep-alive timeout (72 s). While closing, idle connections are closed as soon as they idle.
 */
function drainOnClose(app: FastifyInstance): void {
  let timer: NodeJS.Timeout | null = null;
  app.addHook('preClose', async () => {
    timer = setInterval(() => app.server.closeIdleConnections(), 50);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}

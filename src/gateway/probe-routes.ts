/**
 * Probe routes for exercising the write-path machinery in tests: they stand where the
 * evaluation and TTS routes stand (same authentication, idempotency, limits, admission and
 * success ledger) but do no speech work. Registered only when `buildApp` is asked for them
 * (`{ probeRoutes: true }`); never in a running service.
 *
 *   POST /api/v1/_probe/evaluate  multipart audio + config, like POST /api/v1/evaluate
 *   POST /api/v1/_probe/tts       JSON body, like POST /api/v1/tts/generate
 */
import type { FastifyInstance } from 'fastify';
import { ApiError, invalid } from '../errors.js';
import { MultipartBody } from '../http/multipart.js';
import { envelope } from '../http/envelope.js';
import { randomId } from '../storage/ids.js';
import type { Storage } from '../storage/types.js';

export interface ProbeCounters {
  evaluations: number;
  tts: number;
}

/** 16 kHz mono 16-bit audio: bytes per second, to turn upload size into metered seconds. */
const BYTES_PER_SECOND = 32000;
const MAX_DELAY_MS = 5000;

export function registerProbeRoutes(app: FastifyInstance, storage: Storage): ProbeCounters {
  const counters: ProbeCounters = { evaluations: 0, tts: 0 };

  app.post(
    '/api/v1/_probe/evaluate',
    { schema: { hide: true }, config: { auth: ['appKey', 'bearer', 'signature'], signedParams: 'evaluate', idempotent: true, admission: 'evaluation' } },
    async (request) => {
      const body = request.body;
      if (!(body instanceof MultipartBody)) throw invalid('multipart/form-data with audio and config is required');
      const audio = body.file('audio');
      if (!audio) throw invalid('missing audio');
      const configPart = body.field('config');
      if (!configPart) throw invalid('missing config');
      let config: { referenceText?: unknown; delayMs?: unknown };
      try {
        config = JSON.parse(configPart.value);
      } catch {
        throw invalid('config is not valid JSON');
      }
      if (typeof config.referenceText !== 'string' || config.referenceText === '') throw invalid('missing referenceText');
      counters.evaluations += 1;
      const delay = Math.min(MAX_DELAY_MS, Math.max(0, Number(config.delayMs) || 0));
      if (delay) await new Promise((r) => setTimeout(r, delay));

      const principal = request.principal!;
      const seconds = audio.data.length / BYTES_PER_SECOND;
      const response = {
        recordId: randomId('eval_'),
        eof: 1,
        result: { overall: 0, numeric_duration: seconds, duration: seconds.toFixed(2), probe: { audioBytes: audio.data.length } },
        warnings: [],
      };
      const committed = await storage.ledger.commitSuccess({
        record: { id: response.recordId, tenantId: principal.tenantId, appKey: principal.meterKey, kind: 'probe', rubricVersion: 'v20260705a', response },
        usage: [
          { tenantId: principal.tenantId, appKey: principal.meterKey, meter: 'evaluation.calls', quantity: 1 },
          { tenantId: principal.tenantId, appKey: principal.meterKey, meter: 'evaluation.chars', quantity: [...config.referenceText].length },
          { tenantId: principal.tenantId, appKey: principal.meterKey, meter: 'evaluation.audio_seconds', quantity: seconds },
        ],
        charge: principal.key ? { keyId: principal.key.id, units: 1 } : undefined,
      });
      if (!committed) throw new ApiError('QUOTA_EXHAUSTED');
      return response;
    },
  );

  app.post(
    '/api/v1/_probe/tts',
    { schema: { hide: true }, config: { auth: ['appKey', 'bearer', 'signature'], signedParams: 'tts', idempotent: true, rateLimit: 'ttsAsr' } },
    async (request) => {
      const body = request.body as { text?: unknown } | undefined;
      if (!body || typeof body.text !== 'string' || body.text === '') throw invalid('missing text');
      counters.tts += 1;
      const principal = request.principal!;
      await storage.ledger.commitSuccess({
        usage: [{ tenantId: principal.tenantId, appKey: principal.meterKey, meter: 'tts.standard', quantity: [...body.text].length }],
      });
      return envelope({ characters: [...body.text].length });
    },
  );

  return counters;
}

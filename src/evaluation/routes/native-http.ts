/**
 * POST /api/v1/evaluate — native evaluation (spec "POST /api/v1/evaluate"): multipart with
 * `audio`, `config` (its part must be application/json, else 50000) and optional `image`.
 * Answers the bare result style.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError, invalid } from '../../errors.js';
import { arrivalOf, markArrival } from '../../http/arrival.js';
import { MultipartBody } from '../../http/multipart.js';
import { isCompatOnlyKind } from '../compat.js';
import { parseEvaluationConfig } from '../config.js';
import type { EvaluationService } from '../types.js';
import { EVALUATION_ROUTE, assertKindAllowed, setServerTiming, unknownCoreType } from './common.js';

export function registerNativeEvaluateRoute(app: FastifyInstance, service: EvaluationService): void {
  app.post(
    '/api/v1/evaluate',
    {
      config: { auth: ['appKey', 'bearer', 'signature'], signedParams: 'evaluate', ...EVALUATION_ROUTE },
      schema: {
        summary: 'Evaluate a recording against a reference text or task (bare result, no envelope)',
        tags: ['evaluation'],
        consumes: ['multipart/form-data'],
      },
      onRequest: markArrival,
    },
    async (request, reply) => {
      const receivedAt = arrivalOf(request);
      const body = request.body;
      if (!(body instanceof MultipartBody)) throw invalid('the request must be multipart/form-data with audio and config parts');
      const configPart = body.field('config');
      if (!configPart) throw invalid('missing config');
      // Spec: a config part whose Content-Type is not application/json fails with 50000.
      if (!/^application\/json\b/i.test(configPart.mimetype)) throw new ApiError('INTERNAL');
      let json: unknown;
      try {
        json = JSON.parse(configPart.value);
      } catch {
        throw invalid('config is not valid JSON');
      }
      const coreType = (json as { coreType?: unknown } | null)?.coreType;
      // Compat names are 404 here, except `pinyin`, which is also a native kind.
      if (typeof coreType === 'string' && isCompatOnlyKind(coreType)) throw unknownCoreType();
      const config = parseEvaluationConfig(json);
      const audio = body.file('audio');
      if (!audio || audio.data.length === 0) throw invalid(audio ? 'audio is empty' : 'missing audio');
      assertKindAllowed(request.principal!, config.coreType);
      const image = config.coreType === 'open' && config.taskType === 'picture' ? body.file('image')?.data : undefined;

      const { response, timings } = await service.evaluate({
        principal: request.principal!,
        channel: 'native-http',
        config,
        audio: audio.data,
        image,
        receivedAt,
      });
      setServerTiming(reply, timings);
      return response;
    },
  );
}

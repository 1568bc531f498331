/**
 * POST /{coreType} — the legacy-compatible evaluation (spec "POST /{coreType} (compat
 * evaluation)"). Signature authentication only (X-App-Key required); the form parts map onto
 * the native config; the result is `{recordId, eof:1, result, audioUrl?, timing?}` with a
 * `Server-Timing` header. Native kind names on this path are 404 `Unknown coreType`.
 * `audioUrl` is absolute: KOUYU_PUBLIC_BASE_URL, else this request's protocol and Host.
 */
import type { FastifyInstance } from 'fastify';
import { invalid } from '../../errors.js';
import { arrivalOf, markArrival } from '../../http/arrival.js';
import { MultipartBody } from '../../http/multipart.js';
import { publicUrl } from '../../http/public-url.js';
import { compatToConfig, isCompatKind } from '../compat.js';
import type { BareEvaluationResponse, EvaluationService } from '../types.js';
import { EVALUATION_ROUTE, assertKindAllowed, setServerTiming, unknownCoreType } from './common.js';

/** Shortest accepted compat recording (spec Limits), checked after decoding. */
export const COMPAT_MIN_SECONDS = 1;

export function registerCompatEvaluateRoute(app: FastifyInstance, service: EvaluationService): void {
  app.post<{ Params: { coreType: string } }>(
    '/:coreType',
    {
      config: { auth: ['signature'], signedParams: 'compat', ...EVALUATION_ROUTE },
      schema: {
        summary: 'Legacy-compatible evaluation (bare result)',
        tags: ['compat'],
        consumes: ['multipart/form-data'],
        params: { type: 'object', properties: { coreType: { type: 'string' } }, required: ['coreType'] },
      },
      onRequest: [
        markArrival,
        // Unknown kinds are answered before authentication, as the spec's 404 is about the path.
        async (request) => {
          if (!isCompatKind(request.params.coreType)) throw unknownCoreType();
        },
      ],
    },
    async (request, reply) => {
      const receivedAt = arrivalOf(request);
      const body = request.body;
      if (!(body instanceof MultipartBody)) throw invalid('the request must be multipart/form-data with an audio part');
      const { config, compat } = compatToConfig(request.params.coreType, body.values());
      const audio = body.file('audio');
      if (!audio || audio.data.length === 0) throw invalid(audio ? 'audio is empty' : 'missing audio');
      assertKindAllowed(request.principal!, config.coreType, request.params.coreType);
      const { response, timings } = await service.evaluate({
        principal: request.principal!,
        channel: 'compat-http',
        config,
        compat,
        audio: audio.data,
        image: body.file('image')?.data,
        receivedAt,
      });
      setServerTiming(reply, timings);
      return compatBody(response, (path) => publicUrl(path, app.config.publicBaseUrl, request));
    },
  );
}

/**
 * The compat result shape `{recordId, eof:1, result, audioUrl?, timing?}`; `absoluteUrl` turns
 * the stored recording's path into the address the caller downloads it from. The stored record
 * keeps the whole evaluation (report included), so report lookup works for compat calls too.
 */
export function compatBody(response: BareEvaluationResponse, absoluteUrl: (path: string) => string): Record<string, unknown> {
  const body: Record<string, unknown> = { recordId: response.recordId, eof: 1, result: response.result };
  if (response.audioUrl) body.audioUrl = absoluteUrl(response.audioUrl);
  if (response.timing) body.timing = response.timing;
  return body;
}

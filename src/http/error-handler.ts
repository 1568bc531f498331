/**
 * The one place that renders errors. ApiErrors keep their code and status; Fastify's own
 * validation and parsing errors become 40001; anything else is logged and answered with
 * 50000 and the spec's fixed message, so a 500 never leaks internals.
 */
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { ApiError, ERRORS } from '../errors.js';
import { errorEnvelope } from './envelope.js';

export function sendError(reply: FastifyReply, err: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
  return reply.status(err.status).send(errorEnvelope(err.code, err.message));
}

/** Maps any thrown value onto an ApiError (unknown errors become 50000). */
export function toApiError(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  const fe = err as Partial<FastifyError> | undefined;
  if (fe && typeof fe === 'object') {
    if (fe.validation) return new ApiError('VALIDATION', fe.message);
    if (fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return new ApiError('VALIDATION', 'request body is not valid JSON');
    }
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || fe.code === 'FST_REQ_FILE_TOO_LARGE' || fe.code === 'FST_FILES_LIMIT') {
      return new ApiError('VALIDATION', 'request body too large (audio at most 10 MB)');
    }
    if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return new ApiError('VALIDATION', `unsupported content type: ${fe.message}`);
    }
    if (fe.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
      return new ApiError('VALIDATION', 'the request is not multipart/form-data');
    }
  }
  return null;
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply) => {
    const apiError = toApiError(err);
    if (apiError) return sendError(reply, apiError);
    request.log.error({ err }, 'unhandled error');
    return sendError(reply, new ApiError('INTERNAL', ERRORS.INTERNAL.message));
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, new ApiError('NOT_FOUND', `no route for ${request.method} ${request.url.split('?')[0]}`)),
  );
}

/**
 * `GET /api/v1/report/{recordId}` (spec "Endpoints"): the stored record of the caller's
 * tenant, presented under report freezing. Accepts an API key, a Bearer token or a
 * signature over the empty parameter set (the path segment is not signed).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, invalid } from '../errors.js';
import { envelope, envelopeSchema } from '../http/envelope.js';
import type { Principal } from '../auth/types.js';
import type { RecordStore } from '../storage/types.js';
import { presentRecord, type ReportView } from './freeze.js';

/** The service behind the route, usable without HTTP. Throws 40001 naming the record. */
export async function lookupReport(records: RecordStore, tenantId: string, recordId: string): Promise<ReportView> {
  const record = await records.get(recordId, tenantId);
  // Another tenant's record answers exactly like a missing one, so ids cannot be probed.
  if (!record) throw invalid(`record ${recordId} not found`);
  return presentRecord(record);
}

export function requirePrincipal(request: FastifyRequest): Principal {
  if (!request.principal) throw new ApiError('UNAUTHENTICATED');
  return request.principal;
}

export async function recordRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Params: { recordId: string } }>(
    '/api/v1/report/:recordId',
    {
      config: { auth: ['appKey', 'bearer', 'signature'], signedParams: 'empty' },
      schema: {
        summary: 'Stored evaluation record and report',
        description:
          'Returns the record exactly as stored (report freezing). Records stamped v20260705a-legacy get only the lossless merge of a separate tone section or tone-suggestion bucket into accuracy. Unknown ids and other tenants\' records give 400 code 40001.',
        tags: ['records'],
        security: [{ appKey: [] }, { bearer: [] }],
        params: {
          type: 'object',
          required: ['recordId'],
          properties: { recordId: { type: 'string', minLength: 1, maxLength: 200 } },
        },
        response: {
          200: envelopeSchema({
            type: 'object',
            properties: {
              recordId: { type: 'string' },
              // Untyped on purpose: the stored JSON is passed through verbatim.
              score: { description: 'the complete result of the original evaluation' },
              report: { description: 'the stored report' },
            },
          }),
        },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      return envelope(await lookupReport(app.storage.records, principal.tenantId, request.params.recordId));
    },
  );
}

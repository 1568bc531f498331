/**
 * Presenters for the spec's two response styles ("Response styles"):
 * - envelope `{code:0, message, data, timestamp}` for TTS, ASR, report, console and usage endpoints;
 * - error envelope `{code, message, timestamp}` for every HTTP error.
 * Evaluation endpoints return their bare result and do not use these.
 */

export interface Envelope<T> {
  code: 0;
  message: string;
  data: T;
  timestamp: number;
}

export interface ErrorEnvelope {
  code: number;
  message: string;
  timestamp: number;
}

export function envelope<T>(data: T, message = 'success'): Envelope<T> {
  return { code: 0, message, data, timestamp: Date.now() };
}

export function errorEnvelope(code: number, message: string): ErrorEnvelope {
  return { code, message, timestamp: Date.now() };
}

/** JSON schema of a success envelope around `data` (route response schemas, /openapi.json). */
export function envelopeSchema(data: Record<string, unknown>): Record<string, unknown> {
  return {
    type: 'object',
    properties: { code: { type: 'integer', const: 0 }, message: { type: 'string' }, data, timestamp: { type: 'integer' } },
  };
}

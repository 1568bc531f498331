/**
 * The one registry of the spec's error codes ("Errors" section of the interface
 * specification): each code with its HTTP status and default message. Everything that
 * fails a request throws (or returns) an ApiError built from here; one place renders it.
 */

export const ERRORS = {
  VALIDATION: { code: 40001, status: 400, message: 'parameter validation failure' },
  UNAUTHENTICATED: { code: 40100, status: 401, message: 'unauthenticated' },
  FORBIDDEN: { code: 40300, status: 403, message: 'no permission' },
  NOT_FOUND: { code: 40400, status: 404, message: 'resource not found' },
  CONFLICT: { code: 40900, status: 409, message: 'resource conflict' },
  IDEMPOTENCY_IN_PROGRESS: { code: 40901, status: 409, message: 'a request with the same idempotency key is still processing' },
  QUOTA_EXHAUSTED: { code: 40902, status: 409, message: 'plan quota and balance both insufficient' },
  IDEMPOTENCY_MISMATCH: { code: 40903, status: 409, message: 'idempotency key already used for a different request' },
  RATE_LIMITED: { code: 3001, status: 429, message: 'rate limit exceeded' },
  CONCURRENCY_LIMITED: { code: 42901, status: 429, message: 'concurrent evaluations above the tier limit' },
  AI_REPORT_CAP: { code: 42902, status: 429, message: 'trial-tier AI report daily cap reached' },
  SANDBOX_CAP: { code: 42903, status: 429, message: 'sandbox key daily call cap reached; resets at 00:00 Beijing time' },
  INTERNAL: { code: 50000, status: 500, message: 'system busy, please try again later' },
  NOT_IMPLEMENTED: { code: 50010, status: 500, message: 'function not implemented' },
  UPSTREAM_UNAVAILABLE: { code: 50200, status: 502, message: 'upstream unavailable' },
  // Business codes of the token scheme. The spec leaves their HTTP status open; we answer 401
  // so that generic HTTP clients treat them as authentication failures (see README).
  TOKEN_EXPIRED: { code: 2001, status: 401, message: 'token expired' },
  TOKEN_INVALID: { code: 2002, status: 401, message: 'token invalid' },
} as const;

export type ErrorKind = keyof typeof ERRORS;

export class ApiError extends Error {
  readonly code: number;
  readonly status: number;
  /** Extra response headers, e.g. Retry-After for 40901 and 42901. */
  readonly headers: Record<string, string>;

  constructor(kind: ErrorKind, message?: string, headers: Record<string, string> = {}) {
    const def = ERRORS[kind];
    super(message ?? def.message);
    this.name = 'ApiError';
    this.code = def.code;
    this.status = def.status;
    this.headers = headers;
  }
}

/** Shorthand for the most common failure: 400 40001 with a precise message. */
export function invalid(message: string): ApiError {
  return new ApiError('VALIDATION', message);
}

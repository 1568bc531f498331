/**
 * When a request arrived: stamped by a route-level `onRequest` hook, so it is taken before the
 * upload is parsed and the caller authenticated (the compat `timing.receivedAt` and the start
 * of `totalMs` and of the `Server-Timing` total).
 *
 * @example
 *   app.post('/x', { onRequest: [markArrival] }, async (request) => arrivalOf(request));
 */
import type { FastifyRequest } from 'fastify';

const arrivals = new WeakMap<FastifyRequest, number>();

/** `onRequest` hook: remembers the arrival time (ms since epoch) of the request. */
export async function markArrival(request: FastifyRequest): Promise<void> {
  arrivals.set(request, Date.now());
}

/** The arrival time stamped by `markArrival` (ms since epoch); now when it did not run. */
export function arrivalOf(request: FastifyRequest): number {
  return arrivals.get(request) ?? Date.now();
}

/**
 * Absolute addresses of files the service serves (the compat `audioUrl`): the configured public
 * base URL (KOUYU_PUBLIC_BASE_URL) when there is one, else the protocol and Host of the request
 * that asked. Behind a reverse proxy set the base URL: the request then names the proxy's
 * upstream, not the address clients use.
 */
import type { FastifyRequest } from 'fastify';

/** A Host header we are willing to echo: host name or address, optional port. */
const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * `path` (starting with `/`) made absolute. Already absolute addresses are returned as they
 * are; without a base URL and a usable request Host the path stays relative.
 */
export function publicUrl(path: string, configuredBase: string | null, request?: FastifyRequest): string {
  if (/^https?:\/\//i.test(path)) return path;
  if (configuredBase) return `${configuredBase}${path}`;
  if (request && HOST.test(request.host)) return `${request.protocol}://${request.host}${path}`;
  return path;
}

/**
 * Console usage statistics (JWT only). Our design, documented in docs/storage.md:
 *   GET /api/v1/console/usage?from=YYYY-MM-DD&to=YYYY-MM-DD[&appKey=…][&meter=…]
 *   → data:{from, to, rows:[{day, appKey, meter, quantity}], totals:{<meter>: number}}
 * Days are Beijing days, both ends inclusive; `to` defaults to today and `from` to 29 days
 * before `to`; a range may span at most 366 days. Only the caller's tenant is visible.
 */
import type { FastifyInstance } from 'fastify';
import { invalid } from '../errors.js';
import { envelope, envelopeSchema } from '../http/envelope.js';
import { METERS } from '../metering/meters.js';
import { addDays, beijingDay, beijingDayStart, daySpan } from '../storage/day.js';
import type { MeterName, UsageStore } from '../storage/types.js';
import { requirePrincipal } from '../records/routes.js';

export const MAX_RANGE_DAYS = 366;
const DEFAULT_RANGE_DAYS = 30;

export interface UsageQuery {
  from?: string;
  to?: string;
  appKey?: string;
  meter?: string;
}

export interface UsageReport {
  from: string;
  to: string;
  rows: { day: string; appKey: string; meter: MeterName; quantity: number }[];
  totals: Partial<Record<MeterName, number>>;
}

function checkDay(name: string, value: string): string {
  if (beijingDayStart(value) === null) throw invalid(`${name} must be a date YYYY-MM-DD, got "${value}"`);
  return value;
}

/** Validates the range (40001 on bad dates, from > to, more than 366 days) and reads the rows. */
export async function usageReport(store: UsageStore, tenantId: string, q: UsageQuery, now = Date.now()): Promise<UsageReport> {
  const to = checkDay('to', q.to ?? beijingDay(now));
  const from = checkDay('from', q.from ?? addDays(to, 1 - DEFAULT_RANGE_DAYS));
  if (from > to) throw invalid(`from (${from}) is after to (${to})`);
  if (daySpan(from, to) > MAX_RANGE_DAYS) throw invalid(`the range may span at most ${MAX_RANGE_DAYS} days`);
  if (q.meter !== undefined && !METERS.includes(q.meter as MeterName)) throw invalid(`meter must be one of ${METERS.join(', ')}`);
  const rows = await store.query(tenantId, { from, to, appKey: q.appKey, meter: q.meter as MeterName | undefined });
  const totals: Partial<Record<MeterName, number>> = {};
  for (const row of rows) totals[row.meter] = (totals[row.meter] ?? 0) + row.quantity;
  // Seconds are kept to the millisecond; re-round so float sums print cleanly.
  for (const meter of Object.keys(totals) as MeterName[]) totals[meter] = Math.round(totals[meter]! * 1000) / 1000;
  return { from, to, rows: rows.map(({ day, appKey, meter, quantity }) => ({ day, appKey, meter, quantity })), totals };
}

const dayString = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'Beijing day, YYYY-MM-DD' } as const;

export async function usageRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Querystring: UsageQuery }>(
    '/api/v1/console/usage',
    {
      config: { auth: ['bearer'] },
      schema: {
        summary: 'Daily usage per appKey and meter for a range of Beijing days',
        tags: ['console'],
        security: [{ bearer: [] }],
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            from: { ...dayString, description: 'first day (inclusive); default: 29 days before `to`' },
            to: { ...dayString, description: 'last day (inclusive); default: today (Beijing)' },
            appKey: { type: 'string', minLength: 1, maxLength: 200, description: 'one appKey, or console:<username> for console calls' },
            meter: { type: 'string', enum: [...METERS] },
          },
        },
        response: {
          200: envelopeSchema({
            type: 'object',
            properties: {
              from: { type: 'string' },
              to: { type: 'string' },
              rows: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: { day: { type: 'string' }, appKey: { type: 'string' }, meter: { type: 'string' }, quantity: { type: 'number' } },
                },
              },
              totals: { type: 'object', additionalProperties: { type: 'number' } },
            },
          }),
        },
      },
    },
    async (request) => envelope(await usageReport(app.storage.usage, requirePrincipal(request).tenantId, request.query)),
  );
}

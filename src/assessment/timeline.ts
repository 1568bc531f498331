/**
 * The time line of an assessment: its units (reference words or characters and extra speech, in
 * the order the response lists them) follow one another without overlapping, and each unit's
 * phones lie inside its span. Every engine keeps to it; the validity tools count readings that
 * do not. Pure.
 */
import type { Assessment } from './types.js';

/** Whether some timed unit overlaps the one before it or starts before it, or holds a phone outside its span. */
export function spansOutOfOrder(a: Pick<Assessment, 'units'>): boolean {
  const timed = a.units.filter((u) => u.span && u.span.end > u.span.start);
  return timed.some(
    (u, k) =>
      (k > 0 && u.span!.start < timed[k - 1].span!.end) ||
      u.phones.some((p) => p.span.start < u.span!.start || p.span.end > u.span!.end),
  );
}

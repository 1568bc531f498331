/**
 * Beijing calendar days. Usage rows and the sandbox daily cap reset at 00:00 Beijing time
 * (spec "Errors", 42903), i.e. UTC+8 with no daylight saving.
 */
const BEIJING_OFFSET_MS = 8 * 3600 * 1000;
const DAY_MS = 24 * 3600 * 1000;
const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The Beijing day (YYYY-MM-DD) containing the instant `ms` (Unix milliseconds). */
export function beijingDay(ms: number = Date.now()): string {
  return new Date(ms + BEIJING_OFFSET_MS).toISOString().slice(0, 10);
}

/** Unix milliseconds of 00:00 Beijing time on `day`; null when `day` is not a real date. */
export function beijingDayStart(day: string): number | null {
  const match = DAY_PATTERN.exec(day);
  if (!match) return null;
  const utc = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  if (new Date(utc).toISOString().slice(0, 10) !== day) return null; // e.g. 2026-02-30
  return utc - BEIJING_OFFSET_MS;
}

/** Milliseconds until the next 00:00 Beijing time, for Retry-After of daily caps. */
export function msUntilNextBeijingDay(ms: number = Date.now()): number {
  return DAY_MS - ((ms + BEIJING_OFFSET_MS) % DAY_MS);
}

/** The day `n` days after `day` (n may be negative). */
export function addDays(day: string, n: number): string {
  const start = beijingDayStart(day);
  if (start === null) throw new Error(`not a day: ${day}`);
  return beijingDay(start + n * DAY_MS);
}

/** Inclusive number of days from `from` to `to`. */
export function daySpan(from: string, to: string): number {
  const a = beijingDayStart(from);
  const b = beijingDayStart(to);
  if (a === null || b === null) throw new Error('not a day');
  return Math.round((b - a) / DAY_MS) + 1;
}

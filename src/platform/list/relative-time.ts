// Dates in filters may be absolute (ISO-8601) or an ISO-8601 duration relative
// to now: "-P2W" is two weeks ago, "P1D" is a day from now.
//
// Every value is checked strictly before it reaches SQL: a real calendar date
// and time, in years 0001 to 9999, so neither JavaScript's Date (which rolls
// 2024-02-30 over to March, and overflows to an invalid time) nor PostgreSQL
// (which refuses year 0 and out-of-range dates with an error) sees anything
// it would refuse. The GraphQL scalars use the same checks.
import { invalidField } from '../errors.js';

export const MIN_YEAR = 1;
export const MAX_YEAR = 9999;
const RANGE = `years ${String(MIN_YEAR).padStart(4, '0')} to ${MAX_YEAR}`;

const DURATION =
  /^([-+])?P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

const inRange = (d: Date) =>
  !Number.isNaN(d.getTime()) && d.getUTCFullYear() >= MIN_YEAR && d.getUTCFullYear() <= MAX_YEAR;

/** Whether y-m-d names a day that exists, in the supported years. */
function isCalendarDate(y: number, m: number, d: number): boolean {
  if (y < MIN_YEAR || y > MAX_YEAR || m < 1 || m > 12 || d < 1) return false;
  const days = new Date(Date.UTC(2000, m, 0)).getUTCDate(); // 2000 is a leap year
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return d <= (m === 2 && !leap ? 28 : days);
}

/**
 * Applies an ISO-8601 duration to `now` in UTC calendar arithmetic; undefined
 * if the text is not a duration or lands outside the supported years (huge
 * components make Date invalid, which the range check catches too).
 */
export function applyDuration(text: string, now: Date): Date | undefined {
  const m = DURATION.exec(text);
  if (!m || text === 'P' || text.endsWith('T') || /^[-+]P$/.test(text)) return undefined;
  const sign = m[1] === '-' ? -1 : 1;
  const n = (i: number) => sign * Number(m[i] ?? 0);
  const d = new Date(now.getTime());
  d.setUTCFullYear(d.getUTCFullYear() + n(2));
  d.setUTCMonth(d.getUTCMonth() + n(3));
  d.setUTCDate(d.getUTCDate() + 7 * n(4) + n(5));
  d.setTime(d.getTime() + ((n(6) * 60 + n(7)) * 60 + n(8)) * 1000);
  return inRange(d) ? d : undefined;
}

const isDuration = (text: string) => /^[-+]?P/.test(text);

/** A strict ISO-8601 timestamp (date, or date and time with optional zone), or undefined. */
export function parseTimestamp(text: string): Date | undefined {
  const m = TIMESTAMP.exec(text);
  if (!m || !isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]))) return undefined;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) {
    return undefined;
  }
  // Without a zone, a time is UTC (JavaScript would take the server's zone).
  const zoned = m[4] !== undefined && m[7] === undefined ? `${text}Z` : text;
  const d = new Date(zoned);
  return inRange(d) ? d : undefined;
}

/**
 * Whether `text` is an RFC 3339 date-time (date, time and zone) that both
 * JavaScript and PostgreSQL can hold: the REST schemas' `format: date-time`.
 * (ajv-formats alone admits leap seconds, which Date cannot represent, and year 0.)
 */
export const isInstant = (text: string): boolean =>
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/.test(text) &&
  parseTimestamp(text) !== undefined;

/** A strict calendar date YYYY-MM-DD, or undefined. */
export function parseCalendarDate(text: string): string | undefined {
  const m = DATE.exec(text);
  return m && isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3])) ? text : undefined;
}

/** A timestamp or a duration relative to now, as a Date. */
export function resolveDateTime(value: unknown, now: Date, field: string): Date {
  if (typeof value === 'string') {
    const resolved = isDuration(value) ? applyDuration(value, now) : parseTimestamp(value);
    if (resolved) return resolved;
  }
  throw invalidField(field, `expected an ISO-8601 timestamp or a duration such as -P2W, within ${RANGE}`);
}

/** A calendar date (YYYY-MM-DD) or a duration relative to today, as YYYY-MM-DD. */
export function resolveDate(value: unknown, now: Date, field: string): string {
  if (typeof value === 'string') {
    if (isDuration(value)) {
      const relative = applyDuration(value, now);
      if (relative) return relative.toISOString().slice(0, 10);
    } else {
      const date = parseCalendarDate(value) ?? parseTimestamp(value)?.toISOString().slice(0, 10);
      if (date) return date;
    }
  }
  throw invalidField(field, `expected a date (YYYY-MM-DD) or a duration such as P1D, within ${RANGE}`);
}

// Dates in filters may be absolute (ISO-8601) or an ISO-8601 duration relative
// to now: "-P2W" is two weeks ago, "P1D" is a day from now.
import { invalidField } from '../errors.js';

const DURATION =
  /^([-+])?P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/** Applies an ISO-8601 duration to `now` in UTC calendar arithmetic; undefined if not a duration. */
export function applyDuration(text: string, now: Date): Date | undefined {
  const m = DURATION.exec(text.trim());
  if (!m || text.trim() === 'P' || /T$/.test(text.trim())) return undefined;
  const sign = m[1] === '-' ? -1 : 1;
  const n = (i: number) => sign * Number(m[i] ?? 0);
  const d = new Date(now.getTime());
  d.setUTCFullYear(d.getUTCFullYear() + n(2));
  d.setUTCMonth(d.getUTCMonth() + n(3));
  d.setUTCDate(d.getUTCDate() + 7 * n(4) + n(5));
  d.setTime(d.getTime() + ((n(6) * 60 + n(7)) * 60 + n(8)) * 1000);
  return d;
}

/** A timestamp or a duration relative to now, as a Date. */
export function resolveDateTime(value: unknown, now: Date, field: string): Date {
  if (typeof value === 'string') {
    const relative = applyDuration(value, now);
    if (relative) return relative;
    if (/^\d{4}-\d{2}-\d{2}/.test(value)) {
      const d = new Date(value);
      if (!Number.isNaN(d.getTime())) return d;
    }
  }
  throw invalidField(field, 'expected an ISO-8601 timestamp or a duration such as -P2W');
}

/** A calendar date (YYYY-MM-DD) or a duration relative to today, as YYYY-MM-DD. */
export function resolveDate(value: unknown, now: Date, field: string): string {
  if (typeof value === 'string') {
    const relative = applyDuration(value, now);
    if (relative) return relative.toISOString().slice(0, 10);
    if (/^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(new Date(`${value}T00:00:00Z`).getTime())) {
      return value;
    }
    if (/^\d{4}-\d{2}-\d{2}T/.test(value))
      return resolveDateTime(value, now, field).toISOString().slice(0, 10);
  }
  throw invalidField(field, 'expected a date (YYYY-MM-DD) or a duration such as P1D');
}

// Progress over time (a burn-up): for each day of a project's or cycle's span,
// how much was in scope, started and completed. Issues count in points: their
// estimate, or 1 without one. An issue is in scope from the moment it joined
// (the last time its history moved it in, else its creation) until it was
// canceled; completed from completedAt. Only issues in the project or cycle
// now, and only those the caller sees, are counted: an issue moved out leaves
// the whole chart. One statement, whatever the number of issues or days
// (queries.ts progressHistory).
import { Type } from 'typebox';

export interface ProgressDay {
  /** YYYY-MM-DD; each figure is as it stood at the end of that day (UTC). */
  date: string;
  scope: number;
  completedScope: number;
  inProgressScope: number;
  issues: number;
  completedIssues: number;
}

export const ProgressDaySchema = Type.Object({
  date: Type.String({ description: 'YYYY-MM-DD (UTC)' }),
  scope: Type.Number(),
  completedScope: Type.Number(),
  inProgressScope: Type.Number(),
  issues: Type.Integer(),
  completedIssues: Type.Integer(),
});

/** At most this many points: a span longer than this many days is sampled every few days. */
const MAX_POINTS = 180;
const DAY = 86_400_000;

/** The days to report between `from` and `to` (whole UTC days, the last always included). */
export function sampleDays(from: Date, to: Date): { first: string; last: string; stepDays: number } {
  const start = Math.floor(from.getTime() / DAY);
  const end = Math.max(start, Math.floor(to.getTime() / DAY));
  const stepDays = Math.max(1, Math.ceil((end - start + 1) / MAX_POINTS));
  // Count back from the last day so that today (or the end) is always a point.
  const first = end - Math.floor((end - start) / stepDays) * stepDays;
  const iso = (d: number) => new Date(d * DAY).toISOString().slice(0, 10);
  return { first: iso(first), last: iso(end), stepDays };
}

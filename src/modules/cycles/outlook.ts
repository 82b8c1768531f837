// Where a cycle is heading, for its burn-up drawn to the cycle's end: the
// ideal (nothing at the start, all of today's scope at the end) and the
// projection (the points completed per day so far, kept up to the end).
// Computed here from the day series the server read from history
// (projects/queries.ts progressHistory), so the browser only draws it.
import { Type } from 'typebox';
import type { ProgressDay } from '../projects/progress-history.js';

export interface CycleOutlook {
  /** The cycle's first and last day (YYYY-MM-DD, UTC): the chart's span. */
  startDate: string;
  endDate: string;
  /** Scope and completed points as of the last day reported. */
  scope: number;
  completedScope: number;
  /** Completed points at the end at the rate so far (at most the scope); the completed figure once over. */
  projectedScope: number;
}

export const CycleOutlookSchema = Type.Object({
  startDate: Type.String({ description: "The cycle's first day, YYYY-MM-DD (UTC)" }),
  endDate: Type.String({ description: "The cycle's last day, YYYY-MM-DD (UTC)" }),
  scope: Type.Number({ description: 'Points in scope on the last day reported (the ideal line ends there)' }),
  completedScope: Type.Number(),
  projectedScope: Type.Number({
    description: 'Points completed by the end at the rate so far, at most the scope',
  }),
});

const DAY = 86_400_000;
const dayOf = (d: Date) => Math.floor(d.getTime() / DAY);
const iso = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);

export function cycleOutlook(
  cycle: { starts_at: Date; ends_at: Date },
  days: readonly ProgressDay[],
): CycleOutlook {
  const first = dayOf(cycle.starts_at);
  // The end is exclusive: a cycle ending at midnight has its last day before.
  const last = Math.max(first, dayOf(new Date(cycle.ends_at.getTime() - 1)));
  const latest = days.at(-1);
  const scope = latest?.scope ?? 0;
  const completedScope = latest?.completedScope ?? 0;
  const elapsed = latest ? Math.floor(Date.parse(latest.date) / DAY) - first + 1 : 0;
  const total = last - first + 1;
  const projected = elapsed <= 0 ? 0 : elapsed >= total ? completedScope : (completedScope * total) / elapsed;
  return {
    startDate: iso(first),
    endDate: iso(last),
    scope,
    completedScope,
    projectedScope: Math.round(Math.min(scope, Math.max(completedScope, projected)) * 10) / 10,
  };
}

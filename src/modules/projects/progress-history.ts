// Progress over time (a burn-up): for each day of a project's or cycle's span,
// how much was in scope, started and completed. Issues count in points: their
// estimate, or 1 without one. An issue is in scope from the moment it joined
// (the last time its history moved it in, else its creation) until it was
// canceled; completed from completedAt. Only issues in the project or cycle
// now, and only those the caller sees, are counted: an issue moved out leaves
// the whole chart. One statement, whatever the number of issues or days.
import { sql } from 'kysely';
import { Type } from 'typebox';
import { type TeamAccess, visibility } from '../../platform/access.js';
import type { Db } from '../../platform/db/database.js';

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

export async function progressHistory(
  db: Db,
  owner: { column: 'project_id' | 'cycle_id'; id: string },
  access: TeamAccess,
  span: { from: Date; to: Date },
): Promise<ProgressDay[]> {
  const key = owner.column === 'project_id' ? 'projectId' : 'cycleId';
  const { first, last, stepDays } = sampleDays(span.from, span.to);
  const owned = db
    .selectFrom('issues as i')
    .select((eb) => [
      sql<number>`coalesce(i.estimate, 1)`.as('points'),
      eb.fn
        .coalesce(
          eb
            .selectFrom('issue_history as h')
            .select((h) => h.fn.max('h.created_at').as('at'))
            .whereRef('h.issue_id', '=', 'i.id')
            .where(sql<boolean>`h.changes -> ${key} ->> 'to' = ${owner.id}`),
          'i.created_at',
        )
        .as('joined_at'),
      'i.started_at',
      'i.completed_at',
      'i.canceled_at',
    ])
    .where(`i.${owner.column}`, '=', owner.id)
    .where('i.archived_at', 'is', null)
    .where(() => visibility.issue('i', access) as never);
  const rows = await sql<{
    date: string;
    scope: number | string;
    completed_scope: number | string;
    in_progress_scope: number | string;
    issues: number | string;
    completed_issues: number | string;
  }>`
    with owned as (${owned}),
    days as (
      select d::date as day, d::date + 1 as day_end
      from generate_series(${first}::date, ${last}::date, make_interval(days => ${stepDays}::int)) as d
    ),
    at_day as (
      select d.day, o.points,
             coalesce(o.completed_at < d.day_end, false) as done,
             coalesce(o.started_at < d.day_end, false) and coalesce(o.completed_at >= d.day_end, true) as started
      from days d
      join owned o on o.joined_at < d.day_end and coalesce(o.canceled_at >= d.day_end, true)
    )
    select to_char(d.day, 'YYYY-MM-DD') as date,
           coalesce(sum(a.points), 0) as scope,
           coalesce(sum(a.points) filter (where a.done), 0) as completed_scope,
           coalesce(sum(a.points) filter (where a.started), 0) as in_progress_scope,
           count(a.day) as issues,
           count(a.day) filter (where a.done) as completed_issues
    from days d left join at_day a on a.day = d.day
    group by d.day
    order by d.day`.execute(db);
  return rows.rows.map((r) => ({
    date: r.date,
    scope: Number(r.scope),
    completedScope: Number(r.completed_scope),
    inProgressScope: Number(r.in_progress_scope),
    issues: Number(r.issues),
    completedIssues: Number(r.completed_issues),
  }));
}

// A cycle's phase, defined once for every door, in SQL for the read model
// (REST, compiled GraphQL, event payloads) and in JavaScript for GraphQL's
// resolver nodes; test/doors-agree.test.ts holds the doors equal.
//
//   past      completed, or its end has come (a cycle completed early is over)
//   upcoming  not completed and not started
//   current   otherwise
// isActive, isPast and isFuture are this phase's, on both APIs and in filters.
import { type RawBuilder, sql } from 'kysely';

type Sql = RawBuilder<unknown>;
export type CyclePhase = 'past' | 'current' | 'upcoming';

/** The phase of the cycle row `row` at `now` (a timestamptz: the request's clock, or now() in a filter), as SQL text. */
export const cyclePhaseSql = (row: Sql, now: Sql) =>
  sql`(case when ${row}.completed_at is not null or ${row}.ends_at <= ${now} then 'past'
    when ${row}.starts_at > ${now} then 'upcoming' else 'current' end)`;

/** The request's clock as SQL. */
export const clockSql = (now: Date) => sql`${now.toISOString()}::timestamptz`;

export function cyclePhase(
  c: { completed_at: Date | null; starts_at: Date; ends_at: Date },
  now: Date,
): CyclePhase {
  if (c.completed_at !== null || c.ends_at <= now) return 'past';
  return c.starts_at > now ? 'upcoming' : 'current';
}

// SQL of the GraphQL layer's own table: the request budgets (graphql_budget,
// migrations 0015 and 0030), charged by rate-budget.ts for GraphQL and REST.
import { sql } from 'kysely';
import type { Db } from '../platform/db/database.js';

export interface BudgetUsage {
  window_start: Date;
  requests: number;
  complexity: number;
  charged: boolean;
}

/**
 * One statement, atomic per row: starts a new window when the old one has
 * passed (`expired`), charges `count` requests of `cost` points in all when
 * they all fit (rate-budget.ts groups concurrent requests of one caller), and
 * returns the totals. Concurrent requests on any instance queue on the row's
 * lock and each sees the totals the one before it left. A request that does
 * not fit an empty budget is refused even in a new window.
 */
export async function chargeBudgetRow(
  db: Db,
  c: {
    userId: string;
    kind: string;
    at: Date;
    expired: Date;
    /** Requests charged together (1 but for a group); `cost` is their sum. */
    count: number;
    cost: number;
    mustFit: boolean;
    maxRequests: number;
    maxComplexity: number;
  },
): Promise<BudgetUsage> {
  const fresh = (c.mustFit && c.cost > c.maxComplexity) || c.count > c.maxRequests ? 0 : 1;
  const { rows } = await sql<BudgetUsage>`
    insert into graphql_budget as b (user_id, kind, window_start, requests, complexity, charged)
    values (${c.userId}::uuid, ${c.kind}, ${c.at}::timestamptz, ${fresh * c.count}, ${fresh * c.cost}::float8,
      ${fresh === 1})
    on conflict (user_id, kind) do update set (window_start, requests, complexity, charged) = (
      select w.start, w.requests + c.n * ${c.count}::int, w.complexity + c.n * ${c.cost}::float8, c.n = 1
      from (
        select
          case when b.window_start <= ${c.expired}::timestamptz then ${c.at}::timestamptz else b.window_start end as start,
          case when b.window_start <= ${c.expired}::timestamptz then 0 else b.requests end as requests,
          case when b.window_start <= ${c.expired}::timestamptz then 0 else b.complexity end as complexity
      ) w
      cross join lateral (
        select case when w.requests + ${c.count}::int <= ${c.maxRequests}::int
          and w.complexity < ${c.maxComplexity}::float8
          and (not ${c.mustFit}::boolean or w.complexity + ${c.cost}::float8 <= ${c.maxComplexity}::float8)
          then 1 else 0 end as n
      ) c
    )
    returning window_start, requests, complexity, charged
  `.execute(db);
  return rows[0]!;
}

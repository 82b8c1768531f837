// Wraps a `pg`-style pool (pg.Pool or PGlitePool) so that every statement, on
// either database, is charged to the database-time budget of the request that
// runs it (db-time.ts), refused once that budget is spent, and reported to
// statement listeners (tests count and EXPLAIN the statements of a request).
// A statement cut off by statement_timeout leaves as QUERY_TOO_EXPENSIVE;
// the connection stays usable (PostgreSQL cancels only the statement, and a
// transaction around it is rolled back by its owner as after any error).
import { performance } from 'node:perf_hooks';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type { CallerSlots } from './caller-slots.js';
import { budgetSpent, currentDbTimeBudget, isStatementTimeout, statementTimedOut } from './db-time.js';

export type StatementListener = (sql: string, parameters: readonly unknown[]) => void;

// Ending a transaction is never refused: a refusal must not leave one open.
const TRANSACTION_END = /^\s*(commit|rollback|end|abort|release)\b/i;

export class MeteredPool implements PostgresPool {
  readonly listeners = new Set<StatementListener>();

  constructor(
    readonly inner: PostgresPool,
    /** Fair share: a request's caller (db-time-hook.ts) holds at most this many connections at once. */
    readonly slots?: CallerSlots,
  ) {}

  async connect(): Promise<PostgresPoolClient> {
    const caller = this.slots ? currentDbTimeBudget()?.caller : undefined;
    const giveBack = caller ? await this.slots!.acquire(caller) : undefined;
    let client: PostgresPoolClient;
    try {
      client = await this.inner.connect();
    } catch (err) {
      giveBack?.();
      throw err;
    }
    const listeners = this.listeners;
    const query = client.query.bind(client) as (sql: unknown, parameters?: unknown) => Promise<unknown>;
    const metered = async (sql: unknown, parameters?: readonly unknown[]) => {
      // Cursors (streamed results) and other query objects pass through unmetered.
      if (typeof sql !== 'string') return query(sql, parameters);
      const budget = currentDbTimeBudget();
      if (budget && budget.spentMs >= budget.limitMs && !TRANSACTION_END.test(sql)) {
        throw budgetSpent(budget.limitMs);
      }
      for (const listener of listeners) listener(sql, parameters ?? []);
      const started = performance.now();
      try {
        return await query(sql, parameters);
      } catch (err) {
        throw isStatementTimeout(err) ? statementTimedOut() : err;
      } finally {
        if (budget) {
          budget.spentMs += performance.now() - started;
          budget.statements++;
        }
      }
    };
    return Object.assign(Object.create(client) as PostgresPoolClient, {
      query: metered,
      release: () => {
        client.release();
        giveBack?.();
      },
    });
  }

  end(): Promise<void> {
    return this.inner.end();
  }
}

// The database-time budget of one request (issue 24, finding 1). Every SQL
// statement a request runs adds its time to the request's budget; once the
// budget is spent, the request's next statement is refused with 400
// QUERY_TOO_EXPENSIVE instead of running. On PostgreSQL each statement is also
// cut off by statement_timeout (STATEMENT_TIMEOUT_MS), answered the same way;
// PGlite cannot interrupt a running statement (it runs in this thread), so
// there the budget bounds a request between statements (docs/security.md).
import { AsyncLocalStorage } from 'node:async_hooks';
import { AppError } from '../errors.js';

export class DbTimeBudget {
  spentMs = 0;
  statements = 0;
  /**
   * Who the request's statements are counted for in the pool's fair share
   * (caller-slots.ts): the signed-in user, or the address of a public route's
   * caller. Unset while the credential is being checked.
   */
  caller: string | undefined;
  /**
   * `answered()` turns true once the request has sent its response headers:
   * from then on its statements are not the request's any more (work it left
   * behind, or the events a change stream sends after opening, each bounded
   * by statement_timeout alone).
   */
  constructor(
    readonly limitMs: number,
    readonly answered: () => boolean = () => false,
  ) {}
}

const current = new AsyncLocalStorage<DbTimeBudget>();

/** Runs `fn` with a fresh budget: the statements it (and what it awaits) runs are charged to it. */
export function withDbTimeBudget<T>(budget: DbTimeBudget, fn: () => T): T {
  return current.run(budget, fn);
}

/**
 * Runs `fn` charged to no request: for work bounded by a limit of its own,
 * such as the chunks of an upload (25 MiB at most), which on a slow disk
 * could otherwise spend a request's whole budget on bytes it was allowed to send.
 */
export function outsideDbTimeBudget<T>(fn: () => T): T {
  return current.exit(fn);
}

/** The budget of the request in progress, if any. */
export function currentDbTimeBudget(): DbTimeBudget | undefined {
  const b = current.getStore();
  return b && !b.answered() ? b : undefined;
}

export const queryTooExpensive = (message: string) => new AppError(400, 'QUERY_TOO_EXPENSIVE', message);

/** PostgreSQL's query_canceled: statement_timeout (or an operator's cancel) stopped the statement. */
export const isStatementTimeout = (err: unknown) => (err as { code?: unknown } | null)?.code === '57014';

export const statementTimedOut = () =>
  queryTooExpensive(
    'The request needed more database time than one statement may take; narrow the filter or search, or ask for a smaller page',
  );

export const budgetSpent = (limitMs: number) =>
  queryTooExpensive(
    `The request used up its ${limitMs} ms of database time; narrow the filter or search, or ask for a smaller page`,
  );

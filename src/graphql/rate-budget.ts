// Per-user hourly budgets for GraphQL and REST alike: a number of requests
// and a number of complexity points. Kept in the database (table
// graphql_budget, migrations 0015 and 0030), so that every instance on one
// PostgreSQL charges one budget: a request costs one upsert that starts a new
// window when the old one has passed, charges the request when it fits, and
// returns the totals.
//
// Each user has one budget per kind of caller (Budgets below): 'session' for
// the web UI's login tokens, 'api' for API keys. A person's own UI is never
// charged to the budget meant for API clients, and a flooding key cannot lock
// its owner out of the UI; each is still bounded (docs/security.md).
//
// The only state kept in process memory is which users have used their budget
// up, and until when: within a window the totals only grow, so "used up until
// T" stays true on every instance, and a refused caller's next requests are
// answered 429 without parsing them or asking the database.
//
// A caller's concurrent requests are charged as a group: while one upsert of
// theirs is in flight, the charges that arrive queue, and the next upsert
// charges them all at once when they all fit (or each alone, in turn, when
// they do not), so the totals are those of charging one by one. A busy API
// client then costs one write per round trip, not one per request, and its
// requests do not queue on the row's lock.
import type { Config } from '../config.js';
import type { Actor } from '../platform/context.js';
import type { Db } from '../platform/db/database.js';
import { rateLimited } from '../platform/errors.js';
import type { BudgetState, RequestBudget } from '../platform/http/request-budget.js';
import { type BudgetUsage, chargeBudgetRow } from './queries.js';

export type { BudgetState } from '../platform/http/request-budget.js';
export { budgetHeaders } from '../platform/http/request-budget.js';

/** Whose budget a request draws on: the web UI's sessions or API clients (keys; OAuth apps when they come). */
export type BudgetKind = 'api' | 'session';

export interface BudgetLimits {
  requests: number;
  complexity: number;
  windowMs: number;
}

// Entries are dropped once their window has reset; this only bounds a sweep.
const SWEEP_ABOVE = 10_000;

interface Waiting {
  cost: number;
  resolve(state: BudgetState): void;
  reject(error: unknown): void;
}

export class RateBudget implements RequestBudget {
  /** Users whose budget is used up: the state to answer with, until its resetAt. */
  readonly #usedUp = new Map<string, BudgetState>();
  /** Callers with a charge in flight, and the charges that arrived meanwhile. */
  readonly #queued = new Map<string, Waiting[]>();

  constructor(
    private readonly db: Db,
    readonly limits: BudgetLimits,
    private readonly clock: () => number = Date.now,
    readonly kind: BudgetKind = 'api',
  ) {}

  /**
   * Throws "ratelimited" when this process has seen the caller's budget used
   * up in the current window: checked before any work on a request is done.
   * No database round trip; charge() and record() check the shared totals.
   */
  check(userId: string): void {
    const state = this.#usedUp.get(userId);
    if (!state) return;
    const now = this.clock();
    if (now >= state.resetAt) this.#usedUp.delete(userId);
    else this.#refuse(state, now);
  }

  /** Charges one request of `cost`; throws "ratelimited" (with the state) when it does not fit. */
  charge(userId: string, cost: number): Promise<BudgetState> {
    const queue = this.#queued.get(userId);
    if (queue) return new Promise((resolve, reject) => queue.push({ cost, resolve, reject }));
    this.#queued.set(userId, []);
    return this.#spend(userId, cost, true).finally(() => void this.#drain(userId));
  }

  /** Charges what queued behind the caller's last upsert, until nothing is left. */
  async #drain(userId: string): Promise<void> {
    for (;;) {
      const group = this.#queued.get(userId) ?? [];
      if (group.length === 0) {
        this.#queued.delete(userId);
        return;
      }
      this.#queued.set(userId, []);
      // A group whose every request costs something fits together exactly when one by one each would.
      if (group.length > 1 && group.every((w) => w.cost >= 1)) {
        const total = group.reduce((sum, w) => sum + w.cost, 0);
        const state = await this.#spend(userId, total, true, group.length).catch(() => undefined);
        if (state) {
          for (const w of group) w.resolve(state);
          continue;
        }
      }
      for (const w of group) await this.#spend(userId, w.cost, true).then(w.resolve, w.reject);
    }
  }

  /**
   * Charges one request of `cost` unless the budget is already used up: for
   * requests refused on their own account (too complex, invalid), whose work
   * is done. The budget may end below zero; the next request then gets a 429.
   */
  record(userId: string, cost: number): Promise<BudgetState> {
    return this.#spend(userId, cost, false);
  }

  async #spend(userId: string, cost: number, mustFit: boolean, count = 1): Promise<BudgetState> {
    const now = this.clock();
    const { requests: maxRequests, complexity: maxComplexity, windowMs } = this.limits;
    // One statement, atomic per row (queries.ts).
    const usage = await chargeBudgetRow(this.db, {
      userId,
      kind: this.kind,
      at: new Date(now),
      expired: new Date(now - windowMs),
      count,
      cost,
      mustFit,
      maxRequests,
      maxComplexity,
    });
    const state = this.#state(usage);
    if (usage.requests >= maxRequests || usage.complexity >= maxComplexity) {
      if (this.#usedUp.size >= SWEEP_ABOVE) this.#sweep(now);
      this.#usedUp.set(userId, state);
    }
    if (!usage.charged) this.#refuse(state, now);
    return state;
  }

  #state(u: BudgetUsage): BudgetState {
    return {
      requestsLimit: this.limits.requests,
      requestsRemaining: Math.max(0, this.limits.requests - u.requests),
      complexityLimit: this.limits.complexity,
      complexityRemaining: Math.max(0, Math.floor(this.limits.complexity - u.complexity)),
      resetAt: u.window_start.getTime() + this.limits.windowMs,
    };
  }

  #sweep(now: number) {
    for (const [k, s] of this.#usedUp) if (now >= s.resetAt) this.#usedUp.delete(k);
  }

  #refuse(state: BudgetState, now: number): never {
    const wait = Math.max(1, Math.ceil((state.resetAt - now) / 1000));
    const whose = this.kind === 'session' ? 'Session' : 'API';
    throw Object.assign(rateLimited(`${whose} budget used up for this hour; try again in ${wait} s`, wait), {
      budget: state,
    });
  }
}

const HOUR_MS = 60 * 60_000;

/** The budgets of one process: one per kind of caller, both in the one table. */
export class Budgets {
  readonly api: RateBudget;
  readonly session: RateBudget;

  constructor(db: Db, config: Config, clock?: () => number) {
    this.api = new RateBudget(
      db,
      {
        requests: config.graphqlRequestsPerHour,
        complexity: config.graphqlComplexityPerHour,
        windowMs: HOUR_MS,
      },
      clock,
      'api',
    );
    this.session = new RateBudget(
      db,
      {
        requests: config.sessionRequestsPerHour,
        complexity: config.sessionComplexityPerHour,
        windowMs: HOUR_MS,
      },
      clock,
      'session',
    );
  }

  /** A login token is a person's session (the web UI); an API key is an API client. */
  of(actor: Actor): RateBudget {
    return actor.via === 'session' ? this.session : this.api;
  }
}

// Per-user hourly budgets for GraphQL: a number of requests and a number of
// complexity points, kept in memory (one process; they reset on restart).
import { rateLimited } from '../platform/errors.js';

export interface BudgetLimits {
  requests: number;
  complexity: number;
  windowMs: number;
}

interface Usage {
  windowStart: number;
  requests: number;
  complexity: number;
}

export interface BudgetState {
  requestsLimit: number;
  requestsRemaining: number;
  complexityLimit: number;
  complexityRemaining: number;
  /** Unix time in milliseconds when the window resets. */
  resetAt: number;
}

export class RateBudget {
  #usage = new Map<string, Usage>();
  constructor(readonly limits: BudgetLimits) {}

  #current(userId: string, now: number): Usage {
    let u = this.#usage.get(userId);
    if (!u || now - u.windowStart >= this.limits.windowMs) {
      u = { windowStart: now, requests: 0, complexity: 0 };
      this.#usage.set(userId, u);
      if (this.#usage.size > 10_000) this.#sweep(now);
    }
    return u;
  }

  #sweep(now: number) {
    for (const [k, u] of this.#usage) if (now - u.windowStart >= this.limits.windowMs) this.#usage.delete(k);
  }

  #state(u: Usage): BudgetState {
    return {
      requestsLimit: this.limits.requests,
      requestsRemaining: Math.max(0, this.limits.requests - u.requests),
      complexityLimit: this.limits.complexity,
      complexityRemaining: Math.max(0, Math.floor(this.limits.complexity - u.complexity)),
      resetAt: u.windowStart + this.limits.windowMs,
    };
  }

  #refuse(u: Usage, now: number): never {
    const state = this.#state(u);
    const wait = Math.max(1, Math.ceil((state.resetAt - now) / 1000));
    throw Object.assign(rateLimited(`GraphQL budget used up for this hour; try again in ${wait} s`, wait), {
      budget: state,
    });
  }

  /** Throws "ratelimited" when nothing is left: checked before any work on a request is done. */
  check(userId: string, now = Date.now()): void {
    const u = this.#current(userId, now);
    if (u.requests >= this.limits.requests || u.complexity >= this.limits.complexity) this.#refuse(u, now);
  }

  /** Charges one request of `cost`; throws "ratelimited" (with the state) when over budget. */
  charge(userId: string, cost: number, now = Date.now()): BudgetState {
    const u = this.#current(userId, now);
    if (u.requests + 1 > this.limits.requests || u.complexity + cost > this.limits.complexity)
      this.#refuse(u, now);
    return this.record(userId, cost, now);
  }

  /**
   * Charges one request of `cost` without refusing: for requests already
   * refused on their own account (too complex, invalid), whose work is done.
   * The budget may end below zero; the next request then gets a 429.
   */
  record(userId: string, cost: number, now = Date.now()): BudgetState {
    const u = this.#current(userId, now);
    u.requests += 1;
    u.complexity += cost;
    return this.#state(u);
  }
}

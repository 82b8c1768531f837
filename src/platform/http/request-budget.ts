// REST under the same hourly budget as GraphQL: every authenticated request
// is priced, charged to its caller's budget (the web UI's session or an API
// key: graphql/rate-budget.ts), refused 429 with the same headers when the
// budget is used up, and refused 400 before it runs when it alone costs more
// than one request may. A list's filter and search are priced by the same
// functions GraphQL uses (list/price.ts), so `?filter=` costs what the same
// filter costs as a GraphQL argument.
import type { FastifyInstance } from 'fastify';
import type { Actor } from '../context.js';
import { AppError } from '../errors.js';
import type { EntitySpec } from '../list/filter.js';
import { filterPrice, MAX_REQUEST_PRICE, PRICES, searchPrice } from '../list/price.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The entity a list route reads: its `filter` and `q` query parameters are priced as that list's. */
    lists?: EntitySpec;
  }
}

export interface BudgetState {
  requestsLimit: number;
  requestsRemaining: number;
  complexityLimit: number;
  complexityRemaining: number;
  /** Unix time in milliseconds when the window resets. */
  resetAt: number;
}

/** What the REST door needs of a budget (graphql/rate-budget.ts's RateBudget). */
export interface RequestBudget {
  /** Throws a 429 when this process knows the caller's budget is used up. */
  check(userId: string): void;
  /** Charges a request of `cost`; throws a 429 (carrying `budget`) when it does not fit. */
  charge(userId: string, cost: number): Promise<BudgetState>;
  /** Charges a refused request of `cost` unless the budget is already used up. */
  record(userId: string, cost: number): Promise<BudgetState>;
}

/** Every request: one point, as a GraphQL request selecting one object costs. */
export const REST_REQUEST_PRICE = 1;
/** Each record a list may answer (its `limit`): a REST record is one object, as a GraphQL node is. */
export const REST_RECORD_PRICE = 1;

/** The headers every charged answer carries, on GraphQL and REST alike. */
export function budgetHeaders(state: BudgetState): Record<string, string> {
  const reset = String(state.resetAt);
  return {
    'x-ratelimit-requests-limit': String(state.requestsLimit),
    'x-ratelimit-requests-remaining': String(state.requestsRemaining),
    'x-ratelimit-requests-reset': reset,
    'x-ratelimit-complexity-limit': String(state.complexityLimit),
    'x-ratelimit-complexity-remaining': String(state.complexityRemaining),
    'x-ratelimit-complexity-reset': reset,
  };
}

/** A filter parameter as the route will read it; anything unreadable costs nothing here (the route refuses it). */
function parsedFilter(raw: unknown): unknown {
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/**
 * The price of a REST request with its validated query: a base, each record
 * its `limit` allows, each row its `offset` skips, and, on a list route, its
 * `filter` and `q` as GraphQL prices them (and a counting route's `filters`).
 */
export function restPrice(lists: EntitySpec | undefined, query: unknown, body?: unknown): number {
  const q = (typeof query === 'object' && query !== null ? query : {}) as Record<string, unknown>;
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  let price = REST_REQUEST_PRICE;
  if (typeof q['limit'] === 'number' && q['limit'] > 0) price += q['limit'] * REST_RECORD_PRICE;
  if (typeof q['offset'] === 'number' && q['offset'] > 0) price += q['offset'] * PRICES.skippedRow;
  if (lists) {
    price += filterPrice(lists, parsedFilter(q['filter']));
    if (typeof q['q'] === 'string' && q['q'].trim() !== '') price += searchPrice(q['q']);
    // A counting route's body: each filter as a list's, each count as one record.
    if (Array.isArray(b['filters']))
      for (const f of b['filters']) price += REST_RECORD_PRICE + filterPrice(lists, f);
  }
  return Math.round(price * 10) / 10;
}

const tooCostly = (price: number) =>
  new AppError(
    400,
    'QUERY_TOO_COMPLEX',
    `Request too costly: price ${price} exceeds the limit of ${MAX_REQUEST_PRICE} points. Ask for fewer records (limit), a smaller offset or a simpler filter.`,
  );

/** Installs the budget on every route that has an authenticated caller; after installAuth. */
export function installRequestBudget(app: FastifyInstance, budgetOf: (actor: Actor) => RequestBudget): void {
  // A 429 keeps the budget's headers, as GraphQL's does.
  const withHeaders = (err: unknown, reply: { headers(h: Record<string, string>): unknown }) => {
    const state = (err as { budget?: BudgetState }).budget;
    if (state) reply.headers(budgetHeaders(state));
    return err;
  };
  // Before the body is read or validated: a caller this process saw use the
  // budget up is refused from memory, with no database round trip.
  app.addHook('onRequest', async (request, reply) => {
    if (!request.actor) return;
    try {
      budgetOf(request.actor).check(request.actor.id);
    } catch (err) {
      throw withHeaders(err, reply);
    }
  });
  // After validation, so the price reads the query the route will see
  // (defaults applied), and before the handler does any work.
  app.addHook('preHandler', async (request, reply) => {
    const actor = request.actor;
    if (!actor) return;
    const budget = budgetOf(actor);
    const price = restPrice(request.routeOptions.config?.lists, request.query, request.body);
    try {
      if (price > MAX_REQUEST_PRICE) {
        // Refused as GraphQL refuses a too-complex query: charged the per-request limit.
        reply.headers(budgetHeaders(await budget.record(actor.id, MAX_REQUEST_PRICE)));
        reply.header('x-complexity', String(MAX_REQUEST_PRICE));
        throw tooCostly(price);
      }
      reply.headers(budgetHeaders(await budget.charge(actor.id, price)));
      reply.header('x-complexity', String(price));
    } catch (err) {
      throw withHeaders(err, reply);
    }
  });
}

// Gives every HTTP request (REST, GraphQL, the change stream's opening) its
// database-time budget (platform/db/db-time.ts), from its first hook on, so
// authentication is charged too. The budget rides in AsyncLocalStorage; body
// parsing runs its callbacks outside the request's async context, so the
// budget is entered again before validation. The budget also names the
// caller for the pool's fair share (platform/db/caller-slots.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DbTimeBudget, withDbTimeBudget } from '../db/db-time.js';

const budgets = new WeakMap<FastifyRequest, DbTimeBudget>();

/** `limitMs` is read per request (tests change the setting on a running app). */
export function installDbTimeBudget(app: FastifyInstance, limitMs: () => number): void {
  app.addHook('onRequest', (request, reply, done) => {
    const budget = new DbTimeBudget(limitMs(), () => reply.raw.headersSent);
    // A public route's caller is known by address alone (a signed-in one once authenticated, below).
    if (request.routeOptions.config?.auth === 'public') budget.caller = `address:${request.ip}`;
    budgets.set(request, budget);
    withDbTimeBudget(budget, done);
  });
  app.addHook('preValidation', (request, _reply, done) => {
    const budget = budgets.get(request);
    if (budget && request.actor) budget.caller = `user:${request.actor.id}`;
    if (budget) withDbTimeBudget(budget, done);
    else done();
  });
}

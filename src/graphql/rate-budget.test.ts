// Per-user hourly GraphQL budgets: requests and complexity points.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../platform/errors.js';
import { RateBudget } from './rate-budget.js';

test('charges requests and complexity, refuses over budget as 429, resets after the window', () => {
  const budget = new RateBudget({ requests: 3, complexity: 100, windowMs: 1000 });
  const s1 = budget.charge('u1', 40, 0);
  assert.deepEqual([s1.requestsRemaining, s1.complexityRemaining, s1.resetAt], [2, 60, 1000]);
  budget.charge('u1', 40, 10);
  assert.throws(
    () => budget.charge('u1', 40, 20),
    (e: unknown) => e instanceof AppError && e.status === 429 && e.retryAfter === 1,
  );
  assert.equal(budget.charge('u2', 40, 20).complexityRemaining, 60, 'budgets are per user');
  budget.charge('u1', 1, 30);
  assert.throws(() => budget.charge('u1', 1, 40), /budget used up/);
  assert.equal(budget.charge('u1', 1, 1000).requestsRemaining, 2, 'a new window starts afresh');
});

test('record charges a refused request without refusing it; check then refuses before any work', () => {
  const budget = new RateBudget({ requests: 100, complexity: 25_000, windowMs: 1000 });
  budget.check('u1', 0);
  assert.equal(budget.record('u1', 10_000, 0).complexityRemaining, 15_000);
  assert.equal(budget.record('u1', 10_000, 1).complexityRemaining, 5_000);
  budget.check('u1', 2);
  const state = budget.record('u1', 10_000, 2);
  assert.deepEqual([state.complexityRemaining, state.requestsRemaining], [0, 97]);
  assert.throws(
    () => budget.check('u1', 3),
    (e: unknown) => e instanceof AppError && e.status === 429 && /budget used up/.test(e.message),
  );
  assert.throws(() => budget.charge('u1', 0.1, 3), /budget used up/);
  budget.check('u2', 3);
  budget.check('u1', 1000);
});

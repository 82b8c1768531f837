// test-runner: any database
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import { CallerSlots } from './caller-slots.js';
import { DbTimeBudget, withDbTimeBudget } from './db-time.js';
import { MeteredPool } from './metered-pool.js';

/** A pool of `size` connections that counts how many are out at once. */
function countingPool(size: number) {
  let out = 0;
  const waiting: (() => void)[] = [];
  const pool: PostgresPool = {
    async connect() {
      if (out >= size) await new Promise<void>((resolve) => waiting.push(resolve));
      else out++;
      return {
        query: async () => ({ rows: [] }),
        release: () => {
          const next = waiting.shift();
          if (next) next();
          else out--;
        },
      } as unknown as PostgresPoolClient;
    },
    async end() {},
  };
  return { pool, out: () => out };
}

const as = (caller: string) => {
  const budget = new DbTimeBudget(60_000);
  budget.caller = caller;
  return <T>(fn: () => Promise<T>) => withDbTimeBudget(budget, fn);
};

test('one caller holds at most its share of the pool; another caller is not kept waiting', async () => {
  const { pool, out } = countingPool(10);
  const metered = new MeteredPool(pool, new CallerSlots(2));
  const guest = as('user:guest');
  const held: PostgresPoolClient[] = [];
  const pending = Array.from({ length: 10 }, () => guest(() => metered.connect()).then((c) => held.push(c)));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(held.length, 2, 'the guest got two connections, the rest wait in memory');
  assert.equal(out(), 2);

  const member = await as('user:member')(() => metered.connect());
  assert.equal(out(), 3, 'the member connected at once');
  member.release();

  // Each release hands the guest's slot to its next statement, in order.
  while (held.length < 10) {
    held[held.length - 2]!.release();
    held[held.length - 1]!.release();
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(out() <= 2, `never more than two for the guest (${out()})`);
  }
  await Promise.all(pending);
});

test('a statement outside any request, or before the caller is known, is not held back', async () => {
  const { pool, out } = countingPool(10);
  const metered = new MeteredPool(pool, new CallerSlots(1));
  const clients = await Promise.all(Array.from({ length: 4 }, () => metered.connect()));
  assert.equal(out(), 4);
  const unnamed = new DbTimeBudget(60_000);
  clients.push(await withDbTimeBudget(unnamed, () => metered.connect()));
  assert.equal(out(), 5);
  for (const c of clients) c.release();
});

test('a failed connect gives the slot back', async () => {
  const slots = new CallerSlots(1);
  const failing: PostgresPool = {
    connect: async () => {
      throw new Error('database down');
    },
    async end() {},
  };
  const metered = new MeteredPool(failing, slots);
  const guest = as('user:guest');
  await assert.rejects(
    guest(() => metered.connect()),
    /database down/,
  );
  await assert.rejects(
    guest(() => metered.connect()),
    /database down/,
    'not stuck waiting for the first slot',
  );
});

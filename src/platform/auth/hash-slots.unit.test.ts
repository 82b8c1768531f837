// test-runner: any database
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HashSlots } from './hash-slots.js';

/** Work that finishes when the test says so. */
function gate() {
  let open!: () => void;
  const done = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { done, open };
}

test('at most `size` run at once; password checks are served before new hashes', async () => {
  const slots = new HashSlots(2);
  const order: string[] = [];
  const gates = new Map<string, ReturnType<typeof gate>>();
  const job = (name: string, priority: 'check' | 'new') => {
    const g = gate();
    gates.set(name, g);
    return slots.run(priority, async () => {
      order.push(name);
      await g.done;
    });
  };
  const all = [job('new-1', 'new'), job('new-2', 'new'), job('new-3', 'new'), job('new-4', 'new')];
  all.push(job('check-1', 'check'));
  await Promise.resolve();
  assert.deepEqual(slots.load, { running: 2, waiting: 3 });
  assert.deepEqual(order, ['new-1', 'new-2']);
  gates.get('new-1')!.open();
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(order, ['new-1', 'new-2', 'check-1'], 'the sign-in check jumped the queue');
  for (const name of ['new-2', 'check-1', 'new-3', 'new-4']) {
    gates.get(name)!.open();
    await new Promise((r) => setImmediate(r));
  }
  await Promise.all(all);
  assert.deepEqual(slots.load, { running: 0, waiting: 0 });
  assert.deepEqual(slots.started, { check: 1, new: 4 });
});

test('a failing computation frees its slot', async () => {
  const slots = new HashSlots(1);
  await assert.rejects(slots.run('new', async () => Promise.reject(new Error('boom'))));
  assert.equal(await slots.run('check', async () => 'next'), 'next');
  assert.deepEqual(slots.load, { running: 0, waiting: 0 });
});

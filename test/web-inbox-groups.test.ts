// test-runner: any database
// The inbox's rows (web/src/lib/inbox-groups.ts, issue 26): one per issue, in
// the order of each issue's newest event, with its unread count; and loading
// a further page (docs/ui.md, "Grouping and paging") never splits a row nor
// reorders the rows already shown.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { groupByIssue } from '../web/src/lib/inbox-groups.js';

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 12) * 10;

/** A newest-first inbox: notifications about a few issues, read or not. */
const inbox = fc
  .array(fc.record({ issue: fc.constantFrom('A', 'B', 'C', 'D', 'E'), read: fc.boolean() }), {
    maxLength: 60,
  })
  .map((rows) =>
    rows.map((r, i) => ({ id: `n${i}`, issue: { id: r.issue }, readAt: r.read ? '2026-01-01' : null })),
  );

test('one row per issue, ordered by newest event, holding its events in order with their unread count', () => {
  fc.assert(
    fc.property(inbox, (items) => {
      const groups = groupByIssue(items);
      assert.equal(new Set(groups.map((g) => g.issue.id)).size, groups.length, 'no issue twice');
      assert.deepEqual(
        groups.flatMap((g) => g.events).sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1))),
        items,
        'every notification in exactly one row',
      );
      const newest = groups.map((g) => items.indexOf(g.events[0]!));
      assert.deepEqual(
        newest,
        [...newest].sort((a, b) => a - b),
        'rows by their newest event',
      );
      for (const g of groups) {
        assert.ok(g.events.every((n) => n.issue.id === g.issue.id));
        const at = g.events.map((n) => items.indexOf(n));
        assert.deepEqual(
          at,
          [...at].sort((a, b) => a - b),
          'events newest first',
        );
        assert.equal(g.unread, g.events.filter((n) => !n.readAt).length);
      }
    }),
    { numRuns: RUNS },
  );
});

test('loading more keeps the rows shown, in their order, and only adds events and later rows', () => {
  fc.assert(
    fc.property(inbox, fc.nat(), (items, cut) => {
      const loaded = items.slice(0, items.length === 0 ? 0 : cut % (items.length + 1));
      const before = groupByIssue(loaded);
      const after = groupByIssue(items);
      assert.deepEqual(
        after.slice(0, before.length).map((g) => g.issue.id),
        before.map((g) => g.issue.id),
      );
      for (const [i, g] of before.entries())
        assert.deepEqual(
          after[i]!.events.slice(0, g.events.length),
          g.events,
          "the first page's events first",
        );
    }),
    { numRuns: RUNS },
  );
});

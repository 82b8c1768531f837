// test-runner: any database
// The inbox's rows (web/src/lib/inbox-groups.ts, issue 26): one per issue or
// project, in the order of each one's newest event, with its unread count; an
// issue and a project with the same id are two rows; and loading a further
// page (docs/ui.md, "Grouping and paging") never splits a row nor reorders
// the rows already shown.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { groupInbox, groupKeyOf } from '../web/src/lib/inbox-groups.js';

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 12) * 10;

/** A newest-first inbox: notifications about a few issues and projects (ids shared between them), read or not. */
const inbox = fc
  .array(
    fc.record({
      about: fc.constantFrom('A', 'B', 'C', 'D', 'E'),
      project: fc.boolean(),
      read: fc.boolean(),
    }),
    { maxLength: 60 },
  )
  .map((rows) =>
    rows.map((r, i) => ({
      id: `n${i}`,
      issue: r.project ? null : { id: r.about },
      project: r.project ? { id: r.about } : null,
      readAt: r.read ? '2026-01-01' : null,
    })),
  );

test('one row per issue or project, ordered by newest event, holding its events in order with their unread count', () => {
  fc.assert(
    fc.property(inbox, (items) => {
      const groups = groupInbox(items);
      assert.equal(new Set(groups.map((g) => g.key)).size, groups.length, 'no issue or project twice');
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
        assert.ok(g.events.every((n) => groupKeyOf(n) === g.key));
        assert.equal(g.key, groupKeyOf(g), 'the row names its issue or project');
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
      const before = groupInbox(loaded);
      const after = groupInbox(items);
      assert.deepEqual(
        after.slice(0, before.length).map((g) => g.key),
        before.map((g) => g.key),
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

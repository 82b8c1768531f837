// test-runner: any database
// The UI's dates (web/src/lib/dates.ts) read as the locale's own calls write them, and a day
// (YYYY-MM-DD) is the reader's day, not the day before west of Greenwich.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { dateTime, fullDate, shortDate, today } from '../web/src/lib/dates.js';

const instant = fc
  .date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2090-01-01T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString());

test('instants read as toLocale…String writes them', () => {
  fc.assert(
    fc.property(instant, (iso) => {
      const d = new Date(iso);
      assert.equal(shortDate(iso), d.toLocaleDateString(undefined, { month: 'short', day: 'numeric' }));
      assert.equal(fullDate(iso), d.toLocaleDateString());
      assert.equal(dateTime(iso), d.toLocaleString());
    }),
  );
});

test("a due date is the reader's day, and today is written as one", () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 28 }), fc.integer({ min: 1, max: 12 }), (day, month) => {
      const d = `2026-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
      assert.equal(
        shortDate(d),
        new Date(2026, month - 1, day).toLocaleDateString(undefined, { month: 'short', day: 'numeric' }),
      );
    }),
  );
  assert.match(today(), /^\d{4}-\d{2}-\d{2}$/);
  const now = new Date();
  assert.equal(
    today(),
    `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`,
  );
  assert.equal(shortDate(null), '');
});

// The roadmap's axis (web/src/lib/timeline-scale.ts): a day and its pixel
// agree both ways at every zoom, a date survives the trip through its day
// number, and ticks fall on Mondays, months' and quarters' first days.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  dayAt,
  dayOf,
  daysIn,
  isoOf,
  PX_PER_DAY,
  scaleFor,
  ticksOf,
  widthOf,
  xOf,
  ZOOMS,
} from '../web/src/lib/timeline-scale.js';

// 1900-01-01 .. 2199-12-31 as day numbers.
const dayArb = fc.integer({ min: -25_567, max: 83_237 });
const zoomArb = fc.constantFrom(...ZOOMS);
const scaleArb = fc
  .record({ zoom: zoomArb, days: fc.array(dayArb, { minLength: 1, maxLength: 20 }), today: dayArb })
  .map(({ zoom, days, today }) => ({ zoom, scale: scaleFor(zoom, days, today), days, today }));

test('a date reads back from its day number', () => {
  fc.assert(
    fc.property(dayArb, (d) => {
      const iso = isoOf(d);
      assert.match(iso, /^\d{4}-\d{2}-\d{2}$/);
      assert.equal(dayOf(iso), d);
    }),
  );
});

test('date to pixel and back: every pixel of a day maps to that day, and a pixel is within a day of its day', () => {
  fc.assert(
    fc.property(
      scaleArb,
      dayArb,
      // Fractions short of the next day's edge by more than rounding (a pixel is never finer).
      fc.double({ min: 0, max: 0.999, noNaN: true }),
      (s, d, f) => {
        const { scale } = s;
        const x = xOf(scale, d) + f * scale.pxPerDay;
        assert.equal(dayAt(scale, x), d, `x ${x} in day ${d}`);
        assert.equal(dayAt(scale, xOf(scale, d)), d);
        assert.ok(Math.abs(xOf(scale, dayAt(scale, x)) - x) < scale.pxPerDay);
      },
    ),
  );
});

test('a drag of whole days moves by those days; half a day or less rounds to the nearest', () => {
  fc.assert(
    fc.property(
      zoomArb,
      fc.integer({ min: -2000, max: 2000 }),
      fc.double({ min: -0.49, max: 0.49, noNaN: true }),
      (zoom, n, f) => {
        const scale = { origin: 0, end: 1, pxPerDay: PX_PER_DAY[zoom] };
        assert.equal(daysIn(scale, (n + f) * scale.pxPerDay), n);
      },
    ),
  );
});

test('the axis holds every given day and today, and starts on a tick', () => {
  fc.assert(
    fc.property(scaleArb, ({ zoom, scale, days, today }) => {
      for (const d of [...days, today]) {
        assert.ok(d >= scale.origin && d < scale.end, `${d} in [${scale.origin}, ${scale.end})`);
        assert.ok(xOf(scale, d) >= 0 && xOf(scale, d) < widthOf(scale));
      }
      const ticks = ticksOf(zoom, scale);
      assert.equal(ticks[0]?.day, scale.origin);
      for (const t of ticks) {
        const date = new Date(t.day * 86_400_000);
        if (zoom === 'week') assert.equal(date.getUTCDay(), 1, 'a Monday');
        else assert.equal(date.getUTCDate(), 1, 'the first of a month');
        if (zoom === 'quarter' && t.major) assert.equal(date.getUTCMonth() % 3, 0);
      }
    }),
    { numRuns: 200 },
  );
});

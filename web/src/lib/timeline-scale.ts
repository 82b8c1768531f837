// The roadmap's time axis, import-free (test/web-timeline-scale.test.ts checks it).
// A day is an integer, days since 1970-01-01 counted in UTC, so no time zone or
// daylight-saving change moves a bar; x = (day - origin) * pxPerDay, and a
// day's column is [x(day), x(day + 1)).

export const ZOOMS = ['week', 'month', 'quarter'] as const;
export type Zoom = (typeof ZOOMS)[number];

/** Pixels per day at each zoom; each is exact in binary, so x and back lose nothing. */
export const PX_PER_DAY: Record<Zoom, number> = { week: 32, month: 8, quarter: 2.5 };

/** Days added before the first and after the last date, so there is room to drag. */
const PADDING: Record<Zoom, number> = { week: 21, month: 60, quarter: 180 };

const MS_PER_DAY = 86_400_000;

export interface Scale {
  /** The day at x = 0. */
  origin: number;
  /** The first day after the axis. */
  end: number;
  pxPerDay: number;
}

/** 'YYYY-MM-DD' to its day number. */
export function dayOf(iso: string): number {
  return Math.floor(Date.UTC(+iso.slice(0, 4), +iso.slice(5, 7) - 1, +iso.slice(8, 10)) / MS_PER_DAY);
}

/** A day number to 'YYYY-MM-DD', the API's form of a date. */
export const isoOf = (day: number): string => new Date(day * MS_PER_DAY).toISOString().slice(0, 10);

/** The left edge of a day's column. */
export const xOf = (s: Scale, day: number): number => (day - s.origin) * s.pxPerDay;

/** The day whose column holds x. */
export const dayAt = (s: Scale, x: number): number => s.origin + Math.floor(x / s.pxPerDay);

/** A drag of dx pixels as whole days (the nearest; never -0, which would read as a move). */
export const daysIn = (s: Scale, dx: number): number => Math.round(dx / s.pxPerDay) || 0;

export const widthOf = (s: Scale): number => (s.end - s.origin) * s.pxPerDay;

/** The axis for these days (and today), starting on a tick so the first label is whole. */
export function scaleFor(zoom: Zoom, days: readonly number[], today: number): Scale {
  let lo = today;
  let hi = today;
  for (const d of days) {
    if (d < lo) lo = d;
    if (d > hi) hi = d;
  }
  const origin = tickOnOrBefore(zoom, lo - PADDING[zoom]);
  return { origin, end: hi + PADDING[zoom] + 1, pxPerDay: PX_PER_DAY[zoom] };
}

const ymd = (day: number) => {
  const d = new Date(day * MS_PER_DAY);
  return { y: d.getUTCFullYear(), m: d.getUTCMonth(), wd: (d.getUTCDay() + 6) % 7 };
};
const firstOf = (y: number, m: number) => Math.floor(Date.UTC(y, m, 1) / MS_PER_DAY);

/** Where each zoom's ticks fall: Mondays, first days of months, first days of quarters. */
function tickOnOrBefore(zoom: Zoom, day: number): number {
  const { y, m, wd } = ymd(day);
  if (zoom === 'week') return day - wd;
  return firstOf(y, zoom === 'month' ? m : m - (m % 3));
}

/** The axis's ticks, each a day: weeks, months or quarters (with their months as minor ticks). */
export function ticksOf(zoom: Zoom, s: Scale): { day: number; major: boolean }[] {
  const out: { day: number; major: boolean }[] = [];
  if (zoom === 'week') {
    for (let d = tickOnOrBefore('week', s.origin); d < s.end; d += 7) out.push({ day: d, major: true });
    return out;
  }
  let { y, m } = ymd(s.origin);
  for (let d = firstOf(y, m); d < s.end; d = firstOf(y, m)) {
    if (d >= s.origin) out.push({ day: d, major: zoom === 'month' || m % 3 === 0 });
    m += 1;
    if (m === 12) {
      m = 0;
      y += 1;
    }
  }
  return out;
}

// Where automatic cycles fall: each starts at midnight, in the team's time
// zone, on the team's start day, lasts `duration` weeks, and the next starts
// `cooldown` weeks after it ends (then on the first start day from there, in
// case the settings changed in between). Pure date arithmetic, so the worker
// (automation.ts) and its tests agree on every date.

const DAY = 86_400_000;

export interface CyclePlan {
  /** Weeks per cycle. */
  duration: number;
  /** Weeks between a cycle's end and the next one's start. */
  cooldown: number;
  /** 0 Sunday .. 6 Saturday. */
  startDay: number;
  /** IANA time zone name. */
  timezone: string;
}

export interface Span {
  start: Date;
  end: Date;
}

const partsFormat = new Map<string, Intl.DateTimeFormat>();
function formatIn(timezone: string): Intl.DateTimeFormat {
  let f = partsFormat.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    partsFormat.set(timezone, f);
  }
  return f;
}

/** The wall clock of `t` in `timezone`, read as if it were UTC (milliseconds). */
function wallClock(t: number, timezone: string): number {
  const p: Record<string, number> = {};
  for (const part of formatIn(timezone).formatToParts(new Date(t))) {
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  }
  return Date.UTC(p['year']!, p['month']! - 1, p['day']!, p['hour']!, p['minute']!, p['second']!);
}

/** Days since 1970-01-01 of `t`'s local date in `timezone`. */
function localDay(t: number, timezone: string): number {
  return Math.floor(wallClock(t, timezone) / DAY);
}

/** The instant of local midnight starting day `day` in `timezone` (DST-safe). */
function midnight(day: number, timezone: string): number {
  const wall = day * DAY;
  let t = wall - (wallClock(wall, timezone) - wall);
  const again = wall - (wallClock(t, timezone) - t);
  if (again !== t) t = again;
  return t;
}

const mod7 = (n: number) => ((n % 7) + 7) % 7;
/** Weekday of a day number: 1970-01-01 was a Thursday (4). */
const weekday = (day: number) => mod7(day + 4);

/** The cycle that starts on local day `day`. */
function spanFrom(day: number, plan: CyclePlan): Span {
  return {
    start: new Date(midnight(day, plan.timezone)),
    end: new Date(midnight(day + 7 * plan.duration, plan.timezone)),
  };
}

/**
 * The next cycle to plan after one ending at `lastEnd` (null: the team has
 * none), at `now`. With no cycle, or when the next by the rules would already
 * be over (cycles were off for a while), it is the one running now: the one
 * that started on the last start day.
 */
export function nextSpan(plan: CyclePlan, lastEnd: Date | null, now: Date): Span {
  const today = localDay(now.getTime(), plan.timezone);
  // The last start day on or before today, and the first on or after `earliest`.
  const current = today - mod7(weekday(today) - plan.startDay);
  if (lastEnd === null) return spanFrom(current, plan);
  const earliest = lastEnd.getTime() + plan.cooldown * 7 * DAY;
  let day = localDay(earliest, plan.timezone);
  if (midnight(day, plan.timezone) < earliest) day += 1;
  day += mod7(plan.startDay - weekday(day));
  const next = spanFrom(day, plan);
  if (next.end <= now && current > day) return spanFrom(current, plan);
  return next;
}

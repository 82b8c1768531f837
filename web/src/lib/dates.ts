// Dates as the reader's locale writes them. Each format is built once: a
// `toLocale…String` call with options builds a new Intl.DateTimeFormat each
// time, which was 55 ms of an issue list's first render. And only when first
// used: the eight built as the app's script started were about 24 ms of every
// page load, most of them for screens the load does not show.

/** A format built on its first use, then kept. */
function lazyFormat(locale: string | undefined, options?: Intl.DateTimeFormatOptions) {
  let built: Intl.DateTimeFormat | undefined;
  return {
    format: (d: Date) => {
      built ??= new Intl.DateTimeFormat(locale, options);
      return built.format(d);
    },
  };
}

const SHORT = lazyFormat(undefined, { month: 'short', day: 'numeric' });
const DATE = lazyFormat(undefined);
const DATE_TIME = lazyFormat(undefined, {
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});
const WEEKDAY_TIME = lazyFormat(undefined, {
  weekday: 'short',
  hour: 'numeric',
  minute: '2-digit',
});
/** en-CA writes a day as YYYY-MM-DD, the API's form of a due date. */
const ISO_DAY = lazyFormat('en-CA');

/** A day (YYYY-MM-DD, the reader's midnight) or an instant (full ISO time). */
const parse = (d: string) => new Date(d.length === 10 ? `${d}T00:00:00` : d);

/** "Nov 27". */
export const shortDate = (d: string | null) => (d ? SHORT.format(parse(d)) : '');
/** The locale's date, as `toLocaleDateString()` writes it. */
export const fullDate = (d: string) => DATE.format(parse(d));
/** The locale's date and time, as `toLocaleString()` writes it. */
export const dateTime = (d: string) => DATE_TIME.format(parse(d));
/** Today in the reader's own time zone, as a due date is written (YYYY-MM-DD). */
export const today = () => ISO_DAY.format(new Date());
/** "Mon 9:00 AM": when a snooze ends. */
export const weekdayTime = (d: Date) => WEEKDAY_TIME.format(d);

const MONTH = lazyFormat(undefined, { month: 'short' });
const MONTH_YEAR = lazyFormat(undefined, { month: 'short', year: 'numeric' });
/** A timeline's month tick: "Nov", or "Jan 2027" where the year changes or the axis starts. */
export const monthLabel = (d: string, withYear: boolean) => (withYear ? MONTH_YEAR : MONTH).format(parse(d));
/** A timeline's quarter tick: "Q4 2026" (quarters of the calendar year). */
export const quarterLabel = (d: string) => `Q${Math.floor((+d.slice(5, 7) - 1) / 3) + 1} ${d.slice(0, 4)}`;

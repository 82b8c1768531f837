// "3 hours ago", with the exact time on hover and for assistive technology.
import { dateTime } from '../lib/dates';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];
const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

export function relative(iso: string, now = Date.now()): string {
  const seconds = (new Date(iso).getTime() - now) / 1000;
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return 'just now';
}

export function RelativeTime({ iso }: { iso: string }) {
  const exact = dateTime(iso);
  return (
    <time dateTime={iso} title={exact}>
      {relative(iso)}
    </time>
  );
}

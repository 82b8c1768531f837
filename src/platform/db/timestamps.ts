// A faster reader for timestamptz values. PostgreSQL prints them as
// `2026-11-21 22:19:30.123456+00` when the session runs in UTC; every row of a
// list carries several, and reading that shape with character arithmetic
// instead of a regular expression takes a visible share off a page's cost.
// Any other shape (another offset, BC, infinity) goes to the fallback parser.

const ZERO = 48;

function digits(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = s.charCodeAt(i) - ZERO;
    if (d < 0 || d > 9) return Number.NaN;
    n = n * 10 + d;
  }
  return n;
}

export function timestamptzParser(fallback: (text: string) => unknown): (text: string) => unknown {
  return (s) => {
    const n = s.length;
    // YYYY-MM-DD HH:MM:SS[.ffffff]+00
    if (
      n < 22 ||
      s.charCodeAt(4) !== 45 ||
      s.charCodeAt(7) !== 45 ||
      s.charCodeAt(10) !== 32 ||
      s.charCodeAt(13) !== 58 ||
      s.charCodeAt(16) !== 58 ||
      s.charCodeAt(n - 3) !== 43 ||
      s.charCodeAt(n - 2) !== ZERO ||
      s.charCodeAt(n - 1) !== ZERO
    ) {
      return fallback(s);
    }
    let ms = 0;
    if (n > 22) {
      if (s.charCodeAt(19) !== 46) return fallback(s);
      // Milliseconds: the first three fraction digits (a Date holds no more).
      const end = Math.min(n - 3, 23);
      ms = digits(s, 20, end) * 10 ** (23 - end);
      if (n - 3 > 20 + 6 || Number.isNaN(digits(s, 20, n - 3))) return fallback(s);
    }
    const year = digits(s, 0, 4);
    if (!(year >= 1000)) return fallback(s);
    const t = Date.UTC(
      year,
      digits(s, 5, 7) - 1,
      digits(s, 8, 10),
      digits(s, 11, 13),
      digits(s, 14, 16),
      digits(s, 17, 19),
      ms,
    );
    return Number.isNaN(t) ? fallback(s) : new Date(t);
  };
}

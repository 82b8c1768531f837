// The answer is serialised here, under a ceiling: a response over
// MAX_RESPONSE_BYTES is replaced by an error instead of being sent. A
// counting walk with an early stop refuses a huge answer before any JSON text
// is built (its count never exceeds the real size: it ignores escapes and
// counts characters, each at least one byte); an answer that passes the walk
// is at most a few times the ceiling once serialised, and its exact UTF-8
// length decides.

/** Serialised JSON bytes one GraphQL answer may take. */
export const MAX_RESPONSE_BYTES = 5 * 1024 * 1024;

/** The JSON text of `value`, or undefined when it would be over `limit` bytes. */
export function serialiseWithin(value: unknown, limit = MAX_RESPONSE_BYTES): string | undefined {
  if (lowerBound(value, limit) > limit) return undefined;
  const text = JSON.stringify(value);
  return Buffer.byteLength(text) > limit ? undefined : text;
}

/** A lower bound of the JSON length of `value`; stops counting once over `limit`. */
function lowerBound(value: unknown, limit: number): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && total <= limit) {
    const v = stack.pop();
    if (typeof v === 'string') total += v.length + 2;
    else if (typeof v === 'number') total += 1;
    else if (v === null || typeof v !== 'object')
      total += 4; // null, true, false (and undefined in a list: null)
    else if (Array.isArray(v)) {
      total += 1 + v.length;
      for (const item of v) stack.push(item);
    } else {
      total += 1;
      for (const [k, item] of Object.entries(v)) {
        if (item === undefined) continue;
        total += k.length + 4;
        stack.push(item);
      }
    }
  }
  return total;
}

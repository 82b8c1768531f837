// JSON text built in SQL. Every expression here is `text` holding one JSON
// value (never SQL NULL), so objects and arrays are plain concatenation: keys
// keep the order the caller asked for (json_build_object stops at 50 keys,
// jsonb reorders them), and nothing is parsed and printed again on the way
// out. The formats are the API's: timestamps in UTC with milliseconds and Z
// (as Date.toISOString prints them), dates as YYYY-MM-DD.
import { type RawBuilder, sql } from 'kysely';

export type Sql = RawBuilder<unknown>;

/** A SQL string literal; only ever given names from a parsed document or our own code. */
export const literal = (s: string) => sql.raw(`'${s.replace(/'/g, "''")}'`);

/** Any SQL value as JSON text (null -> null). */
export const json = (value: Sql) => sql`coalesce(to_json(${value})::text, 'null')`;

/** A timestamptz as the API prints it: 2026-11-26T04:02:05.123Z (milliseconds truncated, as a JS Date holds them). */
export const timestamp = (value: Sql) =>
  json(sql`to_char(${value} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/** A JSON value given as text by JavaScript (a constant of the schema, a name). */
export const constant = (value: unknown) => literal(JSON.stringify(value));

/** An object from `[key, JSON text]` pairs, in their order. */
export function object(pairs: [string, Sql][]): Sql {
  if (!pairs.length) return literal('{}');
  const parts = pairs.map(
    ([key, value], i) => sql`${literal(`${i ? ',' : '{'}${JSON.stringify(key)}:`)} || ${value}`,
  );
  return sql`(${sql.join(parts, sql` || `)} || '}')`;
}

/**
 * A keyset cursor exactly as platform/list/order.ts encodes a timeKey's: base64url of
 * ["c"|"u", the sort timestamp to the microsecond in UTC, the id].
 */
export function cursor(key: 'createdAt' | 'updatedAt', sortColumn: Sql, id: Sql): Sql {
  const tag = key === 'createdAt' ? 'c' : 'u';
  const text = sql`${literal(`["${tag}","`)} || to_char(${sortColumn} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '","' || ${id}::text || '"]'`;
  // PostgreSQL's base64 wraps lines at 76 characters and pads; base64url does neither.
  return sql`translate(encode(convert_to(${text}, 'UTF8'), 'base64'), ${literal('+/=\n')}, '-_')`;
}

/**
 * The slug of a text as `modules/issues/present.ts` slugify makes it:
 * accents folded (NFKD, combining marks dropped), lower case, runs of other
 * characters as one dash, cut at a word end near `max`.
 */
export function slug(text: Sql, max = 40): Sql {
  const folded = sql`trim(both '-' from regexp_replace(lower(regexp_replace(normalize(coalesce(${text}, ''), NFKD), ${literal('[\u0300-\u036f]')}, '', 'g')), '[^a-z0-9]+', '-', 'g'))`;
  // Past `max`: up to the last dash within max + 1 characters if it lies beyond half, else max characters.
  return sql`(select case when length(z.s) <= ${sql.lit(max)} then z.s
      else rtrim(case when z.dash > ${sql.lit(max / 2)} then left(z.s, z.dash) else left(z.s, ${sql.lit(max)}) end, '-') end
    from (select y.s, ${sql.lit(max + 1)} - coalesce(nullif(strpos(reverse(left(y.s, ${sql.lit(max + 1)})), '-'), 0), ${sql.lit(max + 2)}) as dash
      from (select ${folded} as s) y) z)`;
}

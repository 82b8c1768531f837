// JSON text built in SQL. Every expression here is `text` holding one JSON
// value (never SQL NULL), so objects and arrays are plain concatenation: keys
// keep the order the caller asked for (json_build_object stops at 50 keys,
// jsonb reorders them), and nothing is parsed and printed again on the way
// out. The formats are the API's: timestamps in UTC with milliseconds and Z
// (as Date.toISOString prints them), dates as YYYY-MM-DD.
import { type RawBuilder, sql } from 'kysely';

export type Sql = RawBuilder<unknown>;

/** The text of each literal below, so that concat can join neighbouring ones where they are built. */
const literalText = new WeakMap<Sql, string>();

/** A SQL string literal; only ever given names from a parsed document or our own code. */
export function literal(s: string): Sql {
  const raw = sql.raw(`'${s.replace(/'/g, "''")}'`);
  literalText.set(raw, s);
  return raw;
}

/**
 * Text pieces joined in order. Neighbouring literals become one, and the
 * rest is joined as a balanced tree: a chain `a || b || c ...` copies the
 * whole left side at every step, quadratic in the pieces (an object of 150
 * fields copied ~250 kB per row), where a tree copies each byte once per level.
 */
export function concat(pieces: (string | Sql)[]): Sql {
  const merged: (string | Sql)[] = [];
  for (const piece of pieces) {
    const text = typeof piece === 'string' ? piece : literalText.get(piece);
    const last = merged[merged.length - 1];
    if (text !== undefined && typeof last === 'string') merged[merged.length - 1] = last + text;
    else merged.push(text ?? piece);
  }
  const tree = (from: number, to: number): Sql => {
    if (to - from === 1) {
      const piece = merged[from]!;
      return typeof piece === 'string' ? literal(piece) : piece;
    }
    const mid = (from + to) >> 1;
    return sql`(${tree(from, mid)} || ${tree(mid, to)})`;
  };
  return merged.length ? tree(0, merged.length) : literal('');
}

/** Any SQL value as JSON text (null -> null). */
export const json = (value: Sql) => sql`coalesce(to_json(${value})::text, 'null')`;

// Cheaper forms for the types whose text needs no escaping: to_json goes
// through the JSON encoder and copies the text again, and a page of 50
// issues has some 600 of these values (docs/benchmarks.md, "JSON in SQL").
/** A uuid as JSON text: its printed form is already a valid JSON string body. */
export const uuid = (value: Sql) => sql`coalesce('"' || ${value}::text || '"', 'null')`;
/** An integer as JSON text. */
export const integer = (value: Sql) => sql`coalesce(${value}::text, 'null')`;

/** A timestamptz as the API prints it: 2026-11-26T04:02:05.123Z (milliseconds truncated, as a JS Date holds them). */
export const timestamp = (value: Sql) =>
  json(sql`to_char(${value} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/** A JSON value given as text by JavaScript (a constant of the schema, a name). */
export const constant = (value: unknown) => literal(JSON.stringify(value));

/** An object from `[key, JSON text]` pairs, in their order. */
export function object(pairs: [string, Sql][]): Sql {
  if (!pairs.length) return literal('{}');
  return concat([
    ...pairs.flatMap(([key, value], i) => [`${i ? ',' : '{'}${JSON.stringify(key)}:`, value]),
    '}',
  ]);
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

/** Accents folded (NFKD, combining marks dropped), lower case, runs of other characters as one dash, no dash at either end. */
const fold = (text: Sql) =>
  sql`trim(both '-' from regexp_replace(lower(regexp_replace(normalize(coalesce(${text}, ''), NFKD), ${literal('[\u0300-\u036f]')}, '', 'g')), '[^a-z0-9]+', '-', 'g'))`;

/** A project's name in its URL as `modules/projects/present.ts` slugify makes it: folded, cut at 60, "project" when empty. */
export const projectSlug = (name: Sql) =>
  sql`coalesce(nullif(rtrim(left(${fold(name)}, 60), '-'), ''), 'project')`;

/**
 * The slug of a text as modules/issues/fields.ts slugify makes it, by the SQL
 * function of migration 0031 (issue titles and display names keep theirs in
 * a column: title_slug, name_slug).
 */
export const slug = (text: Sql, max = 40): Sql => sql`slug(${text}, ${sql.lit(max)})`;

// Keyset cursors for lists sorted by a column that may repeat and may be empty
// (an issue's priority or due date): the order is `column <dir> nulls last`,
// then newest first (created_at desc, id desc), and a cursor holds all three
// values of the last row. Opaque base64url, like the timestamp cursors.
import { type RawBuilder, sql } from 'kysely';
import { invalidField } from '../errors.js';

type Sql = RawBuilder<unknown>;

export type ColumnKey = 'priority' | 'dueDate';

export interface ColumnCursor {
  key: ColumnKey;
  /** The column's value as text (an integer, or YYYY-MM-DD), null when empty. */
  value: string | null;
  /** created_at in UTC to the microsecond, as positionText formats it. */
  createdAt: string;
  id: string;
}

const TAG: Record<ColumnKey, string> = { priority: 'p', dueDate: 'd' };
const VALUE: Record<ColumnKey, RegExp> = { priority: /^-?\d{1,9}$/, dueDate: /^\d{4}-\d{2}-\d{2}$/ };
const CAST: Record<ColumnKey, string> = { priority: 'int', dueDate: 'date' };

export function encodeColumnCursor(c: ColumnCursor): string {
  return Buffer.from(JSON.stringify([TAG[c.key], c.value, c.createdAt, c.id])).toString('base64url');
}

export function decodeColumnCursor(cursor: string, key: ColumnKey, field: string): ColumnCursor {
  try {
    const p: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(p) &&
      p.length === 4 &&
      p[0] === TAG[key] &&
      (p[1] === null || (typeof p[1] === 'string' && VALUE[key].test(p[1]))) &&
      typeof p[2] === 'string' &&
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(p[2]) &&
      typeof p[3] === 'string' &&
      /^[0-9a-f-]{36}$/i.test(p[3])
    ) {
      return { key, value: p[1], createdAt: p[2], id: p[3] };
    }
  } catch {
    // fall through
  }
  throw invalidField(field, `is not a cursor this list handed out for sort ${key}`);
}

/**
 * Rows strictly after the cursor in `column dir nulls last, createdAt desc,
 * id desc`: a later value, the same value and older, or (past every value)
 * an empty one; after an empty value, only older empty ones.
 */
export function pastColumnPosition(
  column: Sql,
  createdAt: Sql,
  id: Sql,
  dir: 'asc' | 'desc',
  c: ColumnCursor,
): Sql {
  const older = sql`(${createdAt}, ${id}) < (${c.createdAt}::timestamptz, ${c.id}::uuid)`;
  if (c.value === null) return sql`(${column} is null and ${older})`;
  const v = sql`${c.value}::${sql.raw(CAST[c.key])}`;
  const later = sql`${column} ${sql.raw(dir === 'asc' ? '>' : '<')} ${v}`;
  return sql`(${later} or (${column} = ${v} and ${older}) or ${column} is null)`;
}

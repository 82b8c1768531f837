// Keyset cursors: an opaque base64url of the sort key, the sort value (the
// timestamp in UTC with microseconds, as SQL formats it) and the row id.
// Stable under inserts: a cursor names a position, not an offset.
import { invalidField } from '../errors.js';

export type SortKey = 'createdAt' | 'updatedAt';

export interface CursorValue {
  key: SortKey;
  value: string;
  id: string;
}

export function encodeCursor(c: CursorValue): string {
  return Buffer.from(JSON.stringify([c.key === 'createdAt' ? 'c' : 'u', c.value, c.id])).toString(
    'base64url',
  );
}

export function decodeCursor(cursor: string, field: string): CursorValue {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.length === 3 &&
      (parsed[0] === 'c' || parsed[0] === 'u') &&
      typeof parsed[1] === 'string' &&
      typeof parsed[2] === 'string' &&
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(parsed[1]) &&
      /^[0-9a-f-]{36}$/i.test(parsed[2])
    ) {
      return { key: parsed[0] === 'c' ? 'createdAt' : 'updatedAt', value: parsed[1], id: parsed[2] };
    }
  } catch {
    // fall through
  }
  throw invalidField(field, 'is not a cursor this list handed out');
}

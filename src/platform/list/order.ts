// Sort keys and the one cursor format. A sort key is a list of parts (a
// column, its type and direction, whether it may be empty) ending in a unique
// column, so every row has one position. A cursor is that position: base64url
// of JSON `[tag, value of each part as text]`, e.g. ["c", createdAt, id] or
// ["p", priority, createdAt, id]. Cursors handed out before the runner had
// this shape, so they still work.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { invalidField } from '../errors.js';

type Sql = RawBuilder<unknown>;

export type PartType = 'timestamptz' | 'int' | 'bigint' | 'float' | 'date' | 'uuid' | 'text';

export interface SortPart {
  /** SQL of the part over the listed row. */
  sql: Sql;
  type: PartType;
  dir: 'asc' | 'desc';
  /** Empty values sort after every value (nulls last) in the forward order. */
  nullable?: boolean;
}

export interface SortKey<N extends string = string> {
  name: N;
  /** The cursor's first element; unique among the keys a list accepts. */
  tag: string;
  /** The order, ending in a unique column. */
  parts: SortPart[];
}

/** A row's position in a sort key: each part's value as text (null when empty). */
export interface Position {
  key: string;
  values: (string | null)[];
}

const FORMAT: Record<PartType, RegExp> = {
  timestamptz: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/,
  int: /^-?\d{1,9}$/,
  bigint: /^-?\d{1,18}$/,
  // PostgreSQL's shortest exact text of a double precision (it reads back the same).
  float: /^-?(\d+(\.\d+)?(e[+-]?\d+)?|Infinity|NaN)$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  text: /^[\s\S]{0,1000}$/,
};

/** A timestamp as cursors hold it: UTC to the microsecond, fixed width. */
export const positionText = (column: Sql) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** SQL of a part's value as a cursor holds it. */
export function partText(part: SortPart): Sql {
  switch (part.type) {
    case 'timestamptz':
      return positionText(part.sql);
    case 'date':
      return sql`to_char(${part.sql}, 'YYYY-MM-DD')`;
    case 'text':
      return part.sql;
    default:
      return sql`${part.sql}::text`;
  }
}

export type TimeKey = 'createdAt' | 'updatedAt';
const TIME_COLUMN: Record<TimeKey, string> = { createdAt: 'created_at', updatedAt: 'updated_at' };

/** A timestamp key: (created_at|updated_at, id), both one way. */
export function timeKey<N extends TimeKey>(name: N, dir: 'asc' | 'desc', alias = 't'): SortKey<N> {
  return {
    name,
    tag: name === 'createdAt' ? 'c' : 'u',
    parts: [
      { sql: sql.ref(`${alias}.${TIME_COLUMN[name]}`), type: 'timestamptz', dir },
      { sql: sql.ref(`${alias}.id`), type: 'uuid', dir },
    ],
  };
}

/**
 * A key on a column that may repeat and may be empty (an issue's priority or
 * due date): the column (empty ones last), then newest first.
 */
export function columnKey<N extends string>(
  name: N,
  tag: string,
  column: Sql,
  type: PartType,
  dir: 'asc' | 'desc',
  alias = 't',
): SortKey<N> {
  return {
    name,
    tag,
    parts: [
      { sql: column, type, dir, nullable: true },
      { sql: sql.ref(`${alias}.created_at`), type: 'timestamptz', dir: 'desc' },
      { sql: sql.ref(`${alias}.id`), type: 'uuid', dir: 'desc' },
    ],
  };
}

/** A key of fixed parts (a manual order, a name), for lists with an order of their own. */
export const fixedKey = <N extends string>(name: N, tag: string, parts: SortPart[]): SortKey<N> => ({
  name,
  tag,
  parts,
});

export function encodeCursor(key: Pick<SortKey, 'tag'>, values: readonly (string | null)[]): string {
  return Buffer.from(JSON.stringify([key.tag, ...values])).toString('base64url');
}

/** A cursor's position in `key`, or a 400 naming `field`. */
export function decodeCursor(cursor: string, key: SortKey, field: string): Position {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || typeof parsed[0] !== 'string') {
    throw invalidField(field, 'is not a cursor this list handed out');
  }
  if (parsed[0] !== key.tag) throw invalidField(field, `was made for another order than ${key.name}`);
  const values = parsed.slice(1);
  const fits =
    values.length === key.parts.length &&
    key.parts.every((part, i) => {
      const v = values[i];
      return v === null ? part.nullable === true : typeof v === 'string' && FORMAT[part.type].test(v);
    });
  if (!fits) throw invalidField(field, `is not a cursor this list handed out for ${key.name}`);
  return { key: key.name, values: values as (string | null)[] };
}

/** The key read the other way (a backward page): every direction and the place of empty values flip. */
export function reversed<K extends SortKey>(key: K): K {
  return {
    ...key,
    parts: key.parts.map((p: Part) => ({ ...p, dir: p.dir === 'asc' ? 'desc' : 'asc', flipped: !p.flipped })),
  };
}

type Part = SortPart & { flipped?: boolean };
const nullsFirst = (p: Part) => p.nullable === true && p.flipped === true;

/** ORDER BY of a key. */
export function orderSql(key: SortKey): Sql {
  return sql.join(
    key.parts.map((p: Part) => {
      const nulls = p.nullable ? (nullsFirst(p) ? ' nulls first' : ' nulls last') : '';
      return sql`${p.sql} ${sql.raw(p.dir + nulls)}`;
    }),
  );
}

const CAST: Record<PartType, string> = {
  timestamptz: 'timestamptz',
  int: 'int',
  bigint: 'bigint',
  float: 'double precision',
  date: 'date',
  uuid: 'uuid',
  text: 'text',
};
const castValue = (p: SortPart, v: string) => sql`${v}::${sql.raw(CAST[p.type])}`;
const op = (p: SortPart) => sql.raw(p.dir === 'asc' ? '>' : '<');

/**
 * Rows strictly past a position in a key's order. Runs of parts that go one
 * way and are never empty compare as a row, `(created_at, id) < ($1, $2)`, so
 * an index on them serves the condition; an empty-able part expands.
 */
export function pastSql(key: SortKey, pos: Position): RawBuilder<SqlBool> {
  const parts = key.parts as Part[];
  const groups: { parts: Part[]; values: (string | null)[] }[] = [];
  parts.forEach((p, i) => {
    const last = groups[groups.length - 1];
    const joins = last && !p.nullable && !last.parts[0]!.nullable && last.parts[0]!.dir === p.dir;
    if (joins) {
      last.parts.push(p);
      last.values.push(pos.values[i]!);
    } else groups.push({ parts: [p], values: [pos.values[i]!] });
  });
  const past = (g: number): Sql => {
    const { parts: ps, values } = groups[g]!;
    const p = ps[0]!;
    let strictly: Sql | undefined;
    let equal: Sql;
    if (p.nullable) {
      const v = values[0]!;
      if (v === null) {
        strictly = nullsFirst(p) ? sql`${p.sql} is not null` : undefined;
        equal = sql`${p.sql} is null`;
      } else {
        const beyond = sql`${p.sql} ${op(p)} ${castValue(p, v)}`;
        strictly = nullsFirst(p) ? beyond : sql`(${beyond} or ${p.sql} is null)`;
        equal = sql`${p.sql} = ${castValue(p, v)}`;
      }
    } else {
      const cols = sql.join(ps.map((x) => x.sql));
      const vals = sql.join(ps.map((x, i) => castValue(x, values[i]!)));
      strictly = ps.length > 1 ? sql`(${cols}) ${op(p)} (${vals})` : sql`${cols} ${op(p)} ${vals}`;
      equal = ps.length > 1 ? sql`(${cols}) = (${vals})` : sql`${cols} = ${vals}`;
    }
    if (g === groups.length - 1) return strictly ?? sql`false`;
    const then = sql`(${equal} and ${past(g + 1)})`;
    return strictly ? sql`(${strictly} or ${then})` : then;
  };
  return past(0) as RawBuilder<SqlBool>;
}

/**
 * Rows past a cursor in a (timestamp, id) order over the given columns;
 * `desc` is newest first. For readers that keep their own statement
 * (platform/read/compile.ts).
 */
export const pastPosition = (column: Sql, id: Sql, cursor: Position, dir: 'asc' | 'desc') =>
  pastSql(
    {
      name: cursor.key,
      tag: '',
      parts: [
        { sql: column, type: 'timestamptz', dir },
        { sql: id, type: 'uuid', dir },
      ],
    },
    cursor,
  );

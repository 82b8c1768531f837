// SQL of export and restore (docs/migrate.md). Table and column names come
// from the database's own catalogue, never from an archive: a restore only
// touches tables the catalogue lists, and an archive's names are matched
// against them before use (restore.ts).
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';

export interface CatalogueTable {
  name: string;
  /** Stored columns, in table order (generated columns are left out: the database computes them). */
  columns: string[];
  generated: string[];
  /** Primary key columns with their SQL types, in key order. */
  primaryKey: { name: string; type: string }[];
  /** Other tables this one's foreign keys point at. */
  references: string[];
}

/** Every ordinary table of the current schema, with what export and restore need to know. */
export async function catalogueTables(db: Db): Promise<CatalogueTable[]> {
  const res = await sql<{
    name: string;
    columns: string[];
    generated: string[];
    pk_names: string[];
    pk_types: string[];
    refs: string[];
  }>`
    select c.relname::text as name,
      array(select a.attname::text from pg_attribute a
            where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
            order by a.attnum) as columns,
      array(select a.attname::text from pg_attribute a
            where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated <> ''
            order by a.attnum) as generated,
      array(select a.attname::text from pg_index i
              cross join lateral unnest(i.indkey) with ordinality k(attnum, n)
              join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
            where i.indrelid = c.oid and i.indisprimary order by k.n) as pk_names,
      array(select format_type(a.atttypid, a.atttypmod) from pg_index i
              cross join lateral unnest(i.indkey) with ordinality k(attnum, n)
              join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
            where i.indrelid = c.oid and i.indisprimary order by k.n) as pk_types,
      array(select distinct r.relname::text from pg_constraint f join pg_class r on r.oid = f.confrelid
            where f.conrelid = c.oid and f.contype = 'f' and f.confrelid <> c.oid) as refs
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind in ('r', 'p')
    order by c.relname`.execute(db);
  return res.rows.map((r) => ({
    name: r.name,
    columns: r.columns,
    generated: r.generated,
    primaryKey: r.pk_names.map((name, i) => ({ name, type: r.pk_types[i] as string })),
    references: r.refs,
  }));
}

export interface SequenceState {
  name: string;
  value: number;
  called: boolean;
}

/** Every sequence of the current schema with its position (read one by one: pg_sequences hides is_called). */
export async function sequenceStates(db: Db): Promise<SequenceState[]> {
  const out: SequenceState[] = [];
  for (const name of await sequenceNames(db)) {
    const s = await sql<{ last_value: number | string; is_called: boolean }>`
      select last_value, is_called from ${sql.id(name)}`.execute(db);
    const row = s.rows[0];
    if (row) out.push({ name, value: Number(row.last_value), called: row.is_called });
  }
  return out;
}

export async function sequenceNames(db: Db): Promise<string[]> {
  const res = await sql<{ name: string }>`
    select c.relname::text as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind = 'S' order by c.relname`.execute(db);
  return res.rows.map((r) => r.name);
}

export async function setSequence(db: Db, s: SequenceState): Promise<void> {
  await sql`select setval(${s.name}::text::regclass, ${s.value}::bigint, ${s.called}::boolean)`.execute(db);
}

/** The newest migration applied: an archive restores only into the same schema. */
export async function schemaVersion(db: Db): Promise<number> {
  const res = await sql<{ v: number | null }>`select max(version) as v from schema_migrations`.execute(db);
  return Number(res.rows[0]?.v ?? 0);
}

/** Bytes of lines PostgreSQL joins into one text of a page (a line longer than this goes alone). */
const PAGE_PIECE_BYTES = 32 * 1024;

/**
 * One keyset page of a table as NDJSON built by PostgreSQL (generated
 * columns removed): the page's rows ordered by primary key, after `after`
 * (the last key read, as text), as texts of about PAGE_PIECE_BYTES of whole
 * lines, each line ending in a newline; `last` is the page's last key.
 * Pieces rather than a string a row keep the objects a page makes few and
 * short-lived, and rather than one text a page keep each message under the
 * driver's read buffer, which a larger message makes it reallocate, doubling,
 * for every page (docs/benchmarks.md, "Import, export and restore").
 * Timestamps come out in the session's time zone: callers set UTC.
 */
export async function tablePage(
  db: Db,
  table: CatalogueTable,
  after: string[] | undefined,
  limit: number,
): Promise<{ pieces: string[]; rows: number; last: string[] } | undefined> {
  const keys = table.primaryKey.map((k) => sql.ref(`t.${k.name}`));
  const keyText = table.primaryKey.map((k, i) => sql`${sql.ref(`t.${k.name}`)}::text as ${sql.id(`k${i}`)}`);
  const lastKey = table.primaryKey.map(
    (_, i) => sql`(array_agg(${sql.ref(`s.k${i}`)} order by s.n desc))[1]`,
  );
  const where = after
    ? sql`where (${sql.join(keys)}) > (${sql.join(
        table.primaryKey.map((k, i) => sql`${after[i]}::${sql.raw(k.type)}`),
      )})`
    : sql``;
  // Work a background worker held at this moment (a webhook, mail or git delivery mid-attempt) goes
  // out released, its lease ending now: no worker of this installation runs where the archive is
  // restored, and a held lease would stop its queue (webhook deliveries go one at a time per
  // endpoint) until it ran out. The attempt count stays; every claim's `lease_until < now()` takes
  // it up at once, and exporting the restored database gives the same lines.
  const released = table.columns.includes('lease_until')
    ? sql` || jsonb_build_object('lease_until', case when t.lease_until > now() then now() else t.lease_until end)`
    : sql``;
  const res = await sql<{ piece: string; rows: number | string; last: string[] }>`
    with p as (
      select ((to_jsonb(t) - ${table.generated}::text[])${released})::text || E'\n' as line,
        ${sql.join(keyText)}, row_number() over (order by ${sql.join(keys)}) as n
      from ${sql.id(table.name)} t ${where}
      order by ${sql.join(keys)} limit ${limit}),
    s as (select p.*, (sum(octet_length(p.line)) over (order by p.n) - octet_length(p.line)) / ${PAGE_PIECE_BYTES} as piece
      from p)
    select string_agg(s.line, '' order by s.n) as piece, count(*) as rows, array[${sql.join(lastKey)}] as last
    from s group by s.piece order by s.piece`.execute(db);
  const final = res.rows[res.rows.length - 1];
  if (!final) return undefined;
  return {
    pieces: res.rows.map((r) => r.piece),
    rows: res.rows.reduce((sum, r) => sum + Number(r.rows), 0),
    last: final.last,
  };
}

/** Keyset page of complete files: where their bytes are and how many. */
export async function completeFilesPage(
  db: Db,
  afterId: string | undefined,
  limit: number,
): Promise<{ id: string; storage_key: string; size: number }[]> {
  let q = db
    .selectFrom('files')
    .select(['id', 'storage_key', 'size'])
    .where('status', '=', 'complete')
    .orderBy('id')
    .limit(limit);
  if (afterId) q = q.where('id', '>', afterId);
  return (await q.execute()).map((r) => ({ ...r, size: Number(r.size) }));
}

export async function setTimeZoneUtc(db: Db): Promise<void> {
  await sql`set local timezone = 'UTC'`.execute(db);
}

/** The first of these tables that holds a row, if any. */
export async function firstNonEmpty(db: Db, tables: string[]): Promise<string | undefined> {
  for (const t of tables) {
    const res = await sql<{ any: boolean }>`select exists (select 1 from ${sql.id(t)}) as any`.execute(db);
    if (res.rows[0]?.any) return t;
  }
  return undefined;
}

// Restore loads each table through a temporary staging table of JSON
// documents and then one INSERT ... SELECT: PostgreSQL checks a statement's
// foreign keys at its end, so rows that point at rows of the same table
// (sub-issues, replies, label groups) load in any order.
export async function createStage(db: Db): Promise<void> {
  await sql`create temporary table portability_stage (n bigserial, doc jsonb not null) on commit drop`.execute(
    db,
  );
}

/**
 * Stages NDJSON lines (no line holds a raw newline: JSON escapes it), sent as
 * their UTF-8 bytes as they are in the archive, without the last newline:
 * PostgreSQL splits them, so no string a line is made here.
 */
export async function stageLines(db: Db, ndjson: Uint8Array): Promise<void> {
  await sql`insert into portability_stage (doc)
    select l::jsonb from unnest(string_to_array(convert_from(${ndjson}::bytea, 'UTF8'), E'\n')) as l`.execute(
    db,
  );
}

/**
 * Moves the staged rows into the table. Its own triggers (search vectors,
 * issue counts, the audit log's guard, credential notifications) are off
 * while it loads: what they maintain comes in the archive as it was.
 */
export async function loadStaged(db: Db, table: CatalogueTable): Promise<number> {
  const cols = table.columns.map((c) => sql.id(c));
  const picked = table.columns.map((c) => sql.ref(`r.${c}`));
  await sql`alter table ${sql.id(table.name)} disable trigger user`.execute(db);
  const res = await sql`insert into ${sql.id(table.name)} (${sql.join(cols)}) overriding system value
    select ${sql.join(picked)} from portability_stage s
    cross join lateral jsonb_populate_record(null::${sql.id(table.name)}, s.doc) r
    order by s.n`.execute(db);
  await sql`alter table ${sql.id(table.name)} enable trigger user`.execute(db);
  await sql`truncate portability_stage`.execute(db);
  return Number(res.numAffectedRows ?? 0);
}

// Test databases reused across the files a test worker runs.
//
// A new copy of the template is dear: PGlite unpacks 29 MB into its
// in-memory file system, starts PostgreSQL and links its extensions (~0.6 s
// of CPU); PostgreSQL copies the template's files (and WAL-logs them) and
// later drops the copy's files again. A worker runs dozens of files. A copy a file has closed is
// instead put back as the template was: every table's rows deleted and the
// template's rows written again, sequences set back (~0.1 s). A copy whose
// schema a test changed (a column dropped, a table made) is not reused.

/** What the reset needs of a connection to the copy. */
export interface Session {
  query<R>(text: string, params?: unknown[]): Promise<R[]>;
  /** Several statements, no parameters. */
  exec(text: string): Promise<void>;
}

export interface Template {
  /** Every table's name and its writable columns (generated ones are computed again). */
  tables: { name: string; columns: string }[];
  /** The rows of the tables that have any, as json_agg text. */
  rows: { name: string; columns: string; json: string }[];
  /** Each sequence with its value (null: never used). */
  sequences: { name: string; value: string | null }[];
  /** A digest of the schema; a copy whose digest differs is not reused. */
  schema: string;
}

/** Dead rows pile up under delete; every so many resets a copy is vacuumed. */
const VACUUM_EVERY = 8;

/** Reads a copy that no test has written to yet. */
export async function readTemplate(s: Session): Promise<Template> {
  const tables = await s.query<{ name: string; columns: string }>(`
    select c.oid::regclass::text as name,
           string_agg(quote_ident(a.attname), ', ' order by a.attnum) filter (where a.attgenerated = '') as columns
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    where n.nspname = 'public' and c.relkind = 'r'
    group by c.oid
    order by 1`);
  const rows: Template['rows'] = [];
  for (const t of tables) {
    const [r] = await s.query<{ json: string | null }>(
      `select json_agg(x)::text as json from only ${t.name} x`,
    );
    if (r?.json) rows.push({ ...t, json: r.json });
  }
  const sequences = await s.query<{ name: string; value: string | null }>(
    `select format('%I.%I', schemaname, sequencename) as name, last_value::text as value from pg_sequences`,
  );
  return { tables, rows, sequences, schema: await schemaOf(s) };
}

/** The public schema's relations, columns, constraints, triggers and functions, as one digest. */
async function schemaOf(s: Session): Promise<string> {
  const [r] = await s.query<{ digest: string }>(`
    select md5(concat_ws('|',
      (select string_agg(c.relname || ':' || c.relkind::text, ',' order by c.relname)
         from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public'),
      (select string_agg(a.attrelid::regclass::text || '.' || a.attname || ':' || a.atttypid || ':' || a.attgenerated::text,
                         ',' order by a.attrelid::regclass::text, a.attnum)
         from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and a.attnum > 0 and not a.attisdropped),
      (select string_agg(conname, ',' order by conname)
         from pg_constraint o join pg_namespace n on n.oid = o.connamespace where n.nspname = 'public'),
      (select string_agg(tgname, ',' order by tgname) from pg_trigger where not tgisinternal),
      (select string_agg(proname, ',' order by proname)
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public')
    )) as digest`);
  return r!.digest;
}

/**
 * Puts a copy back as the template was; throws (and the copy is not to be
 * reused) when its schema changed. `resets` counts the copy's resets so far.
 */
export async function restore(s: Session, t: Template, resets: number): Promise<void> {
  if ((await schemaOf(s)) !== t.schema) throw new Error('the schema changed');
  await s.exec('begin');
  try {
    // Replica mode runs no triggers (foreign keys included): the tables are emptied and refilled
    // as they are, in any order, and the kept counts come back with their rows.
    await s.exec('set local session_replication_role = replica');
    await s.exec(t.tables.map((x) => `delete from only ${x.name};`).join('\n'));
    for (const x of t.rows)
      await s.query(
        `insert into ${x.name} (${x.columns}) overriding system value
         select ${x.columns} from json_populate_recordset(null::${x.name}, $1)`,
        [x.json],
      );
    await s.exec(
      t.sequences.map((q) => `select setval('${q.name}', ${q.value ?? 1}, ${q.value !== null});`).join('\n'),
    );
    await s.exec('commit');
  } catch (e) {
    await s.exec('rollback');
    throw e;
  }
  if ((resets + 1) % VACUUM_EVERY === 0) await s.exec('vacuum');
}

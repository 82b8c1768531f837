// Opens the database: PostgreSQL through `pg` when DATABASE_URL is set,
// otherwise embedded PGlite under DATA_DIR. Both speak the same SQL.
import fs from 'node:fs/promises';
import path from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { CallerSlots, slotsPerCaller } from './caller-slots.js';
import { MeteredPool, type StatementListener } from './metered-pool.js';
import { PreparingPool } from './prepared-pool.js';
import type { DB } from './tables.js';
import { timestamptzParser } from './timestamps.js';

export type Db = Kysely<DB>;

/** One round trip to the database (the readiness probe); throws when it cannot be reached. */
export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The embedded instance, when there is one (tests dump it as a template). */
  pglite?: import('@electric-sql/pglite').PGlite;
  /** PostgreSQL's connection string (LISTEN opens a connection of its own). */
  url?: string;
  /** Calls `listener` with every statement about to run; returns its removal. */
  onStatement(listener: StatementListener): () => void;
  close(): Promise<void>;
}

// Uniform value types on both drivers: int8 (counts, sequences) as JS numbers,
// DATE as the 'YYYY-MM-DD' string it is (not a Date at local midnight),
// timestamptz as a Date (through a fast path for the usual UTC shape).
const INT8 = 20;
const DATE = 1082;
const NUMERIC = 1700;
const TIMESTAMPTZ = 1184;
const parseInt8 = (v: string) => Number(v);
const keepString = (v: string) => v;
const parseTimestamptz = timestamptzParser(pg.types.getTypeParser(TIMESTAMPTZ, 'text'));

export interface OpenOptions {
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  /** Load an embedded database from a dumped data directory (tests). */
  loadDataDir?: Blob | undefined;
  /**
   * An embedded instance already open, used as it is; close() then leaves it
   * open for its owner (tests reuse one instance across files).
   */
  pglite?: import('@electric-sql/pglite').PGlite | undefined;
  poolSize?: number;
  /**
   * PostgreSQL's statement_timeout on every pooled connection, in ms (0: none).
   * PGlite cannot interrupt a statement; see db-time.ts.
   */
  statementTimeoutMs?: number | undefined;
}

function listen(pool: MeteredPool) {
  return (listener: StatementListener) => {
    pool.listeners.add(listener);
    return () => void pool.listeners.delete(listener);
  };
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const poolSize = opts.poolSize ?? 10;
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: poolSize,
      // A startup parameter of each connection: no extra round trip per checkout.
      ...(opts.statementTimeoutMs ? { statement_timeout: opts.statementTimeoutMs } : {}),
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
          if (oid === INT8) return parseInt8;
          if (oid === DATE || oid === NUMERIC) return keepString;
          if (oid === TIMESTAMPTZ && format !== 'binary') return parseTimestamptz;
          return pg.types.getTypeParser(oid, format as 'text');
        }) as typeof pg.types.getTypeParser,
      },
    });
    // A dropped idle connection must not crash the process; the pool replaces it.
    pool.on('error', () => {});
    const metered = new MeteredPool(new PreparingPool(pool), new CallerSlots(slotsPerCaller(poolSize)));
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: metered }) });
    return {
      db,
      kind: 'postgres',
      url: opts.databaseUrl,
      onStatement: listen(metered),
      close: () => db.destroy(),
    };
  }

  // Loaded only for the embedded database: PGlite's JavaScript is about 4 MB of heap that a
  // server on PostgreSQL never uses.
  const { PGlitePool } = await import('./pglite-pool.js');
  const pglite = opts.pglite ?? (await openPglite(opts));
  const owned = !opts.pglite;
  const metered = new MeteredPool(
    new PGlitePool(pglite, { closeOnEnd: owned }),
    new CallerSlots(slotsPerCaller(1)),
  );
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: metered }) });
  const close = async () => {
    await db.destroy();
    // Kysely ends a pool only if it ever connected; an unused PGlite would stay open.
    if (owned && !pglite.closed) await pglite.close();
  };
  return { db, kind: 'pglite', pglite, onStatement: listen(metered), close };
}

/** A new embedded instance: under DATA_DIR, or in memory from a dumped data directory. */
async function openPglite(opts: OpenOptions) {
  const { PGlite } = await import('@electric-sql/pglite');
  const { unaccent } = await import('@electric-sql/pglite/contrib/unaccent');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  let dataDir: string | undefined;
  if (opts.dataDir && !opts.loadDataDir) {
    dataDir = path.join(opts.dataDir, 'pgdata');
    await fs.mkdir(dataDir, { recursive: true });
  }
  return PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
    extensions: { unaccent, pg_trgm },
    // PGlite's buffer cache lives in the WASM heap and is all resident from
    // start-up: each MB here is a MB of the server's RSS. 48 MB was 16 MB less
    // than 64 with the same search speed; 40 MB kept the full-scale peak under
    // 350 MB with search unchanged, where 32 MB halved it (docs/benchmarks.md,
    // "Memory" and "Issue 25, third stop"). Pages not cached come from the OS
    // page cache.
    startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=40MB'],
    parsers: {
      [INT8]: parseInt8,
      [DATE]: keepString,
      [NUMERIC]: keepString,
      [TIMESTAMPTZ]: parseTimestamptz,
    },
  });
}

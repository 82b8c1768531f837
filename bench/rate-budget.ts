// Micro-benchmark of the GraphQL budget charge (src/graphql/rate-budget.ts):
// what the one upsert per request costs next to a bare `select 1` round trip,
// from one client and from 16 at once, on one user's row (every request
// queues on it) and spread over 1,000 users; on PostgreSQL also with the
// table logged, to weigh the choice of an unlogged table.
//
//   node --import tsx bench/rate-budget.ts                      (PGlite)
//   DATABASE_URL=postgres://... node --import tsx bench/rate-budget.ts
//
// PostgreSQL runs in a scratch database beside the given one, dropped after.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { RateBudget } from '../src/graphql/rate-budget.js';
import { type Database, openDatabase } from '../src/platform/db/database.js';
import { migrate } from '../src/platform/db/migrate.js';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 3);
const baseUrl = process.env['DATABASE_URL'];

async function scratch(): Promise<{ database: Database; drop(): Promise<void> }> {
  if (!baseUrl) {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trackway-bench-budget-'));
    const database = await openDatabase({ dataDir: dir });
    return { database, drop: () => fs.rm(dir, { recursive: true, force: true }) };
  }
  const name = `trackway_bench_budget_${process.pid}`;
  const admin = async (q: string) => {
    const c = new pg.Client({ connectionString: baseUrl });
    await c.connect();
    await c.query(q);
    await c.end();
  };
  await admin(`create database "${name}"`);
  const u = new URL(baseUrl);
  u.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: u.toString(), poolSize: 16 });
  return { database, drop: () => admin(`drop database if exists "${name}" with (force)`) };
}

/** Runs `op` from `clients` loops for SECONDS; returns calls per second and the mean latency in µs. */
async function measure(clients: number, op: (i: number) => Promise<unknown>) {
  const end = performance.now() + SECONDS * 1000;
  let calls = 0;
  let busy = 0;
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let i = c; performance.now() < end; i += clients) {
        const t0 = performance.now();
        await op(i);
        busy += performance.now() - t0;
        calls++;
      }
    }),
  );
  return { perSecond: Math.round(calls / SECONDS), meanUs: Math.round((busy / calls) * 1000) };
}

async function main() {
  const { database, drop } = await scratch();
  try {
    await migrate(database.db);
    const limits = { requests: 1e9, complexity: 1e12, windowMs: 3_600_000 };
    const budget = new RateBudget(database.db, limits);
    const one = randomUUID();
    const many = Array.from({ length: 1000 }, () => randomUUID());
    const rows: string[] = [];
    const run = async (label: string) => {
      for (const clients of database.kind === 'pglite' ? [1] : [1, 16]) {
        const ping = await measure(clients, () => sql`select 1`.execute(database.db));
        const hot = await measure(clients, () => budget.charge(one, 3));
        const spread = await measure(clients, (i) => budget.charge(many[i % many.length]!, 3));
        rows.push(
          `| ${database.kind} | ${label} | ${clients} | ${ping.perSecond} / ${ping.meanUs} µs | ${hot.perSecond} / ${hot.meanUs} µs | ${spread.perSecond} / ${spread.meanUs} µs |`,
        );
      }
    };
    await run('unlogged');
    if (database.kind === 'postgres') {
      await sql`alter table graphql_budget set logged`.execute(database.db);
      await run('logged');
    }
    console.log(
      `${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)}, ${SECONDS} s per cell`,
    );
    console.log('| Database | Table | Clients | `select 1` | charge, one user | charge, 1,000 users |');
    console.log('|---|---|---|---|---|---|');
    for (const r of rows) console.log(r);
  } finally {
    await database.close();
    await drop();
  }
}

await main();

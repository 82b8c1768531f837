// Webhook delivery benchmark: 1,000 issue changes through the issues service,
// timed until every one has been delivered (signed, recorded) to a local
// receiver. Runs on PGlite (temp data dir) or, with DATABASE_URL, on a scratch
// PostgreSQL database created beside the given one and dropped afterwards.
//
//   node --import tsx bench/webhooks.ts          (BENCH_SCALE=small: 100 changes)
//   import { runWebhooksBench } from './webhooks.js'  (for `npm run bench`)
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createIssue, updateIssue } from '../src/modules/issues/service.js';
import { createWebhook } from '../src/modules/webhooks/service.js';
import type { Actor } from '../src/platform/context.js';
import { openDatabase } from '../src/platform/db/database.js';
import { appendEvent } from '../src/platform/outbox.js';
import { createBenchDatabase } from './setup.js';

export interface WebhooksBenchResult {
  database: 'pglite' | 'postgres';
  changes: number;
  /** Time to commit all changes (each one its own transaction with its event). */
  produceMs: number;
  /** From the first change until the receiver had every delivery. */
  totalMs: number;
  /** From the last commit until the last delivery arrived. */
  drainMs: number;
  deliveriesPerSecond: number;
  /** Per-event latency from commit of the change to arrival, in ms. */
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** Attempts that failed (each costs a retry delay and holds the endpoint's queue). */
  failedAttempts: number;
  firstError: string | null;
  /** A backlog of the same size committed at once (one transaction): time until all delivered. */
  backlogDrainMs: number;
  backlogPerSecond: number;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? 0;
};

export async function runWebhooksBench(
  opts: { changes?: number; databaseUrl?: string | undefined; log?: (line: string) => void } = {},
): Promise<WebhooksBenchResult> {
  const changes = opts.changes ?? (process.env['BENCH_SCALE'] === 'small' ? 100 : 1000);
  const log = opts.log ?? (() => {});
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trackway-bench-webhooks-'));
  const scratch = opts.databaseUrl
    ? await createBenchDatabase(opts.databaseUrl, `trackway_bench_webhooks_${process.pid}`)
    : undefined;
  const config = loadConfig({
    ADMIN_EMAIL: 'bench@example.com',
    ADMIN_PASSWORD: 'bench-password',
    DATA_DIR: dataDir,
    DATABASE_URL: scratch?.url,
    WEBHOOK_ALLOW_PRIVATE: 'true',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://bench.test',
  });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const { app, ctx } = await buildApp({ config, database, logger: false });

  // The receiver: answers 200 at once and notes when each event first arrived.
  const arrived = new Map<string, number>();
  let expected = changes;
  let allArrived: () => void = () => {};
  let done = new Promise<void>((r) => {
    allArrived = r;
  });
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['x-service-delivery']);
      if (!arrived.has(id)) arrived.set(id, performance.now());
      res.end('ok');
      if (arrived.size >= expected) allArrived();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;

  try {
    const admin = await ctx.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', 'bench@example.com')
      .executeTakeFirstOrThrow();
    const actor: Actor = {
      id: admin.id,
      role: 'admin',
      name: admin.name,
      email: admin.email,
      via: 'session',
    };
    await createWebhook(ctx, actor, { url: `http://127.0.0.1:${port}/hook`, resourceTypes: ['issue'] });

    log(`webhooks bench: ${changes} issue changes on ${database.kind}`);
    const committedAt: number[] = [];
    const started = performance.now();
    // Half creates, half updates (each a real change, so each has an event), from a few concurrent writers.
    const writers = database.kind === 'postgres' ? 8 : 1;
    const ids: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: writers }, async () => {
        while (next < changes) {
          const i = next++;
          if (i % 2 === 0 || ids.length === 0) {
            const issue = await createIssue(ctx, actor, { title: `Bench ${i}` });
            ids.push(issue.id);
          } else {
            await updateIssue(ctx, actor, ids[i % ids.length]!, { title: `Bench ${i} (edited)` });
          }
          committedAt.push(performance.now());
          // Changes arrive as separate requests in real life; let I/O (the deliveries) run between them.
          await new Promise((r) => setImmediate(r));
        }
      }),
    );
    const produced = performance.now();
    const deadline = setTimeout(() => allArrived(), 600_000);
    await done;
    clearTimeout(deadline);
    const finished = performance.now();
    const failures = await ctx.db
      .selectFrom('webhook_attempts')
      .select(['error'])
      .where('error', 'is not', null)
      .orderBy('started_at')
      .execute();
    if (arrived.size < changes) {
      throw new Error(
        `only ${arrived.size} of ${changes} deliveries arrived; failures: ${JSON.stringify(failures)}`,
      );
    }
    // Arrival order matches commit order per endpoint, so pair them up in order.
    const arrivals = [...arrived.values()].sort((a, b) => a - b);
    committedAt.sort((a, b) => a - b);
    const latencies = arrivals.map((a, i) => a - (committedAt[i] ?? a));
    // Phase 2: pure delivery throughput, from a backlog committed in one go.
    expected = changes * 2;
    done = new Promise<void>((r) => {
      allArrived = r;
    });
    const backlogStart = performance.now();
    await ctx.db.transaction().execute(async (trx) => {
      for (let i = 0; i < changes; i++) {
        await appendEvent(trx, {
          type: 'issue',
          action: 'update',
          data: { id: `backlog-${i}` },
          actor: null,
        });
      }
    });
    const backlogCommitted = performance.now();
    const backlogDeadline = setTimeout(() => allArrived(), 600_000);
    await done;
    clearTimeout(backlogDeadline);
    const backlogDrainMs = performance.now() - backlogCommitted;
    if (arrived.size < expected)
      throw new Error(`backlog: only ${arrived.size - changes} of ${changes} arrived`);
    log(`backlog of ${changes} written in ${Math.round(backlogCommitted - backlogStart)} ms`);
    const result: WebhooksBenchResult = {
      database: database.kind,
      changes,
      produceMs: Math.round(produced - started),
      totalMs: Math.round(finished - started),
      drainMs: Math.round(finished - produced),
      deliveriesPerSecond: Math.round((changes / (finished - started)) * 1000),
      latencyP50Ms: Math.round(pct(latencies, 50)),
      latencyP99Ms: Math.round(pct(latencies, 99)),
      failedAttempts: failures.length,
      firstError: failures[0]?.error ?? null,
      backlogDrainMs: Math.round(backlogDrainMs),
      backlogPerSecond: Math.round((changes / backlogDrainMs) * 1000),
    };
    log(JSON.stringify(result));
    return result;
  } finally {
    server.closeAllConnections();
    server.close();
    await app.close();
    await database.close();
    await scratch?.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runWebhooksBench({ databaseUrl: process.env['DATABASE_URL'], log: (l) => console.log(l) }).then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}

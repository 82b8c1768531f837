import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/platform/db/database.js';
import { type FanoutOutcome, fanoutScenario } from './fanout.js';
import { type FloorRunner, type Measure, poolFloor, sequentialFloor } from './floor.js';
import { type HttpMeasure, load, probe, REQUEST_TIMEOUT_S } from './load.js';
import { type MemoryWindow, memoryWindow } from './memory.js';
import { type Child, freePort, type Rss, startChild } from './processes.js';
import { type DbRun, type ScenarioResult, writeResults } from './report.js';
import { loadFixtures, PEER_NESTED_QUERY, type Scenario, scenarios, type Verdict } from './scenarios.js';
import { type Scale, type SeedReport, scaleFromEnv, seed } from './seed.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createBenchDatabase,
  gitCommit,
  login,
  root,
  serverEntry,
  type Target,
} from './setup.js';
import { runWebhooksBench } from './webhooks.js';

const log = (msg: string) => process.stdout.write(`${msg}\n`);
const only = process.env['BENCH_ONLY']?.split(',').map((x) => x.trim());
const wanted = (id: string) => !only || only.includes(id);

/** `orNone`: 0 is allowed too, and leaves the step out. */
function num(name: string, fallback: number, orNone = false): number {
  const raw = process.env[name];
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || (n === 0 && !orNone))
    throw new Error(`${name} must be a positive number${orNone ? ' or 0' : ''}`);
  return n;
}

interface Settings {
  scale: Scale;
  concurrency: number;
  seconds: number;
  floorSeconds: number;
  warmupSeconds: number;
  /** Reads again from a single client (0: skip): latency without queueing. */
  singleSeconds: number;
  webhooks: boolean;
  webhooksTimeoutS: number;
}

async function runFloors(
  runner: FloorRunner,
  list: Scenario[],
  fx: Awaited<ReturnType<typeof loadFixtures>>,
  s: Settings,
) {
  const floors = new Map<string, Measure>();
  // Reads first: the write floors add rows.
  for (const sc of [...list].sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'read' ? -1 : 1))) {
    const m = await runner.run(sc.floor(fx), s.floorSeconds);
    floors.set(sc.id, m);
    log(
      `  floor ${sc.id}: ${m.rps} q/s, p50 ${m.p50} ms, p99 ${m.p99} ms${m.errors ? `, ${m.errors} errors: ${m.firstError}` : ''}`,
    );
  }
  return floors;
}

/**
 * Requests still in flight when a window closes must finish before the next one
 * opens: PGlite runs one query at a time, and each request queues several. The
 * server is idle again when a trivial query answers quickly twice in a row.
 */
async function drain(url: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  let quick = 0;
  while (quick < 2 && Date.now() < deadline) {
    const t = performance.now();
    await fetch(`${url}/readyz`).catch(() => {});
    quick = performance.now() - t < 100 ? quick + 1 : 0;
  }
}

async function benchDatabase(target: Target, s: Settings): Promise<DbRun> {
  const started = Date.now();
  log(`\n== ${target.kind} (${s.scale.name}: ${s.scale.issues} issues) ==`);
  let dataDir: string | undefined;
  let pgDb: { url: string; drop: () => Promise<void> } | undefined;
  if (target.kind === 'pglite') dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trackway-bench-'));
  else pgDb = await createBenchDatabase(target.serverUrl!);

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    DATA_DIR: dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'trackway-bench-files-')),
    LOG_LEVEL: 'warn',
    // One user sends every request here: the hourly budgets (REST and GraphQL,
    // API keys and sessions) would end the run.
    GRAPHQL_REQUESTS_PER_HOUR: '1000000000',
    GRAPHQL_COMPLEXITY_PER_HOUR: '1000000000000',
    SESSION_REQUESTS_PER_HOUR: '1000000000',
    SESSION_COMPLEXITY_PER_HOUR: '1000000000000',
    // The fan-out opens its 200 streams as 14 people, 15 each: over the per-user cap of 10.
    STREAM_MAX_PER_USER: '50',
    HOST: '127.0.0.1',
    BENCH_MEMORY_FILE: path.join(os.tmpdir(), `trackway-bench-memory-${process.pid}-${target.kind}.jsonl`),
  };
  const memoryFile = env['BENCH_MEMORY_FILE']!;
  fs.rmSync(memoryFile, { force: true });
  if (pgDb) env['DATABASE_URL'] = pgDb.url;
  else delete env['DATABASE_URL'];

  const list = scenarios(root).filter((sc) => wanted(sc.id));
  const results: ScenarioResult[] = [];
  let server: Child | undefined;
  let serverRss: Rss | undefined;
  let serverStarted = 0;
  let peer: DbRun['peer'];
  let webhooks: DbRun['webhooks'];
  let fanout: FanoutOutcome | undefined;
  let seedReport: SeedReport;
  let dbVersion = '';
  let failure: string | undefined;
  let memory: MemoryWindow | undefined;
  try {
    // 1. Seed, then the floor on the same database while nothing else uses it.
    const config = loadConfig(env);
    const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    let fixtures: Awaited<ReturnType<typeof loadFixtures>>;
    let floors: Map<string, Measure>;
    try {
      log('seeding...');
      seedReport = await seed(database.db, config, s.scale, log);
      log(
        `seeded ${seedReport.counts.issues} issues, ${seedReport.counts.comments} comments in ${(seedReport.ms / 1000).toFixed(1)} s`,
      );
      dbVersion = (await sql<{ v: string }>`select version() as v`.execute(database.db)).rows[0]!.v;
      fixtures = await loadFixtures(database.db, s.scale.issues);
      log('floor (SQL straight to the database)...');
      const runner =
        database.kind === 'pglite' ? sequentialFloor(database.pglite!) : poolFloor(pgDb!.url, s.concurrency);
      try {
        floors = list.length ? await runFloors(runner, list, fixtures, s) : new Map();
      } finally {
        await runner.close();
      }
    } finally {
      // PGlite's data directory belongs to one process at a time: the server's next.
      await database.close();
    }

    // 2. The real server as a child process.
    const entry = serverEntry();
    const port = await freePort();
    log(`starting server (${entry.mode}) on port ${port}...`);
    serverStarted = Date.now();
    server = await startChild({
      args: entry.args,
      cwd: root,
      env: { ...env, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` },
      port,
      ready: async (url) => (await fetch(`${url}/readyz`)).ok,
    });
    const token = await login(server.url);
    const headers = { authorization: `Bearer ${token}` };

    for (const sc of list) {
      const scenarioStarted = Date.now();
      const verdict = await probe(server.url, headers, sc.request(fixtures, 0), sc.check).catch(
        (err): Verdict => ({ ok: false, missing: false, detail: String(err) }),
      );
      const floor = floors.get(sc.id)!;
      if (!verdict.ok) {
        log(`  ${sc.id}: ${verdict.missing ? 'MISSING ENDPOINT' : 'ERROR'}: ${verdict.detail}`);
        results.push({
          id: sc.id,
          title: sc.title,
          kind: sc.kind,
          status: verdict.missing ? 'missing' : 'error',
          detail: verdict.detail,
          floor,
        });
        continue;
      }
      if (s.warmupSeconds > 0) {
        await load(server.url, headers, (i) => sc.request(fixtures, i + 1_000_000), {
          connections: s.concurrency,
          seconds: s.warmupSeconds,
        });
        await drain(server.url);
      }
      const http: HttpMeasure = await load(server.url, headers, (i) => sc.request(fixtures, i), {
        connections: s.concurrency,
        seconds: s.seconds,
      });
      await drain(server.url);
      const single =
        sc.kind === 'read' && s.singleSeconds > 0
          ? await load(server.url, headers, (i) => sc.request(fixtures, i + 2_000_000), {
              connections: 1,
              seconds: s.singleSeconds,
            })
          : undefined;
      const rss = server.rss();
      const memory = memoryWindow(memoryFile, scenarioStarted);
      // A timeout is slowness, which never fails the run; a wrong answer or a broken connection does.
      const bad = http.non2xx + (http.errors - http.timeouts);
      const status = bad > 0 ? 'error' : 'ok';
      const notes = [
        ...(bad > 0
          ? [`${http.non2xx} non-2xx and ${http.errors - http.timeouts} connection errors under load`]
          : []),
        ...(http.timeouts > 0 ? [`${http.timeouts} requests timed out (over ${REQUEST_TIMEOUT_S} s)`] : []),
        ...(http.requests === 0 ? ['no request completed within the window'] : []),
      ];
      const detail = notes.length ? notes.join('; ') : undefined;
      log(
        `  ${sc.id}: ${http.rps} req/s, p50 ${http.p50} ms, p99 ${http.p99} ms${single ? ` (one client: p50 ${single.p50} ms, p99 ${single.p99} ms)` : ''} (floor ${floor.rps} q/s), RSS ${rss.lastMb} MB${memory ? ` (peak ${memory.max.rss}: heap ${memory.atRssPeak.heapTotal}, buffers ${memory.atRssPeak.arrayBuffers}, wasm ${memory.atRssPeak.wasm})` : ''}${detail ? ` - ${detail}` : ''}`,
      );
      results.push({
        id: sc.id,
        title: sc.title,
        kind: sc.kind,
        status,
        ...(detail ? { detail } : {}),
        http,
        ...(single ? { single } : {}),
        floor,
        rssMb: rss.lastMb,
        ...(memory ? { memory } : {}),
      });
    }
    if (wanted('fanout')) {
      fanout = await fanoutScenario({
        server,
        adminToken: token,
        adminEmail: ADMIN_EMAIL,
        small: s.scale.name === 'small',
        databaseUrl: pgDb?.url,
        log,
      });
    }
    serverRss = await server.stop();
    server = undefined;

    // 3. The peer, on PostgreSQL: PostGraphile answering the nested question.
    if (pgDb && list.some((sc) => sc.id === 'graphql-nested')) peer = await runPeer(pgDb.url, fixtures, s);

    // 4. Webhook delivery (its own scratch database; the webhooks helper's benchmark).
    // Full mode only (or BENCH_WEBHOOKS=1): it is slow on a busy machine.
    if (s.webhooks && wanted('webhooks')) webhooks = await webhookDelivery(target, s);
  } catch (err) {
    failure = err instanceof Error ? (err.stack ?? err.message) : String(err);
    log(`run failed: ${failure}`);
    if (server) log(server.output().slice(-2000));
  } finally {
    if (server) serverRss = await server.stop();
    // BENCH_KEEP_DB=1 keeps the seeded PostgreSQL database for EXPLAIN afterwards.
    if (pgDb && process.env['BENCH_KEEP_DB'] === '1') log(`kept database: ${pgDb.url}`);
    else if (pgDb) await pgDb.drop().catch(() => {});
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    memory = serverStarted ? memoryWindow(memoryFile, serverStarted) : undefined;
    fs.rmSync(memoryFile, { force: true });
    if (env['DATA_DIR'] && env['DATA_DIR'] !== dataDir)
      fs.rmSync(env['DATA_DIR'], { recursive: true, force: true });
  }
  return {
    kind: target.kind,
    version: dbVersion,
    seed: seedReport!,
    scenarios: results,
    serverRss: serverRss ?? null,
    ...(memory ? { memory } : {}),
    serverMode: serverEntry().mode,
    ...(peer ? { peer } : {}),
    ...(webhooks ? { webhooks } : {}),
    ...(fanout ? { fanout } : {}),
    ...(failure ? { failure } : {}),
    wallSeconds: Math.round((Date.now() - started) / 100) / 10,
  };
}

async function webhookDelivery(target: Target, s: Settings): Promise<DbRun['webhooks']> {
  log('webhook delivery...');
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`did not finish within ${s.webhooksTimeoutS} s`)),
      s.webhooksTimeoutS * 1000,
    );
  });
  try {
    const w = await Promise.race([
      runWebhooksBench({ databaseUrl: target.serverUrl, log: (l) => log(`  ${l}`) }),
      limit,
    ]);
    log(
      `  webhooks: ${w.changes} changes delivered at ${w.deliveriesPerSecond}/s, p50 ${w.latencyP50Ms} ms, p99 ${w.latencyP99Ms} ms`,
    );
    return w;
  } catch (err) {
    const message = (err instanceof Error ? err.message : String(err)).slice(0, 600);
    log(`  webhooks: ${message}`);
    // Too slow is a finding, not a failure; anything else is an error.
    return /did not finish within/.test(message) ? { timedOut: message } : { error: message };
  } finally {
    clearTimeout(timer);
  }
}

async function runPeer(
  url: string,
  fx: Awaited<ReturnType<typeof loadFixtures>>,
  s: Settings,
): Promise<DbRun['peer']> {
  const port = await freePort();
  log('starting PostGraphile (peer)...');
  let child: Child | undefined;
  try {
    child = await startChild({
      args: [path.join(root, 'bench', 'peer-postgraphile.mjs'), url, String(port)],
      cwd: root,
      env: { ...process.env, GRAPHILE_ENV: 'production' },
      port,
      ready: async (u) =>
        (
          await fetch(`${u}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{"query":"{__typename}"}',
          })
        ).ok,
      timeoutMs: 60_000,
    });
    const call = {
      method: 'POST' as const,
      path: '/graphql',
      body: JSON.stringify({ query: PEER_NESTED_QUERY, variables: { team: fx.teamId, state: fx.stateId } }),
    };
    const verdict = await probe(child.url, {}, call, (status, body) => {
      const b = body as { data?: { allIssues?: { nodes?: unknown[] } }; errors?: { message: string }[] };
      if (status === 200 && !b.errors && Array.isArray(b.data?.allIssues?.nodes)) return { ok: true };
      return { ok: false, missing: false, detail: `HTTP ${status} ${JSON.stringify(body).slice(0, 400)}` };
    });
    if (!verdict.ok) {
      log(`  peer: ERROR ${verdict.detail}`);
      return { name: 'PostGraphile 5', status: 'error', detail: verdict.detail };
    }
    if (s.warmupSeconds > 0) {
      await load(child.url, {}, () => call, { connections: s.concurrency, seconds: s.warmupSeconds });
    }
    const http = await load(child.url, {}, () => call, { connections: s.concurrency, seconds: s.seconds });
    const rss = await child.stop();
    child = undefined;
    log(
      `  peer graphql-nested: ${http.rps} req/s, p50 ${http.p50} ms, p99 ${http.p99} ms, RSS peak ${rss.peakSampledMb} MB`,
    );
    return { name: 'PostGraphile 5', status: 'ok', scenario: 'graphql-nested', http, rss };
  } catch (err) {
    log(`  peer failed: ${String(err)}`);
    return { name: 'PostGraphile 5', status: 'error', detail: String(err).slice(0, 600) };
  } finally {
    if (child) await child.stop();
  }
}

async function main() {
  const scale = scaleFromEnv();
  const small = scale.name === 'small';
  const settings: Settings = {
    scale,
    concurrency: num('BENCH_CONCURRENCY', 16),
    // Small mode proves each scenario answers right, not its speed: a fraction of a second each.
    seconds: num('BENCH_SECONDS', small ? 0.4 : 10),
    floorSeconds: num('BENCH_FLOOR_SECONDS', small ? 0.2 : 5),
    warmupSeconds: small ? 0 : 2,
    singleSeconds: num('BENCH_SINGLE_SECONDS', small ? 0.2 : 3, true),
    webhooks: process.env['BENCH_WEBHOOKS'] ? process.env['BENCH_WEBHOOKS'] === '1' : !small,
    webhooksTimeoutS: num('BENCH_WEBHOOKS_TIMEOUT', 180),
  };
  const which = (process.env['BENCH_DB'] ?? 'both').toLowerCase();
  const targets: Target[] = [];
  if (which === 'pglite' || which === 'both') targets.push({ kind: 'pglite' });
  const databaseUrl = process.env['DATABASE_URL'];
  if ((which === 'postgres' || which === 'both') && databaseUrl)
    targets.push({ kind: 'postgres', serverUrl: databaseUrl });
  if (which === 'postgres' && !databaseUrl) throw new Error('BENCH_DB=postgres needs DATABASE_URL');

  const machine = {
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    loadAverageAtStart: os.loadavg().map((x) => Math.round(x * 100) / 100),
  };
  const commit = gitCommit();
  log(
    `trackway bench: scale ${scale.name}, concurrency ${settings.concurrency}, ${settings.seconds} s per scenario`,
  );
  log(
    `machine: ${machine.cpu} x${machine.cores}, ${machine.memoryGb} GB, load ${machine.loadAverageAtStart.join(' ')}; commit ${commit}`,
  );

  let failed = false;
  for (const target of targets) {
    const run = await benchDatabase(target, settings);
    const files = writeResults(path.join(root, 'bench', 'results'), { machine, commit, settings, run });
    log(`results: ${files.map((f) => path.relative(root, f)).join(', ')}`);
    const errored = run.scenarios.filter((r) => r.status === 'error');
    const webhooksFailed = Boolean(run.webhooks && 'error' in run.webhooks);
    const fanoutFailed = run.fanout?.error;
    if (run.failure || errored.length > 0 || webhooksFailed || fanoutFailed) {
      failed = true;
      if (fanoutFailed) log(`ERROR ${run.kind} fanout: ${fanoutFailed}`);
      if (webhooksFailed) log(`ERROR ${run.kind} webhooks: ${(run.webhooks as { error: string }).error}`);
      for (const r of errored) log(`ERROR ${run.kind} ${r.id}: ${r.detail}`);
    }
  }
  if (failed) {
    log('bench: FAILED (a scenario whose endpoint exists returned errors)');
    process.exit(1);
  }
  log('bench: done');
  // A timed-out webhook run may leave its worker behind: do not wait for it.
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

// Results as JSON (everything) and Markdown (the table and the targets),
// stamped with machine, database and commit.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { FanoutOutcome } from './fanout.js';
import type { Measure } from './floor.js';
import type { HttpMeasure } from './load.js';
import type { MemoryWindow } from './memory.js';
import type { Rss } from './processes.js';
import type { SeedReport } from './seed.js';
import type { WebhooksBenchResult } from './webhooks.js';

export interface ScenarioResult {
  id: string;
  title: string;
  kind: 'read' | 'write';
  status: 'ok' | 'missing' | 'error';
  detail?: string;
  http?: HttpMeasure;
  /** The same requests from one client at a time: latency without queueing. */
  single?: HttpMeasure;
  floor: Measure;
  rssMb?: number;
  /** The server's memory by part during this scenario (bench/memory-probe.mjs). */
  memory?: MemoryWindow;
}

export interface DbRun {
  kind: 'pglite' | 'postgres';
  version: string;
  seed: SeedReport;
  scenarios: ScenarioResult[];
  serverRss: Rss | null;
  /** The server's memory by part over its whole run. */
  memory?: MemoryWindow;
  serverMode: 'dist' | 'tsx';
  peer?: {
    name: string;
    status: 'ok' | 'error';
    detail?: string;
    scenario?: string;
    http?: HttpMeasure;
    rss?: Rss;
  };
  webhooks?: WebhooksBenchResult | { error: string } | { timedOut: string };
  fanout?: FanoutOutcome;
  failure?: string;
  wallSeconds: number;
}

export interface Report {
  machine: Record<string, unknown>;
  commit: string;
  settings: {
    scale: { name: string; issues: number };
    concurrency: number;
    seconds: number;
    floorSeconds: number;
  };
  run: DbRun;
}

const READ_P99_TARGET_MS = 50;
const FLOOR_RATIO_TARGET = 3;
// Issue 16: the embedded server carries the database's heap too.
const RSS_TARGET_MB = { pglite: 350, postgres: 250 } as const;

/** Time per request, ours over the floor's: at equal concurrency, floor req/s over our req/s. */
export function floorRatio(r: ScenarioResult): number | undefined {
  if (!r.http || r.http.requests === 0 || r.floor.rps === 0) return undefined;
  return Math.round((r.floor.rps / r.http.rps) * 100) / 100;
}

export function peerRatio(run: DbRun): number | undefined {
  const ours = run.scenarios.find((s) => s.id === 'graphql-nested')?.http;
  const theirs = run.peer?.http;
  if (!ours || !theirs || ours.requests === 0) return undefined;
  return Math.round((theirs.rps / ours.rps) * 100) / 100;
}

const fmt = (x: number | undefined, unit = '') => (x === undefined ? '-' : `${x}${unit}`);

export function markdownTable(run: DbRun): string {
  const pr = peerRatio(run);
  const lines = [
    '| Scenario | Status | req/s | p50 ms | p99 ms | c=1 p50 / p99 ms | floor q/s | floor p50 ms | our/floor | peer req/s | our/peer |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of run.scenarios) {
    const isNested = r.id === 'graphql-nested' && run.peer?.http;
    lines.push(
      `| ${r.id} | ${r.status === 'missing' ? 'missing endpoint' : r.status} | ${fmt(r.http?.rps)} | ${fmt(r.http?.p50)} | ${fmt(
        r.http?.p99,
      )} | ${r.single ? `${r.single.p50} / ${r.single.p99}` : '-'} | ${r.floor.rps} | ${r.floor.p50} | ${fmt(floorRatio(r), 'x')} | ${isNested ? run.peer!.http!.rps : '-'} | ${
        isNested ? fmt(pr, 'x') : '-'
      } |`,
    );
  }
  return lines.join('\n');
}

/** Each target from the issue, judged on this run: met, missed, or not measurable. */
export function targets(run: DbRun): string[] {
  const out: string[] = [];
  const by = (id: string) => run.scenarios.find((s) => s.id === id);
  const judge = (ok: boolean | undefined) => (ok === undefined ? 'n/a' : ok ? 'met' : 'MISSED');
  for (const id of ['rest-list-filtered', 'graphql-nested']) {
    const r = by(id);
    const ratio = r ? floorRatio(r) : undefined;
    out.push(
      `${id} within ${FLOOR_RATIO_TARGET}x of the floor: ${judge(ratio === undefined ? undefined : ratio <= FLOOR_RATIO_TARGET)} (${fmt(ratio, 'x')})`,
    );
  }
  if (run.kind === 'postgres') {
    const pr = peerRatio(run);
    out.push(
      `graphql-nested at least as fast as ${run.peer?.name ?? 'the peer'}: ${judge(pr === undefined ? undefined : pr <= 1)} (peer/our req/s ${fmt(pr)})`,
    );
  }
  const measured = (r: ScenarioResult | undefined) => (r?.http && r.http.requests > 0 ? r.http : undefined);
  const reads = run.scenarios.filter((s) => s.kind === 'read' && measured(s));
  const slow = reads.filter((s) => s.http!.p99 >= READ_P99_TARGET_MS);
  out.push(
    `read p99 under ${READ_P99_TARGET_MS} ms at concurrency ${reads[0]?.http?.concurrency ?? '-'}: ${judge(
      reads.length ? slow.length === 0 : undefined,
    )}${slow.length ? ` (over: ${slow.map((s) => `${s.id} ${s.http!.p99} ms`).join(', ')})` : ''}`,
  );
  const search = measured(by('rest-search'));
  out.push(
    `full-text search p99 under ${READ_P99_TARGET_MS} ms: ${judge(search ? search.p99 < READ_P99_TARGET_MS : undefined)} (${fmt(search?.p99, ' ms')})`,
  );
  const first = measured(by('rest-offset-0'));
  const deep = measured(by('rest-offset-deep'));
  if (first && deep) {
    const slowdown = Math.round((deep.p50 / Math.max(first.p50, 0.01)) * 10) / 10;
    out.push(
      `deep offset vs first page (p50): ${slowdown}x (${first.p50} ms -> ${deep.p50} ms)${slowdown > 3 ? ': degrades with depth, use keyset paging (REST after=nextCursor, GraphQL after/endCursor)' : ''}`,
    );
  } else {
    out.push('deep offset vs first page: n/a');
  }
  const keyset = measured(by('rest-keyset-deep'));
  if (first && keyset) {
    const ratio = Math.round((keyset.p50 / Math.max(first.p50, 0.01)) * 10) / 10;
    out.push(`keyset page at the same depth vs first page (p50): ${ratio}x (${keyset.p50} ms)`);
  }
  const rss = run.serverRss;
  const limit = RSS_TARGET_MB[run.kind];
  out.push(
    `server RSS under ${limit} MB through the run: ${judge(rss ? rss.hwmMb < limit : undefined)} (peak ${fmt(rss?.hwmMb, ' MB')})`,
  );
  return out;
}

export function markdown(report: Report): string {
  const { run, machine, commit, settings } = report;
  const seed = run.seed;
  return [
    `# Trackway bench: ${run.kind}, scale ${settings.scale.name}`,
    '',
    `- Commit: ${commit}`,
    `- Machine: ${machine['cpu']} x${machine['cores']}, ${machine['memoryGb']} GB, ${machine['os']}, Node ${machine['node']}, load average at start ${(machine['loadAverageAtStart'] as number[]).join(' ')}`,
    `- Database: ${run.version}`,
    `- Server: ${run.serverMode === 'dist' ? 'node dist/server.js' : 'node --import tsx src/server.ts (RSS includes the TypeScript loader)'}, with the Node flags of \`npm start\``,
    `- Load: autocannon, ${settings.concurrency} connections, ${settings.seconds} s per scenario; floor ${
      run.kind === 'postgres'
        ? `${settings.concurrency} pooled connections`
        : 'sequential in-process queries on the PGlite instance (it has one connection)'
    }, ${settings.floorSeconds} s per question`,
    seed
      ? `- Seed: ${seed.counts.teams} teams, ${seed.counts.users} users, ${seed.counts.issues} issues, ${seed.counts.comments} comments, ${seed.counts.issueLabels} issue labels in ${(seed.ms / 1000).toFixed(1)} s (${Object.entries(
          seed.steps,
        )
          .map(([k, v]) => `${k} ${v} ms`)
          .join(', ')})`
      : '- Seed: failed',
    `- Server RSS: peak ${fmt(run.serverRss?.hwmMb, ' MB')} (VmHWM), last ${fmt(run.serverRss?.lastMb, ' MB')}${
      run.peer?.rss ? `; ${run.peer.name} peak ${run.peer.rss.hwmMb} MB` : ''
    }`,
    `- Wall time: ${run.wallSeconds} s`,
    '',
    // BENCH_ONLY may have left no HTTP scenario: then no table and no targets.
    ...(run.scenarios.length
      ? [
          markdownTable(run),
          '',
          'our/floor: time per request of the server over the database answering the same SQL directly (floor q/s / our req/s). our/peer: peer req/s / our req/s (below 1: we are faster).',
          '',
        ]
      : []),
    ...memoryLines(run),
    ...webhookLines(run),
    ...fanoutLines(run),
    ...(run.scenarios.length ? ['## Targets', '', ...targets(run).map((t) => `- ${t}`), ''] : []),
    ...run.scenarios.filter((s) => s.detail).map((s) => `- ${s.id}: ${s.status}: ${s.detail}`),
    ...(run.peer?.detail ? [`- peer: ${run.peer.detail}`] : []),
    ...(run.failure ? ['', '## Run failure', '', '```', run.failure, '```'] : []),
    '',
  ].join('\n');
}

/** Where the resident memory was at each scenario's peak (MB; heap = V8's, wasm = PGlite's). */
function memoryLines(run: DbRun): string[] {
  const rows = run.scenarios.filter((s) => s.memory);
  if (!rows.length) return [];
  const row = (name: string, m: MemoryWindow) => {
    const p = m.atRssPeak;
    return `| ${name} | ${m.max.rss} | ${p.heapTotal} | ${p.heapUsed} | ${p.newSpace} | ${p.oldSpace} | ${p.largeObjectSpace} | ${p.external} | ${p.arrayBuffers} | ${p.wasm} |`;
  };
  return [
    '## Memory by part (MB, at the sample with the largest RSS)',
    '',
    '| Window | RSS | V8 heap total | heap used | new space | old space | large objects | external | array buffers | PGlite WASM |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map((s) => row(s.id, s.memory!)),
    ...(run.memory ? [row('whole run', run.memory)] : []),
    '',
  ];
}

function webhookLines(run: DbRun): string[] {
  const w = run.webhooks;
  if (!w) return [];
  if ('error' in w) return [`Webhook delivery: ERROR ${w.error}`, ''];
  if ('timedOut' in w) return [`Webhook delivery: ${w.timedOut}`, ''];
  return [
    `Webhook delivery (bench/webhooks.ts): ${w.changes} issue changes committed in ${w.produceMs} ms, all delivered ${w.totalMs} ms after the first (drain ${w.drainMs} ms after the last commit), ${w.deliveriesPerSecond} deliveries/s, commit-to-arrival p50 ${w.latencyP50Ms} ms, p99 ${w.latencyP99Ms} ms.`,
    '',
  ];
}

function fanoutLines(run: DbRun): string[] {
  const f = run.fanout;
  if (!f) return [];
  if (!('changes' in f)) return [`Fan-out: ERROR ${f.error}`, ''];
  const s = f.settings;
  return [
    `Fan-out (bench/fanout.ts): ${s.streams} streams of ${f.users.admins} admins, ${f.users.members} members, ${f.users.guests} guests (${f.users.inPrivateTeam} in a private team); ${f.changes} issue updates through REST at ${f.achievedPerSecond}/s (target ${s.changesPerSecond}/s for ${s.seconds} s, ${s.writers} in flight at most).`,
    '',
    '| REST answer to arrival, every (change, stream) | p50 | p95 | p99 | max | last stream p50 / p99 |',
    '|---|---:|---:|---:|---:|---:|',
    `| ms | ${f.latencyMs.p50} | ${f.latencyMs.p95} | ${f.latencyMs.p99} | ${f.latencyMs.max} | ${f.lastArrivalMs.p50} / ${f.lastArrivalMs.p99} |`,
    '',
    `Delivered ${f.delivered} of ${f.expected}, missed ${f.missed}, unexpected ${f.unexpected}, sync id mismatches ${f.syncIdMismatches}, streams ended early ${f.streamsEnded}${f.error ? ` (ERROR: ${f.error})` : ''}. Server RSS ${f.rssMb.beforeStreams} MB before the streams, ${f.rssMb.afterStreams} MB with them open (${f.kbPerStream} KB per stream), peak ${f.rssMb.peakDuringLoad} MB during the load, ${f.rssMb.afterLoad} MB after. Server CPU during the load: ${f.cpu ? `${f.cpu.seconds} s (${f.cpu.coreShare} of a core)` : '-'}; database transactions per change: ${f.dbTransactionsPerChange ?? '-'}. Scenario wall time ${f.wallSeconds ?? '-'} s.`,
    '',
  ];
}

export function writeResults(dir: string, report: Report): string[] {
  fs.mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').replace(/Z$/, 'Z');
  const base = path.join(dir, `${stamp}-${report.run.kind}-${report.settings.scale.name}`);
  fs.writeFileSync(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(`${base}.md`, markdown(report));
  const files = [`${base}.json`, `${base}.md`];
  // In the project's own format, so committed results pass `biome check`.
  const biome = path.resolve(dir, '..', '..', 'node_modules', '.bin', 'biome');
  try {
    execFileSync(biome, ['format', '--write', ...files], { stdio: 'ignore' });
  } catch {
    // formatting is cosmetic
  }
  return files;
}

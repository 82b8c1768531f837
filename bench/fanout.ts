// Fan-out of the change stream (issue 15): N open streams of different users
// (admins, members, guests, a private team) while issue updates arrive through
// REST at a fixed rate. For every (change, stream that may see it): the time
// from the REST answer (commit acknowledged) to the event's arrival; deliveries
// missed; server memory per open stream; server CPU during the load.
import fs from 'node:fs';
import type { Child } from './processes.js';
import { BENCH_USER_PASSWORD } from './seed.js';
import { openStream, type StreamClient } from './sse.js';

export interface FanoutSettings {
  streams: number;
  changesPerSecond: number;
  seconds: number;
  /** REST requests in flight at most. */
  writers: number;
}

export function fanoutSettings(small: boolean): FanoutSettings {
  const n = (name: string, fallback: number) => Number(process.env[name] ?? fallback) || fallback;
  return {
    streams: n('BENCH_FANOUT_STREAMS', small ? 6 : 200),
    changesPerSecond: n('BENCH_FANOUT_RATE', small ? 20 : 100),
    seconds: n('BENCH_FANOUT_SECONDS', small ? 2 : 20),
    writers: 8,
  };
}

export interface FanoutResult {
  settings: FanoutSettings;
  users: { admins: number; members: number; guests: number; inPrivateTeam: number };
  changes: number;
  achievedPerSecond: number;
  failedChanges: number;
  /** (change, stream) pairs the stream may see, and how many arrived. */
  expected: number;
  delivered: number;
  missed: number;
  /** Events a stream got for an issue its user cannot read, or more than were made. */
  unexpected: number;
  /** Changes whose sync id differs between streams (must be 0). */
  syncIdMismatches: number;
  streamsEnded: number;
  latencyMs: { p50: number; p95: number; p99: number; max: number; min: number };
  /** The same, for the last stream to get each change (what "everyone has it" waits for). */
  lastArrivalMs: { p50: number; p99: number; max: number };
  rssMb: { beforeStreams: number; afterStreams: number; peakDuringLoad: number; afterLoad: number };
  kbPerStream: number;
  /** Server process CPU seconds during the load, and as a share of one core. */
  cpu: { seconds: number; coreShare: number } | null;
  /** PostgreSQL transactions committed during the load, per change (statements: each is one). */
  dbTransactionsPerChange: number | null;
  /** The whole scenario, set-up included: what it adds to a bench run. */
  wallSeconds: number;
}

const pct = (sorted: number[], p: number) =>
  sorted.length
    ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
    : 0;
const r1 = (x: number) => Math.round(x * 10) / 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** utime + stime of a process, in seconds. */
function cpuSeconds(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

async function api<T>(base: string, token: string | null, method: string, path: string, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

async function ok<T>(p: Promise<{ status: number; body: T }>, what: string): Promise<T> {
  const r = await p;
  if (r.status >= 300) throw new Error(`${what}: HTTP ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body;
}

/** Runs `fn` over `items` with at most `limit` at once. */
async function pool<T>(items: T[], limit: number, fn: (item: T, i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i]!, i);
      }
    }),
  );
}

interface Reader {
  email: string;
  token: string;
  role: 'admin' | 'member' | 'guest';
  /** Per pool issue: may this user read it (asked of the REST API, not of the stream's rules)? */
  sees: boolean[];
}

/** Users of different roles, a private team some of them are in, and the issues the load will update. */
async function setUp(base: string, adminToken: string, adminEmail: string, small: boolean) {
  type U = { id: string; email: string; role: string };
  const { users } = await ok(
    api<{ users: U[] }>(base, adminToken, 'GET', '/api/admin/users?limit=100'),
    'list users',
  );
  const byEmail = new Map(users.map((u) => [u.email, u]));
  const pick = (n: number) => byEmail.get(`user${n}@bench.test`);
  // Seeded: every tenth user is a guest, the rest members, all in every seeded team.
  const members = (small ? [1, 2, 3] : [1, 2, 3, 4, 5, 6, 7, 8, 11, 12]).map(pick).filter((u) => u);
  const guests = (small ? [] : [10, 20]).map(pick).filter((u) => u);
  const secondAdmin = pick(small ? 4 : 9);
  if (secondAdmin) {
    await ok(
      api(base, adminToken, 'PATCH', `/api/admin/users/${secondAdmin.id}`, { role: 'admin' }),
      'promote',
    );
  }
  const team = (
    await ok(
      api<{ team: { id: string } }>(base, adminToken, 'POST', '/api/teams', {
        key: 'FAN',
        name: 'Fan-out private',
        private: true,
      }),
      'create private team',
    )
  ).team;
  // Two members and (at full scale) a guest in the private team; the other members must not see it.
  const inPrivate = [members[0], members[1], guests[0]].filter((u): u is U => Boolean(u));
  for (const u of inPrivate)
    await ok(api(base, adminToken, 'POST', `/api/teams/${team.id}/members`, { userId: u.id }), 'add member');

  const publicIssues = (
    await ok(api<{ issues: { id: string }[] }>(base, adminToken, 'GET', '/api/issues?limit=40'), 'list')
  ).issues.map((i) => i.id);
  const privateIssues: string[] = [];
  for (let i = 0; i < (small ? 3 : 10); i++) {
    const { issue } = await ok(
      api<{ issue: { id: string } }>(base, adminToken, 'POST', '/api/issues', {
        teamId: team.id,
        title: `Private fan-out issue ${i}`,
      }),
      'create private issue',
    );
    privateIssues.push(issue.id);
  }
  // Interleaved, so private changes are spread over the run.
  const issues: string[] = [];
  for (let i = 0; i < Math.max(publicIssues.length, privateIssues.length); i++) {
    if (publicIssues[i]) issues.push(publicIssues[i]!);
    if (i % 4 === 0 && privateIssues[i / 4]) issues.push(privateIssues[i / 4]!);
  }
  issues.push(...privateIssues.slice(Math.ceil(publicIssues.length / 4)));

  const accounts = [
    { email: adminEmail, role: 'admin' as const, token: adminToken },
    ...(secondAdmin ? [{ email: secondAdmin.email, role: 'admin' as const, token: '' }] : []),
    ...members.map((u) => ({ email: u!.email, role: 'member' as const, token: '' })),
    ...guests.map((u) => ({ email: u!.email, role: 'guest' as const, token: '' })),
  ];
  const readers: Reader[] = [];
  for (const a of accounts) {
    const token =
      a.token ||
      (
        await ok(
          api<{ token: string }>(base, null, 'POST', '/api/auth/login', {
            email: a.email,
            password: BENCH_USER_PASSWORD,
          }),
          `login ${a.email}`,
        )
      ).token;
    const sees: boolean[] = [];
    await pool(issues, 8, async (id, i) => {
      const r = await api(base, token, 'GET', `/api/issues/${id}`);
      if (r.status !== 200 && r.status !== 404) throw new Error(`read as ${a.email}: HTTP ${r.status}`);
      sees[i] = r.status === 200;
    });
    readers.push({ email: a.email, token, role: a.role, sees });
  }
  return { readers, issues, inPrivateTeam: inPrivate.length };
}

export async function runFanout(opts: {
  server: Child;
  adminToken: string;
  adminEmail: string;
  small: boolean;
  /** PostgreSQL only: counts the database's transactions during the load. */
  countTransactions?: () => Promise<number>;
  log: (line: string) => void;
}): Promise<FanoutResult> {
  const { server, log } = opts;
  const s = fanoutSettings(opts.small);
  const began = performance.now();
  const base = server.url;
  const { readers, issues, inPrivateTeam } = await setUp(base, opts.adminToken, opts.adminEmail, opts.small);
  log(
    `  fanout: ${readers.length} users (${readers.map((r) => r.role[0]).join('')}), ${issues.length} issues, ${inPrivateTeam} in the private team`,
  );

  const settle = opts.small ? 500 : 2000; // RSS is sampled every 200 ms
  await sleep(settle);
  const beforeStreams = server.rss().lastMb;
  const streams: StreamClient[] = [];
  await pool(
    Array.from({ length: s.streams }, (_, i) => i),
    20,
    async (i) => {
      streams.push(await openStream(base, readers[i % readers.length]!.token, i % readers.length));
    },
  );
  await sleep(settle);
  const afterStreams = server.rss().lastMb;
  log(`  fanout: ${s.streams} streams open, RSS ${beforeStreams} -> ${afterStreams} MB`);

  // Changes: PATCH title at a fixed schedule, at most `writers` in flight, one at a
  // time per issue so each issue's events come in the order its changes were acknowledged.
  const total = Math.round(s.changesPerSecond * s.seconds);
  const acked: { issue: number; ordinal: number; at: number }[] = [];
  const madePerIssue = issues.map(() => 0);
  const busy = issues.map(() => Promise.resolve());
  let failedChanges = 0;
  let peak = afterStreams;
  const sampler = setInterval(() => {
    peak = Math.max(peak, server.rss().lastMb);
  }, 200);
  const cpu0 = cpuSeconds(server.proc.pid);
  const tx0 = opts.countTransactions ? await opts.countTransactions() : null;
  const start = performance.now();
  const hardStop = start + s.seconds * 3000; // a server that cannot keep up does not hold the run
  let next = 0;
  await Promise.all(
    Array.from({ length: s.writers }, async () => {
      while (next < total && performance.now() < hardStop) {
        const k = next++;
        const due = start + (k * 1000) / s.changesPerSecond;
        if (due > performance.now()) await sleep(due - performance.now());
        const issue = k % issues.length;
        const previous = busy[issue]!;
        let release = () => {};
        busy[issue] = new Promise<void>((r) => {
          release = r;
        });
        await previous;
        try {
          const r = await api(base, opts.adminToken, 'PATCH', `/api/issues/${issues[issue]}`, {
            title: `Fan-out change ${k}`,
          });
          if (r.status === 200) acked.push({ issue, ordinal: madePerIssue[issue]!++, at: performance.now() });
          else failedChanges++;
        } catch {
          failedChanges++;
        } finally {
          release();
        }
      }
    }),
  );
  const loadS = (performance.now() - start) / 1000;
  const cpu1 = cpuSeconds(server.proc.pid);

  // Wait (at most 15 s) until every stream has what it may see.
  const expectedPer = readers.map((r) => acked.filter((c) => r.sees[c.issue]).length);
  const waitUntil = performance.now() + 15_000;
  while (
    performance.now() < waitUntil &&
    streams.some((st) => !st.ended && st.events.length < expectedPer[st.userIndex]!)
  )
    await sleep(50);
  clearInterval(sampler);
  const tx1 = opts.countTransactions ? await opts.countTransactions() : null;
  const afterLoad = server.rss().lastMb;
  for (const st of streams) st.close();

  // Pair each stream's events with the changes: the k-th event of an issue is its k-th change.
  const issueIndex = new Map(issues.map((id, i) => [id, i]));
  const ackAt = new Map(acked.map((c) => [`${c.issue}:${c.ordinal}`, c.at]));
  const syncIdOf = new Map<string, number>();
  const latencies: number[] = [];
  const lastArrival = new Map<string, number>();
  let delivered = 0;
  let unexpected = 0;
  let syncIdMismatches = 0;
  for (const st of streams) {
    const reader = readers[st.userIndex]!;
    const seen = issues.map(() => 0);
    for (const e of st.events) {
      const i = issueIndex.get(e.recordId);
      const key = i === undefined ? '' : `${i}:${seen[i]!++}`;
      const at = ackAt.get(key);
      if (i === undefined || at === undefined || !reader.sees[i] || e.event !== 'issue.update') {
        unexpected++;
        continue;
      }
      const known = syncIdOf.get(key);
      if (known === undefined) syncIdOf.set(key, e.syncId);
      else if (known !== e.syncId) syncIdMismatches++;
      delivered++;
      latencies.push(e.at - at);
      lastArrival.set(key, Math.max(lastArrival.get(key) ?? Number.NEGATIVE_INFINITY, e.at - at));
    }
  }
  const expected = streams.reduce((n, st) => n + expectedPer[st.userIndex]!, 0);
  latencies.sort((a, b) => a - b);
  const lasts = [...lastArrival.values()].sort((a, b) => a - b);
  const cpuS = cpu0 !== null && cpu1 !== null ? cpu1 - cpu0 : null;
  return {
    settings: s,
    users: {
      admins: readers.filter((r) => r.role === 'admin').length,
      members: readers.filter((r) => r.role === 'member').length,
      guests: readers.filter((r) => r.role === 'guest').length,
      inPrivateTeam,
    },
    changes: acked.length,
    achievedPerSecond: r1(acked.length / loadS),
    failedChanges,
    expected,
    delivered,
    missed: expected - delivered,
    unexpected,
    syncIdMismatches,
    streamsEnded: streams.filter((st) => st.ended).length,
    latencyMs: {
      p50: r1(pct(latencies, 50)),
      p95: r1(pct(latencies, 95)),
      p99: r1(pct(latencies, 99)),
      max: r1(latencies.at(-1) ?? 0),
      min: r1(latencies[0] ?? 0),
    },
    lastArrivalMs: { p50: r1(pct(lasts, 50)), p99: r1(pct(lasts, 99)), max: r1(lasts.at(-1) ?? 0) },
    rssMb: { beforeStreams, afterStreams, peakDuringLoad: peak, afterLoad },
    kbPerStream: Math.round(((afterStreams - beforeStreams) * 1024) / s.streams),
    cpu: cpuS === null ? null : { seconds: r1(cpuS), coreShare: Math.round((cpuS / loadS) * 100) / 100 },
    dbTransactionsPerChange:
      tx0 !== null && tx1 !== null && acked.length ? r1((tx1 - tx0) / acked.length) : null,
    wallSeconds: r1((performance.now() - began) / 1000),
  };
}

export type FanoutOutcome = (FanoutResult & { error?: string }) | { error: string };

/** What `npm run bench` runs: the scenario, its log line, and its verdict (errors fail the run). */
export async function fanoutScenario(opts: {
  server: Child;
  adminToken: string;
  adminEmail: string;
  small: boolean;
  databaseUrl: string | undefined;
  log: (line: string) => void;
}): Promise<FanoutOutcome> {
  opts.log('fan-out (change stream)...');
  const pg = opts.databaseUrl ? new (await import('pg')).default.Client(opts.databaseUrl) : undefined;
  try {
    await pg?.connect();
    const count = async () =>
      Number(
        (
          await pg!.query<{ n: string }>(
            'select pg_stat_clear_snapshot(), xact_commit::text n from pg_stat_database where datname = current_database()',
          )
        ).rows[0]!.n,
      );
    const r = await runFanout({ ...opts, ...(pg ? { countTransactions: count } : {}) });
    opts.log(
      `  fanout: ${r.changes} changes at ${r.achievedPerSecond}/s to ${r.settings.streams} streams: latency p50 ${r.latencyMs.p50} ms, p95 ${r.latencyMs.p95} ms, p99 ${r.latencyMs.p99} ms, max ${r.latencyMs.max} ms; delivered ${r.delivered}/${r.expected}, missed ${r.missed}, unexpected ${r.unexpected}; ${r.kbPerStream} KB/stream; CPU ${r.cpu?.coreShare ?? '-'} cores; ${r.dbTransactionsPerChange ?? '-'} db tx/change`,
    );
    const wrong = [
      r.missed && `${r.missed} deliveries missed`,
      r.unexpected && `${r.unexpected} unexpected events`,
      r.syncIdMismatches && `${r.syncIdMismatches} sync id mismatches`,
      r.failedChanges && `${r.failedChanges} changes failed`,
      r.streamsEnded && `${r.streamsEnded} streams ended early`,
    ].filter(Boolean);
    return wrong.length ? { ...r, error: wrong.join(', ') } : r;
  } catch (err) {
    const message = (err instanceof Error ? err.message : String(err)).slice(0, 600);
    opts.log(`  fanout: ERROR ${message}`);
    return { error: message };
  } finally {
    await pg?.end().catch(() => {});
  }
}

// The change stream under a crowd (issue 24, finding 4): how many streams one
// user, one API key and one process may hold open (429 beyond, before any
// work), and a catch-up that reads the events table once for every stream
// behind the shared feed, not once per stream: counted in statements, not
// timed. Runs on PGlite and PostgreSQL alike.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import fc from 'fast-check';
import {
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  sql,
  type UnknownRow,
} from 'kysely';
import { PAGE_SIZE } from '../src/modules/stream/cursor.js';
import { RECENT_ROWS } from '../src/modules/stream/feed.js';
import type { Db } from '../src/platform/db/database.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { openSse, type SseClient } from './support/sse.js';

const CATCH_UP_LIMIT = 6000;
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 25);

let t: TestApp;
let base: string;
let eng: { id: string };
const open: SseClient[] = [];

const openStream = async (credential: string, headers: Record<string, string> = {}, url = base) => {
  const c = await openSse(url, '/api/stream', { authorization: `Bearer ${credential}`, ...headers });
  open.push(c);
  return c;
};
const stream = async (credential: string, headers: Record<string, string> = {}) => {
  const c = await openStream(credential, headers);
  assert.equal(c.status, 200, JSON.stringify(c.body));
  return c;
};
const ready = async (c: SseClient) => (await c.next((e) => e.event === 'ready', 30_000)).data;
const synced = (c: SseClient) =>
  c.events
    .filter((e) => e.data?.syncId !== undefined && e.event !== 'ready')
    .map((e) => e.data.syncId as number);
const eventIds = async (afterId: number) =>
  (
    await sql<{ id: number }>`select id from webhook_events where id > ${afterId} order by id`.execute(
      t.ctx.db,
    )
  ).rows.map((r) => Number(r.id));
const maxId = async () =>
  Number(
    (await sql<{ id: number }>`select coalesce(max(id), 0) as id from webhook_events`.execute(t.ctx.db))
      .rows[0]!.id,
  );
const untilAt = async (c: SseClient, id: number) => {
  const deadline = Date.now() + 60_000;
  while (Number(c.lastEventId ?? 0) < id && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 20));
  assert.equal(Number(c.lastEventId), id, 'the stream reached the head');
};
/** Workspace-wide events (everyone sees them), written in one statement, then the wake-up. */
const bulkEvents = async (n: number) => {
  await sql`insert into webhook_events (type, action, payload, scope)
    select 'label', 'update', jsonb_build_object('data', jsonb_build_object('id', gen_random_uuid()::text)), 'workspace'
    from generate_series(1, ${n}::int)`.execute(t.ctx.db);
  await sql`select pg_notify('trackway_changes', '')`.execute(t.ctx.db);
};
const createIssue = async (title: string) => {
  const res = await t.post('/api/issues', { teamId: eng.id, title }, t.adminToken);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.issue as { id: string };
};
const closeAll = async (streams: SseClient[]) => {
  for (const c of streams) c.close();
  await Promise.all(streams.map((c) => c.ended));
};
/** Until the server has let go of every stream but `n` (a closed socket frees its slot when the server sees it). */
const untilOpen = async (n: number) => {
  const deadline = Date.now() + 10_000;
  while (t.app.changeStreams.size > n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.equal(t.app.changeStreams.size, n);
};
const apiKey = async (token: string) => {
  const res = await t.post('/api/api-keys', { label: 'stream script' }, token);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.key as string;
};
const refused = (c: SseClient) => {
  assert.equal(c.status, 429, JSON.stringify(c.body));
  assert.equal(c.body.error.code, 'RATE_LIMITED');
  assert.ok(Number(c.headers['retry-after']) > 0, 'Retry-After');
  assert.equal(c.events.length, 0, 'nothing streamed');
};

/**
 * Counts the statements of the app's database handle, and among them the
 * reads of the events table (the stream's one page query, queries.eventsAfter).
 */
class StatementTally implements KyselyPlugin {
  all = 0;
  eventReads = 0;
  transformQuery(args: PluginTransformQueryArgs) {
    const node = args.node as { kind: string; sqlFragments?: readonly string[] };
    if (node.kind === 'RawNode' && /from webhook_events where id >/.test((node.sqlFragments ?? []).join('?')))
      this.eventReads++;
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.all++;
    return args.result;
  }
}
/** Routes every statement of the running app (hub, streams, routes) through a fresh tally. */
const tally = () => {
  const counter = new StatementTally();
  (t.ctx as { db: Db }).db = plain.withPlugin(counter);
  return counter;
};
let plain: Db;

before(async () => {
  t = await startTestApp({ streamCatchUpLimit: CATCH_UP_LIMIT });
  base = await t.listen();
  plain = t.ctx.db;
  eng = (await t.get('/api/teams/ENG', t.adminToken)).body.team;
});
// Every test starts with no stream open (and the app's own database handle).
afterEach(async () => {
  (t.ctx as { db: Db }).db = plain;
  await closeAll(open.splice(0));
  await untilOpen(0);
});
after(async () => {
  for (const c of open) c.close();
  await t.close();
});

describe('the stream caps', () => {
  test('a guest’s eleventh stream is refused with 429 as JSON; the ten others keep working', async () => {
    const guest = await t.userWithRole('guest', { teams: ['ENG'] });
    const streams = await Promise.all(Array.from({ length: 10 }, () => stream(guest.token)));
    await Promise.all(streams.map(ready));
    const over = await openStream(guest.token);
    refused(over);
    assert.match(over.body.error.message, /10/);
    // Another person is not held up by the guest's streams.
    const member = await t.userWithRole('member', { teams: ['ENG'] });
    const theirs = await stream(member.token);
    await ready(theirs);
    const issue = await createIssue('Seen by all ten');
    for (const c of [...streams, theirs]) await c.next((e) => e.data?.id === issue.id, 10_000);
  });

  test('closing a stream frees its slot', async () => {
    const guest = await t.userWithRole('guest', { teams: ['ENG'] });
    const streams = await Promise.all(Array.from({ length: 10 }, () => stream(guest.token)));
    await Promise.all(streams.map(ready));
    refused(await openStream(guest.token));
    await closeAll(streams.splice(0, 1));
    await untilOpen(9);
    const again = await stream(guest.token);
    await ready(again);
    refused(await openStream(guest.token));
  });

  test('a request refused after the cap was counted (a bad Last-Event-ID) leaves no slot taken', async () => {
    const member = await t.userWithRole('member', { teams: ['ENG'] });
    for (let i = 0; i < 12; i++) {
      const bad = await openStream(member.token, { 'last-event-id': 'not-a-number' });
      assert.equal(bad.status, 400, JSON.stringify(bad.body));
    }
    const streams = await Promise.all(Array.from({ length: 10 }, () => stream(member.token)));
    await Promise.all(streams.map(ready));
  });

  test('API keys: five streams a key, ten for all of a user’s keys, apart from their signed-in tabs', async () => {
    const member = await t.userWithRole('member', { teams: ['ENG'] });
    const [first, second, third] = [
      await apiKey(member.token),
      await apiKey(member.token),
      await apiKey(member.token),
    ];
    const keyed = await Promise.all(Array.from({ length: 5 }, () => stream(first)));
    refused(await openStream(first));
    keyed.push(...(await Promise.all(Array.from({ length: 5 }, () => stream(second)))));
    const over = await openStream(third);
    refused(over);
    // A script's streams do not take the slots of the person's own tabs.
    const tabs = await Promise.all(Array.from({ length: 10 }, () => stream(member.token)));
    refused(await openStream(member.token));
    await Promise.all([...keyed, ...tabs].map(ready));
  });

  test('one process holds at most STREAM_MAX_OPEN streams, whoever opens them', async () => {
    const small = await startTestApp({ streamMaxOpen: 3 });
    try {
      const url = await small.listen();
      const admin = await Promise.all(Array.from({ length: 2 }, () => openStream(small.adminToken, {}, url)));
      const member = await small.userWithRole('member', { teams: ['ENG'] });
      const third = await openStream(member.token, {}, url);
      for (const c of [...admin, third]) assert.equal(c.status, 200, JSON.stringify(c.body));
      refused(await openStream(member.token, {}, url));
      refused(await openStream(small.adminToken, {}, url));
    } finally {
      await small.close();
    }
  });
});

describe('catch-up: one read of the events table for every stream behind', () => {
  test('thirty streams resumed from one old id cost the reads of one, and each gets every event once, in order', async (c) => {
    const users = [
      { token: t.adminToken },
      await t.userWithRole('member', { teams: ['ENG'] }),
      await t.userWithRole('member', { teams: ['ENG'] }),
    ];
    const start = await maxId();
    const behind = RECENT_ROWS + 2000; // older than what the feed holds
    await bulkEvents(behind);
    const head = await maxId();
    const counter = tally();
    const streams = await Promise.all(
      Array.from({ length: 30 }, (_, i) => stream(users[i % 3]!.token, { 'last-event-id': String(start) })),
    );
    for (const c of streams) await untilAt(c, head);
    (t.ctx as { db: Db }).db = plain;
    const expected = await eventIds(start);
    for (const [i, s] of streams.entries()) assert.deepEqual(synced(s), expected, `stream ${i}`);

    const pages = Math.ceil(behind / PAGE_SIZE);
    c.diagnostic(`${counter.eventReads} event reads, ${counter.all} statements for ${pages} pages`);
    // One stream alone reads `pages` pages; thirty on their own would read thirty times that.
    assert.ok(
      counter.eventReads <= 2 * pages + 4,
      `${counter.eventReads} reads of the events table for ${pages} pages`,
    );
    // And no credential or team check per stream and page: a few statements to
    // open each stream, a few per page for all of them.
    assert.ok(counter.all <= 5 * streams.length + 4 * pages + 20, `${counter.all} statements`);
  });

  test('streams resumed from different old ids, while changes keep coming, each get every event once, in order', async (c) => {
    const member = await t.userWithRole('member', { teams: ['ENG'] });
    const first = await maxId();
    await bulkEvents(RECENT_ROWS + 700);
    const middle = await maxId();
    await bulkEvents(900);
    const counter = tally();
    const live = await stream(member.token);
    const starts = [first, first + 1, middle - 5, middle, middle + 300];
    const streams = await Promise.all(
      starts.map((s, i) => stream(i % 2 ? member.token : t.adminToken, { 'last-event-id': String(s) })),
    );
    for (let i = 0; i < 3; i++) await createIssue(`During the catch-up ${i}`);
    await bulkEvents(300);
    for (let i = 0; i < 3; i++) await createIssue(`After it ${i}`);
    const head = await maxId();
    for (const s of [live, ...streams]) await untilAt(s, head);
    (t.ctx as { db: Db }).db = plain;
    for (const [i, s] of streams.entries())
      assert.deepEqual(synced(s), await eventIds(starts[i]!), `stream ${i}`);
    const pages = Math.ceil((head - first) / PAGE_SIZE);
    c.diagnostic(`${counter.eventReads} event reads for ${pages} pages`);
    assert.ok(counter.eventReads <= 3 * pages + 10, `${counter.eventReads} reads for ${pages} pages`);
  });

  test('a resume from further back than STREAM_CATCH_UP_LIMIT starts at the head with reset, reading nothing old', async () => {
    const old = await maxId();
    await bulkEvents(CATCH_UP_LIMIT + 1);
    const head = await maxId();
    const counter = tally();
    const c = await stream(t.adminToken, { 'last-event-id': String(old) });
    const first = await ready(c);
    assert.deepEqual(first, { syncId: head, reset: true });
    const issue = await createIssue('After the reset');
    const e = await c.next((x) => x.data?.id === issue.id, 10_000);
    (t.ctx as { db: Db }).db = plain;
    assert.deepEqual(synced(c), [e.data.syncId]);
    assert.ok(counter.eventReads <= 4, `${counter.eventReads} reads`);
    // Exactly at the limit still catches up.
    const now = await maxId();
    const near = await stream(t.adminToken, { 'last-event-id': String(now - CATCH_UP_LIMIT) });
    assert.deepEqual(await ready(near), { syncId: now - CATCH_UP_LIMIT, reset: false });
    await untilAt(near, now);
    assert.deepEqual(synced(near), await eventIds(now - CATCH_UP_LIMIT));
  });
});

describe('the position, fuzzed', () => {
  test('any ?after or Last-Event-ID: a stream there, at the head with reset, or a 400; never a 5xx, never a slot kept', async () => {
    const head = await maxId();
    const near = fc.integer({ min: Math.max(0, head - CATCH_UP_LIMIT - 50), max: head + 50 }).map(String);
    const digits = fc.stringMatching(/^[0-9]{1,18}$/);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(near, digits, fc.string({ maxLength: 30 })),
        fc.boolean(),
        async (value, asHeader) => {
          // A header carries printable ASCII only, and loses the blanks around it.
          const header = asHeader && /^[\x20-\x7e]*$/.test(value);
          const sent = header ? value.replace(/^[ \t]+|[ \t]+$/g, '') : value;
          const c = await openSse(
            base,
            header ? '/api/stream' : `/api/stream?after=${encodeURIComponent(value)}`,
            { authorization: `Bearer ${t.adminToken}`, ...(header ? { 'last-event-id': value } : {}) },
          );
          try {
            if (!/^[0-9]{1,15}$/.test(sent)) {
              assert.equal(c.status, 400, JSON.stringify(c.body));
              return;
            }
            assert.equal(c.status, 200, JSON.stringify(c.body));
            const position = Number(sent);
            const expected =
              position <= head && head - position <= CATCH_UP_LIMIT
                ? { syncId: position, reset: false }
                : { syncId: head, reset: true };
            assert.deepEqual(await ready(c), expected);
          } finally {
            c.close();
            await c.ended;
          }
        },
      ),
      { numRuns: RUNS },
    );
    await untilOpen(0);
  });
});

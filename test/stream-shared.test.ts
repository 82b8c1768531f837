// The process's one shared reader (modules/stream/hub.ts, feed.ts): many
// streams fed from one read get every event they may see exactly once and in
// id order; a stream resumed from an old id reads the table until it reaches
// the feed and joins it without loss or repeat; a team removal takes effect at
// once on every stream of that user; a stream that does not read holds up no
// other. Runs on PGlite and PostgreSQL alike.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { RECENT_ROWS } from '../src/modules/stream/feed.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { openSse, type SseClient } from './support/sse.js';

let t: TestApp;
let base: string;
let eng: { id: string };
let vault: { id: string };
const open: SseClient[] = [];

const stream = async (token: string, headers: Record<string, string> = {}) => {
  const c = await openSse(base, '/api/stream', { authorization: `Bearer ${token}`, ...headers });
  assert.equal(c.status, 200, JSON.stringify(c.body));
  open.push(c);
  return c;
};
const ready = async (c: SseClient) => (await c.next((e) => e.event === 'ready')).data.syncId as number;
const synced = (c: SseClient) =>
  c.events
    .filter((e) => e.data?.syncId !== undefined && e.event !== 'ready')
    .map((e) => e.data.syncId as number);
const createIssue = async (teamId: string, title: string) => {
  const res = await t.post('/api/issues', { teamId, title }, t.adminToken);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.issue as { id: string };
};
/** Event ids after `afterId`, in order; `hiding` leaves out those of that team. */
const eventIds = async (afterId: number, hiding?: string) =>
  (
    await sql<{ id: number }>`select id from webhook_events where id > ${afterId}
      and (${hiding ?? null}::uuid is null or not (${hiding ?? null}::uuid = any(team_ids)))
      order by id`.execute(t.ctx.db)
  ).rows.map((r) => Number(r.id));
const maxId = async () => Math.max(0, ...(await eventIds(0)));
const reaches = (c: SseClient, id: number, ms = 30_000) =>
  c
    .next((e) => e.id !== undefined && Number(e.id) >= id, ms)
    .catch(() => {
      // An id-only line (an event the caller may not see) moves lastEventId without an event.
      if (Number(c.lastEventId) < id) throw new Error(`stream stopped at ${c.lastEventId}, not ${id}`);
    });
const untilAt = async (c: SseClient, id: number) => {
  const deadline = Date.now() + 30_000;
  while (Number(c.lastEventId ?? 0) < id && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 20));
  assert.equal(Number(c.lastEventId), id, 'the stream reached the head');
};
/** Workspace-wide events written in one statement (everyone sees them), then the wake-up. */
const bulkEvents = async (n: number) => {
  await sql`insert into webhook_events (type, action, payload, scope)
    select 'label', 'update', jsonb_build_object('data', jsonb_build_object('id', gen_random_uuid()::text)), 'workspace'
    from generate_series(1, ${n}::int)`.execute(t.ctx.db);
  await sql`select pg_notify('trackway_changes', '')`.execute(t.ctx.db);
};

before(async () => {
  t = await startTestApp({ streamDrainTimeoutMs: 300 });
  base = await t.listen();
  eng = (await t.get('/api/teams/ENG', t.adminToken)).body.team;
  vault = (await t.post('/api/teams', { name: 'Shared vault', key: 'SHV', private: true }, t.adminToken)).body
    .team;
});
after(async () => {
  for (const c of open) c.close();
  await t.close();
});

describe('one reader for many streams', () => {
  test('twelve streams of three users each get every event they may see, once, in id order', async () => {
    const outsider = await t.userWithRole('member', { teams: ['ENG'] });
    const insider = await t.userWithRole('member', { teams: ['ENG', 'SHV'] });
    const tokens = [t.adminToken, outsider.token, insider.token];
    const streams = await Promise.all(Array.from({ length: 12 }, (_, i) => stream(tokens[i % 3]!)));
    const starts = await Promise.all(streams.map(ready));
    // Concurrent writers, so ids also commit out of order (holes the reader waits for).
    for (let round = 0; round < 5; round++) {
      await Promise.all([
        createIssue(eng.id, `Shared ${round}a`),
        createIssue(vault.id, `Vault ${round}`),
        createIssue(eng.id, `Shared ${round}b`),
      ]);
    }
    const head = await maxId();
    for (const c of streams) await untilAt(c, head);
    for (const [i, c] of streams.entries()) {
      const hidden = i % 3 === 1 ? vault.id : undefined;
      assert.deepEqual(synced(c), await eventIds(starts[i]!, hidden), `stream ${i}`);
    }
    assert.ok((await eventIds(starts[1]!)).length > (await eventIds(starts[1]!, vault.id)).length);
  });

  test('a stream resumed from an id older than the feed holds reads up to it, then joins: nothing lost or repeated', async () => {
    const live = await stream(t.adminToken);
    const start = await ready(live);
    await bulkEvents(RECENT_ROWS + 500);
    const bulkHead = await maxId();
    await untilAt(live, bulkHead); // the feed has moved on: `start` is no longer in it
    const resumed = await stream(t.adminToken, { 'last-event-id': String(start) });
    assert.equal(await ready(resumed), start);
    // Changes keep coming while it catches up, and after it has joined.
    for (let i = 0; i < 3; i++) await createIssue(eng.id, `While catching up ${i}`);
    await reaches(resumed, bulkHead);
    for (let i = 0; i < 3; i++) await createIssue(eng.id, `After joining ${i}`);
    const head = await maxId();
    await untilAt(resumed, head);
    await untilAt(live, head);
    const expected = await eventIds(start);
    assert.deepEqual(synced(resumed), expected);
    assert.deepEqual(synced(live), expected);
  });
});

describe('access on the shared feed', () => {
  test('a member removed from a team stops getting its events at once, on every stream of theirs', async () => {
    const member = await t.userWithRole('member', { teams: ['ENG', 'SHV'] });
    const admin = await stream(t.adminToken);
    const mine = await Promise.all([stream(member.token), stream(member.token), stream(member.token)]);
    await ready(admin);
    await Promise.all(mine.map(ready));
    const before = await createIssue(vault.id, 'Seen while a member');
    for (const c of mine) await c.next((e) => e.data?.id === before.id);

    const removed = await t.del(`/api/teams/${vault.id}/members/${member.user.id}`, t.adminToken);
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    const hidden = await createIssue(vault.id, 'After the removal');
    const shown = await createIssue(eng.id, 'Still visible');
    await admin.next((e) => e.data?.id === shown.id);
    assert.ok(admin.events.some((e) => e.data?.id === hidden.id));
    for (const c of mine) {
      await c.next((e) => e.data?.id === shown.id);
      assert.ok(!c.events.some((e) => e.data?.id === hidden.id), 'nothing of the team after the removal');
      assert.ok(!c.raw().includes(hidden.id));
    }
  });

  test('a stream that does not read holds up no other', async () => {
    const slow = await stream(t.adminToken);
    const fast = await stream(t.adminToken);
    const start = await ready(slow);
    await ready(fast);
    slow.pause();
    await bulkEvents(3000);
    const issue = await createIssue(eng.id, 'Past the stuck reader');
    const head = await maxId();
    await untilAt(fast, head);
    assert.deepEqual(synced(fast), await eventIds(start));
    assert.ok(fast.events.some((e) => e.data?.id === issue.id));
    // The paused one resumes where it was (or, if it was closed as slow, from where it was told to).
    slow.resume();
    const got = await Promise.race([
      untilAt(slow, head).then(() => synced(slow)),
      slow
        .next((e) => e.event === 'resume', 30_000)
        .then(async (r) => {
          const again = await stream(t.adminToken, { 'last-event-id': String(r.data.after) });
          await untilAt(again, head);
          return [...synced(slow), ...synced(again)];
        }),
    ]);
    assert.deepEqual(got, await eventIds(start));
  });
});

// The change stream's edges: a client that stops reading, holes in the id
// sequence (a rollback; a transaction that commits after a later one), and
// the app closing under open streams.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { appendEvent } from '../src/platform/outbox.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { openSse, type SseClient } from './support/sse.js';

let t: TestApp;
let base: string;
let eng: { id: string };
const open: SseClient[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const stream = async (headers: Record<string, string> = {}, app = base, token = t.adminToken) => {
  const c = await openSse(app, '/api/stream', { authorization: `Bearer ${token}`, ...headers });
  open.push(c);
  assert.equal(c.status, 200, JSON.stringify(c.body));
  return c;
};
const ready = (c: SseClient) => c.next((e) => e.event === 'ready');
const synced = (c: SseClient) =>
  c.events
    .filter((e) => e.event !== 'ready' && e.data?.syncId !== undefined)
    .map((e) => e.data.syncId as number);
const createIssue = async (title: string) => {
  const res = await t.post('/api/issues', { teamId: eng.id, title }, t.adminToken);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.issue as { id: string };
};
/** A workspace-wide event in the caller's transaction, as any service would record it. */
const labelEvent = (trx: typeof t.ctx.db) =>
  appendEvent(trx, {
    type: 'label',
    action: 'update',
    data: { id: randomUUID() },
    actor: null,
    teamId: null,
  });
const maxId = async () =>
  Number(
    (await sql<{ id: number }>`select coalesce(max(id), 0) as id from webhook_events`.execute(t.ctx.db))
      .rows[0]!.id,
  );

before(async () => {
  // Heartbeats (the safety poll) 10 s apart: whatever arrives sooner came through a notification.
  // A catch-up as far back as the slow client below may fall (50,000 events), to show it misses nothing.
  t = await startTestApp({
    streamDrainTimeoutMs: 300,
    streamHeartbeatMs: 10_000,
    streamCatchUpLimit: 100_000,
  });
  base = await t.listen();
  eng = (await t.get('/api/teams/ENG', t.adminToken)).body.team;
});
after(async () => {
  for (const c of open) c.close();
  await t.close();
});

describe('holes in the id sequence', () => {
  test('a rolled-back event leaves a hole the stream passes (it does not stall)', async () => {
    const c = await stream();
    await ready(c);
    let hole = 0;
    await assert.rejects(
      t.ctx.db.transaction().execute(async (trx) => {
        hole = await labelEvent(trx);
        throw new Error('rolled back');
      }),
      /rolled back/,
    );
    const issue = await createIssue('After a rollback');
    const e = await c.next((x) => x.data?.id === issue.id, 1000);
    assert.ok(e.data.syncId > hole);
    assert.ok(!synced(c).includes(hole));
  });

  test('many old rollback holes cost no poll each: the holes of a page settle together', async () => {
    const from = await maxId();
    const kept: number[] = [];
    for (let i = 0; i < 60; i++) {
      await t.ctx.db
        .transaction()
        .execute(async (trx) => {
          await labelEvent(trx);
          throw new Error('rolled back');
        })
        .catch(() => {});
      kept.push(await t.ctx.db.transaction().execute((trx) => labelEvent(trx)));
    }
    const started = Date.now();
    const c = await stream({ 'last-event-id': String(from) });
    await c.next((e) => e.data?.syncId === kept[kept.length - 1], 10_000);
    assert.deepEqual(synced(c), kept);
    // 60 holes at one 50 ms poll each would be 3 s.
    assert.ok(Date.now() - started < 2000, `${Date.now() - started} ms`);
  });

  test('an event whose transaction commits after a later one is still sent, in id order', async (c) => {
    if (t.ctx.dbKind === 'pglite') {
      // PGlite is one connection: an open transaction holds every other
      // statement back, so no later id can commit before it. The rollback
      // test above covers the hole it can leave.
      c.skip('needs concurrent transactions (PostgreSQL)');
      return;
    }
    const s = await stream();
    await ready(s);
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let held = 0;
    let recorded!: () => void;
    const inserted = new Promise<void>((r) => {
      recorded = r;
    });
    const slow = t.ctx.db.transaction().execute(async (trx) => {
      held = await labelEvent(trx);
      recorded();
      await gate;
    });
    await inserted;
    const issue = await createIssue('Committed first, numbered later');
    await sleep(700);
    assert.ok(
      !s.events.some((e) => e.data?.id === issue.id),
      'the later id must wait while an earlier one may still commit',
    );
    release();
    await slow;
    const e = await s.next((x) => x.data?.id === issue.id, 5000);
    const ids = synced(s);
    assert.ok(ids.includes(held), `the late event ${held} was sent`);
    assert.ok(ids.indexOf(held) < ids.indexOf(e.data.syncId), 'in id order');
  });

  test('a long transaction that writes no event holds nothing up', async (c) => {
    if (t.ctx.dbKind === 'pglite') {
      c.skip('needs concurrent transactions (PostgreSQL)');
      return;
    }
    const s = await stream();
    await ready(s);
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let begun!: () => void;
    const open = new Promise<void>((r) => {
      begun = r;
    });
    // A transaction id of its own, like any writer elsewhere (it would hold back a snapshot-xmin horizon).
    const idle = t.ctx.db.transaction().execute(async (trx) => {
      await sql`select pg_current_xact_id()`.execute(trx);
      begun();
      await gate;
    });
    await open;
    try {
      const first = await createIssue('Beside a long transaction');
      const second = await createIssue('And another');
      await s.next((x) => x.data?.id === first.id, 1000);
      await s.next((x) => x.data?.id === second.id, 1000);
    } finally {
      release();
      await idle;
    }
  });
});

describe('a client that stops reading', () => {
  test('is closed with where to resume, and resuming there misses nothing', async () => {
    const c = await stream();
    const start = (await ready(c)).data.syncId as number;
    const streamsBefore = t.app.changeStreams.size;
    c.pause();
    // Far more than the socket buffers hold (several MB on loopback), written in one statement.
    await sql`insert into webhook_events (type, action, payload, scope)
      select 'label', 'update', jsonb_build_object('data', jsonb_build_object('id', gen_random_uuid()::text)), 'workspace'
      from generate_series(1, 50000)`.execute(t.ctx.db);
    await sql`select pg_notify('trackway_changes', '')`.execute(t.ctx.db);
    const head = await maxId();
    // Until the server gives up on it (however long filling the socket takes on a busy machine).
    const deadline = Date.now() + 120_000;
    while (t.app.changeStreams.size >= streamsBefore && Date.now() < deadline) await sleep(100);
    assert.ok(t.app.changeStreams.size < streamsBefore, 'the server closed the stream');
    c.resume();
    const last = await c.next((e) => e.event === 'resume', 20_000);
    await c.ended;
    assert.equal(last.data.reason, 'slow');
    const got = synced(c);
    assert.equal(last.data.after, got[got.length - 1]);
    assert.equal(last.id, String(last.data.after));
    assert.ok(last.data.after < head, `closed before the end (${last.data.after} of ${head})`);

    const again = await stream({ 'last-event-id': String(last.data.after) });
    await again.next((e) => e.data?.syncId === head, 60_000);
    const all = [...got, ...synced(again)];
    const expected = (
      await sql<{
        id: number;
      }>`select id from webhook_events where id > ${start} and id <= ${head} order by id`.execute(t.ctx.db)
    ).rows.map((r) => Number(r.id));
    assert.equal(all.length, expected.length);
    assert.deepEqual(all, expected);
  });
});

describe('closing the app', () => {
  test('ends open streams with a resume event, and close does not wait on them', async () => {
    const other = await startTestApp();
    const url = await other.listen();
    const a = await stream({}, url, other.adminToken);
    const b = await stream({}, url, other.adminToken);
    await Promise.all([ready(a), ready(b)]);
    const started = Date.now();
    await other.close();
    assert.ok(Date.now() - started < 5000, `close took ${Date.now() - started} ms`);
    for (const s of [a, b]) {
      await s.ended;
      assert.equal(s.events[s.events.length - 1]?.event, 'resume');
      assert.equal(s.events[s.events.length - 1]?.data.reason, 'shutdown');
    }
  });

  test('a client that keeps its connections for reuse does not hold the close up', async () => {
    // As a browser does: the stream's connection, once its response ended, would go back to
    // the client's pool and stay open, and the closing server would wait for it.
    const other = await startTestApp();
    const url = await other.listen();
    const agent = new http.Agent({ keepAlive: true });
    let readied: () => void = () => undefined;
    const ready = new Promise<void>((r) => {
      readied = r;
    });
    const ended = new Promise<string>((resolve, reject) => {
      http
        .get(
          `${url}/api/stream`,
          { agent, headers: { authorization: `Bearer ${other.adminToken}` } },
          (res) => {
            assert.equal(res.headers.connection, 'close');
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => {
              text += chunk;
              if (text.includes('event: ready')) readied();
            });
            res.on('end', () => resolve(text));
          },
        )
        .on('error', reject);
    });
    await ready;
    const started = Date.now();
    await other.close();
    assert.ok(Date.now() - started < 5000, `close took ${Date.now() - started} ms`);
    assert.match(await ended, /event: resume\ndata: \{"reason":"shutdown"/);
    agent.destroy();
  });
});

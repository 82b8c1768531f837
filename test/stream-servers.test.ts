// Several instances on one PostgreSQL: two real server processes (node
// src/server.ts) on this file's database. A change made through one reaches a
// stream opened on the other (LISTEN/NOTIFY wakes it, the table supplies the
// events), and a client that loses its instance resumes on the other from its
// last id without missing anything. PGlite is one process's embedded
// database and cannot be shared, so there the file is skipped. Heartbeats (the
// safety poll) are 10 s apart here, so only a notification delivers within 1 s.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { startTestApp, type TestApp } from './support/harness.js';
import { type ServerProcess, startServerProcess } from './support/server-process.js';
import { openSse, type SseClient } from './support/sse.js';

const onPostgres = Boolean(process.env['DATABASE_URL']);
type Server = ServerProcess;

const startServer = (databaseUrl: string, dataDir: string) =>
  startServerProcess({
    env: {
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      STREAM_HEARTBEAT_MS: '10000',
      ADMIN_EMAIL: undefined,
      ADMIN_PASSWORD: undefined,
      JWT_SECRET: undefined,
      PUBLIC_URL: undefined,
    },
  });

describe('two server processes on one PostgreSQL', {
  skip: !onPostgres && 'PGlite cannot be shared between processes',
}, () => {
  let t: TestApp;
  let dataDir: string;
  let one: Server;
  let two: Server;
  let eng: { id: string };
  const streams: SseClient[] = [];

  const stream = async (server: Server, headers: Record<string, string> = {}) => {
    const c = await openSse(server.base, '/api/stream', {
      authorization: `Bearer ${t.adminToken}`,
      ...headers,
    });
    streams.push(c);
    assert.equal(c.status, 200, JSON.stringify(c.body));
    await c.next((e) => e.event === 'ready');
    return c;
  };
  const createIssue = async (server: Server, title: string) => {
    const res = await fetch(`${server.base}/api/issues`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ teamId: eng.id, title }),
    });
    assert.equal(res.status, 201);
    return ((await res.json()) as { issue: { id: string } }).issue;
  };
  const idsAfter = async (id: number) =>
    (
      await sql<{ id: number }>`select id from webhook_events where id > ${id} order by id`.execute(t.ctx.db)
    ).rows.map((r) => Number(r.id));
  const synced = (c: SseClient) =>
    c.events
      .filter((e) => e.event !== 'ready' && e.data?.syncId !== undefined)
      .map((e) => e.data.syncId as number);

  before(async () => {
    t = await startTestApp();
    eng = (await t.get('/api/teams/ENG', t.adminToken)).body.team;
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trackway-stream-'));
    [one, two] = await Promise.all([
      startServer(t.database.url!, dataDir),
      startServer(t.database.url!, dataDir),
    ]);
  });
  after(async () => {
    for (const c of streams) c.close();
    for (const s of [one, two]) if (s && s.child.exitCode === null) s.child.kill('SIGTERM');
    await Promise.all([one?.exited, two?.exited]);
    await t.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  test('a change made on one process reaches a stream opened on the other, both ways, within a second', async () => {
    const onTwo = await stream(two);
    const onOne = await stream(one);
    const started = Date.now();
    const a = await createIssue(one, 'Made on one');
    await onTwo.next((e) => e.data?.id === a.id, 1000);
    const b = await createIssue(two, 'Made on two');
    await onOne.next((e) => e.data?.id === b.id, 1000);
    assert.ok(Date.now() - started < 3000);
  });

  test('a client whose process stops resumes on the other from its last id and misses nothing', async () => {
    const c = await stream(one);
    const start = Number(c.events[0]!.data.syncId);
    await createIssue(two, 'Before the stop');
    const before = await idsAfter(start);
    await c.next((e) => e.data?.syncId === before[before.length - 1]);
    one.child.kill('SIGTERM');
    const last = await c.next((e) => e.event === 'resume', 10_000);
    assert.equal(last.data.reason, 'shutdown');
    assert.equal(await one.exited, 0, one.output());
    for (let i = 0; i < 3; i++) await createIssue(two, `While reconnecting ${i}`);
    const resumed = await stream(two, { 'last-event-id': c.lastEventId! });
    const all = await idsAfter(start);
    await resumed.next((e) => e.data?.syncId === all[all.length - 1]);
    assert.deepEqual([...synced(c), ...synced(resumed)], all);
  });
});

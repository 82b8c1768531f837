// Nothing is lost when the server dies: a real server process (PGlite under a
// temp DATA_DIR, or the test's PostgreSQL database) is SIGKILLed while a
// delivery is in flight and the receiver has been down; after a restart every
// event still arrives, in order, each delivery id seen.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { openDatabase } from '../src/platform/db/database.js';
import { freshDatabase, type TestDatabase } from './support/database.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, templateSource } from './support/env.js';
import { freePort, startServerProcess } from './support/server-process.js';
import { type Receiver, signatureValid, sleep, startReceiver } from './webhooks-support.js';

const onPostgres = Boolean(process.env['DATABASE_URL']);
let database: TestDatabase | undefined;
let dataDir: string;
const children = new Set<ChildProcess>();

before(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trackway-crash-'));
  if (onPostgres) {
    database = await freshDatabase();
  } else {
    // Start from the prepared template (migrated, admin seeded) instead of an empty directory.
    const { PGlite } = await import('@electric-sql/pglite');
    const tarball = new Blob([await fs.readFile(templateSource().pgliteTarball!)]);
    const pglite = await PGlite.create({ dataDir: path.join(dataDir, 'pgdata'), loadDataDir: tarball });
    await pglite.close();
  }
});

/**
 * A killed instance's lease lapses after 30 s; rather than wait, move it into
 * the past, which is all the passing of time would do.
 */
async function expireLeases() {
  const db = database ?? (await openDatabase({ dataDir }));
  const r = await db.db
    .updateTable('webhook_deliveries')
    .set({ lease_until: new Date(Date.now() - 1000) })
    .where('status', '=', 'delivering')
    .executeTakeFirst();
  if (!database) await db.close();
  return Number(r.numUpdatedRows);
}
after(async () => {
  for (const c of children) c.kill('SIGKILL');
  await database?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

async function startServer(port: number) {
  const server = await startServerProcess({
    port,
    env: {
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      DATABASE_URL: database?.url ?? '',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_BASE_MS: '200',
      LOG_LEVEL: 'error',
    },
  });
  children.add(server.child);
  void server.exited.then(() => children.delete(server.child));
  return server;
}

async function api(base: string, method: string, url: string, token?: string, body?: unknown) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as any };
}

test('events survive a SIGKILL mid-delivery and a receiver outage', { timeout: 240_000 }, async () => {
  const port = await freePort();
  const rxPort = await freePort(); // nothing listens yet: the receiver is down
  const first = await startServer(port);
  const login = await api(first.base, 'POST', '/api/auth/login', undefined, {
    email: ADMIN_EMAIL,
    password: ADMIN_PASSWORD,
  });
  assert.equal(login.status, 200);
  const token = login.body.token as string;
  const hook = await api(first.base, 'POST', '/api/admin/webhooks', token, {
    url: `http://127.0.0.1:${rxPort}/hook`,
  });
  assert.equal(hook.status, 201, JSON.stringify(hook.body));
  const { id: hookId, secret } = hook.body.webhook;

  // Changes through the public API: 8 creates, 4 updates, 3 comments, 1 delete.
  const issues: string[] = [];
  for (let i = 0; i < 8; i++) {
    const r = await api(first.base, 'POST', '/api/issues', token, { title: `Crash test ${i}` });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    issues.push(r.body.issue.id);
  }
  for (const id of issues.slice(0, 4)) {
    assert.equal((await api(first.base, 'PATCH', `/api/issues/${id}`, token, { priority: 2 })).status, 200);
  }
  for (const id of issues.slice(0, 3)) {
    const r = await api(first.base, 'POST', `/api/issues/${id}/comments`, token, { body: 'hello' });
    assert.equal(r.status, 201, JSON.stringify(r.body));
  }
  assert.equal((await api(first.base, 'DELETE', `/api/issues/${issues[7]}`, token)).status, 200);
  const expectedEvents = 16;

  // The receiver is down: the first delivery fails and waits for its retry.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const log = await api(first.base, 'GET', `/api/admin/webhooks/${hookId}/deliveries?limit=100`, token);
    assert.equal(log.body.pageInfo.total, expectedEvents);
    if (log.body.deliveries.some((d: any) => d.attempts.length > 0)) {
      const failed = log.body.deliveries.find((d: any) => d.attempts.length > 0);
      assert.equal(failed.attempts[0].statusCode, null);
      // Waiting for its retry, or already in the next attempt (the retry base is 200 ms here).
      assert.ok(['pending', 'delivering'].includes(failed.status), failed.status);
      break;
    }
    assert.ok(Date.now() < deadline, 'no attempt while the receiver was down');
    await sleep(50);
  }

  // The receiver comes up but never answers; kill the server mid-delivery.
  const hanging = await startReceiver(rxPort);
  hanging.reply = () => 'hang';
  await hanging.waitFor((all) => all.length >= 1, 'an attempt in flight', 30_000);
  first.child.kill('SIGKILL');
  await new Promise((r) => first.child.once('exit', r));
  await hanging.close();
  assert.equal(await expireLeases(), 1, 'the killed server held exactly one delivery');

  const rx: Receiver = await startReceiver(rxPort);
  try {
    const second = await startServer(port);
    // The interrupted delivery goes first (order), then the rest.
    await rx.waitFor(
      (all) => new Set(all.map((r) => r.headers['x-service-delivery'])).size >= expectedEvents,
      'every event after the restart',
      120_000,
    );
    const log = await api(second.base, 'GET', `/api/admin/webhooks/${hookId}/deliveries?limit=100`, token);
    const ids = log.body.deliveries.map((d: any) => d.id);
    assert.equal(ids.length, expectedEvents);
    const seen = new Set(rx.received.map((r) => String(r.headers['x-service-delivery'])));
    for (const id of ids) assert.ok(seen.has(id), `delivery ${id} arrived`);
    for (const r of rx.received) assert.ok(signatureValid(secret, r));
    // First arrival of each delivery follows event order (oldest first).
    const firstSeen = [...new Set(rx.received.map((r) => String(r.headers['x-service-delivery'])))];
    assert.deepEqual(firstSeen, [...ids].reverse());
    const kinds = rx.received.map((r) => String(r.headers['x-service-event']));
    for (const k of ['issue.create', 'issue.update', 'issue.remove', 'comment.create'])
      assert.ok(kinds.includes(k), k);
    assert.equal(
      hanging.received[0]!.headers['x-service-delivery'],
      firstSeen[0],
      'the interrupted one went first',
    );
    second.child.kill('SIGTERM');
    await new Promise((r) => second.child.once('exit', r));
  } finally {
    await rx.close();
  }
});

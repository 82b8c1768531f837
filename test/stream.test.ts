// The change stream over a real socket: what arrives, in which order, to whom,
// and what a bad request gets. Runs on PGlite and PostgreSQL alike.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { startTestApp, type TestApp } from './support/harness.js';
import { BAD_BODIES, probe } from './support/route-probes.js';
import { openSse, type SseClient } from './support/sse.js';

let t: TestApp;
let base: string;
let eng: { id: string };
const open: SseClient[] = [];

const stream = async (path = '/api/stream', token: string | null = t.adminToken, headers = {}) => {
  const c = await openSse(base, path, { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers });
  open.push(c);
  return c;
};
const ready = (c: SseClient) => c.next((e) => e.event === 'ready');
const createIssue = async (teamId: string, title: string, token = t.adminToken) => {
  const res = await t.post('/api/issues', { teamId, title }, token);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.issue as { id: string; identifier: string };
};
const eventIds = async (afterId: number) =>
  (
    await sql<{ id: number }>`select id from webhook_events where id > ${afterId} order by id`.execute(
      t.ctx.db,
    )
  ).rows.map((r) => Number(r.id));
const synced = (c: SseClient) =>
  c.events.filter((e) => e.event !== 'ready' && e.data?.syncId !== undefined).map((e) => e.data.syncId);

before(async () => {
  t = await startTestApp({ streamHeartbeatMs: 150 });
  base = await t.listen();
  eng = (await t.get('/api/teams/ENG', t.adminToken)).body.team;
});
after(async () => {
  for (const c of open) c.close();
  await t.close();
});

describe('refusals come first, as JSON', () => {
  test('no credentials: 401; a bad token: 401; nothing streamed', async () => {
    const none = await stream('/api/stream', null);
    assert.equal(none.status, 401);
    assert.equal(none.body.error.code, 'UNAUTHENTICATED');
    const bad = await stream('/api/stream', 'not-a-token');
    assert.equal(bad.status, 401);
    // Before validation, as everywhere: an anonymous caller learns nothing about the parameters.
    const both = await stream('/api/stream?after=abc&zzz=1', null);
    assert.equal(both.status, 401);
  });

  test('a bad position: 400 for ?after and for Last-Event-ID', async () => {
    for (const after of ['abc', '-1', '1.5', '9999999999999999']) {
      const res = await stream(`/api/stream?after=${encodeURIComponent(after)}`);
      assert.equal(res.status, 400, after);
      assert.equal(res.body.error.status, 400);
    }
    const header = await stream('/api/stream', t.adminToken, { 'last-event-id': 'x1' });
    assert.equal(header.status, 400);
    assert.match(header.body.error.message, /Last-Event-ID/);
  });

  test('a forged or unknown ticket: 401; unknown parameters: 400', async () => {
    const forged = await stream(
      '/api/stream?ticket=00000000-0000-0000-0000-000000000000.0.9999999999.AAAA',
      null,
    );
    assert.equal(forged.status, 401);
    const unknown = await stream('/api/stream?foo=1');
    assert.equal(unknown.status, 400);
  });
});

describe('delivery', () => {
  test('a change made after the stream opened arrives with its sync id, type and team', async () => {
    const c = await stream();
    assert.equal(c.status, 200);
    assert.match(String(c.headers['content-type']), /^text\/event-stream/);
    assert.equal(c.headers['x-content-type-options'], 'nosniff', 'the security headers of every answer');
    assert.ok(c.headers['x-request-id']);
    const start = (await ready(c)).data.syncId;
    assert.equal(start, Math.max(0, ...(await eventIds(0))));
    const issue = await createIssue(eng.id, 'Streamed');
    const e = await c.next((x) => x.event === 'issue.create' && x.data.id === issue.id);
    assert.deepEqual((await eventIds(start)).slice(0, 1), [e.data.syncId]);
    assert.equal(e.id, String(e.data.syncId));
    assert.equal(e.data.teamId, eng.id);
    assert.equal(e.data.identifier, issue.identifier);
    assert.equal(e.data.title, undefined, 'content is refetched, never streamed');
    await t.patch(`/api/issues/${issue.id}`, { title: 'Renamed' }, t.adminToken);
    const u = await c.next((x) => x.event === 'issue.update' && x.data.id === issue.id);
    assert.deepEqual(u.data.changedFields, ['title']);
  });

  test('resumed with Last-Event-ID, a stream misses nothing and repeats nothing', async () => {
    const first = await stream();
    const start = (await ready(first)).data.syncId;
    for (let i = 0; i < 3; i++) await createIssue(eng.id, `Before ${i}`);
    const now = await eventIds(start);
    await first.next((e) => e.data?.syncId === now[now.length - 1]);
    const seen = synced(first);
    first.close();
    const last = first.lastEventId!;
    for (let i = 0; i < 4; i++) await createIssue(eng.id, `While away ${i}`);
    const second = await stream('/api/stream', t.adminToken, { 'last-event-id': last });
    const expected = await eventIds(Number(last));
    await second.next((e) => e.data?.syncId === expected[expected.length - 1]);
    assert.deepEqual(synced(second), expected);
    assert.deepEqual([...seen, ...synced(second)], await eventIds(start));
  });

  test('?after= starts after that id; an id ahead of the table resets to the head', async () => {
    const ids = await eventIds(0);
    const from = ids[ids.length - 3]!;
    const c = await stream(`/api/stream?after=${from}`);
    await c.next((e) => e.data?.syncId === ids[ids.length - 1]);
    assert.deepEqual(synced(c), ids.slice(-2));
    const ahead = await stream(`/api/stream?after=${ids[ids.length - 1]! + 1000}`);
    const r = await ready(ahead);
    assert.equal(r.data.reset, true);
    assert.equal(r.data.syncId, ids[ids.length - 1]);
  });

  test('heartbeats arrive as comment lines while nothing changes', async () => {
    const c = await stream();
    await ready(c);
    await new Promise((r) => setTimeout(r, 500));
    assert.ok((c.raw().match(/^: heartbeat$/gm) ?? []).length >= 2, c.raw());
  });
});

describe('who gets what (docs/security.md)', () => {
  test('a member gets nothing of a private team they are not in, until they are added', async () => {
    const prv = (await t.post('/api/teams', { name: 'Hidden', key: 'HID', private: true }, t.adminToken)).body
      .team;
    const member = await t.userWithRole('member');
    const c = await stream('/api/stream', member.token);
    await ready(c);
    const hidden = await createIssue(prv.id, 'Secret');
    const shown = await createIssue(eng.id, 'Public');
    await c.next((e) => e.data?.id === shown.id);
    assert.ok(!c.events.some((e) => e.data?.id === hidden.id));
    assert.ok(!c.raw().includes(hidden.id) && !c.raw().includes('Secret'));
    // The resume point moved past the hidden event all the same.
    const max = Math.max(...(await eventIds(0)));
    assert.equal(c.lastEventId, String(max));

    const added = await t.post(`/api/teams/${prv.id}/members`, { userId: member.user.id }, t.adminToken);
    assert.equal(added.status, 201);
    const later = await createIssue(prv.id, 'Now visible');
    const e = await c.next((x) => x.data?.id === later.id);
    assert.equal(e.data.teamId, prv.id);
  });

  test('a guest gets their teams and workspace labels, not team-less projects or other teams', async () => {
    const other = (await t.post('/api/teams', { name: 'Other', key: 'OTH' }, t.adminToken)).body.team;
    const guest = await t.userWithRole('guest', { teams: ['ENG'] });
    const c = await stream('/api/stream', guest.token);
    const start = (await ready(c)).data.syncId;
    const away = await createIssue(other.id, 'Elsewhere');
    const project = (await t.post('/api/projects', { name: 'Workspace project', teamIds: [] }, t.adminToken))
      .body.project;
    const label = (await t.post('/api/labels', { name: 'Everyone', color: '#112233' }, t.adminToken)).body
      .label;
    const mine = await createIssue(eng.id, 'In my team');
    await c.next((e) => e.data?.id === mine.id);
    const ids = c.events.map((e) => e.data?.id);
    assert.ok(ids.includes(label.id), 'workspace label');
    assert.ok(!ids.includes(away.id), 'issue of a team the guest is not in');
    assert.ok(!ids.includes(project.id), 'project linked to no team');
    // A member sees that project.
    const member = await t.userWithRole('member');
    const m = await stream(`/api/stream?after=${start}`, member.token);
    await m.next((e) => e.data?.id === project.id);
  });

  test('a comment on a hidden issue is not sent; one on a visible issue carries its issueId', async () => {
    const prv = (await t.post('/api/teams', { name: 'Vault', key: 'VLT', private: true }, t.adminToken)).body
      .team;
    const secret = await createIssue(prv.id, 'Vaulted');
    const open1 = await createIssue(eng.id, 'Open');
    const member = await t.userWithRole('member');
    const c = await stream('/api/stream', member.token);
    await ready(c);
    await t.post(`/api/issues/${secret.id}/comments`, { body: 'hush' }, t.adminToken);
    const shown = (await t.post(`/api/issues/${open1.id}/comments`, { body: 'hello' }, t.adminToken)).body
      .comment;
    const e = await c.next((x) => x.event === 'comment.create');
    assert.equal(e.data.id, shown.id);
    assert.equal(e.data.issueId, open1.id);
    assert.ok(!c.raw().includes(secret.id));
  });

  test('a relation needs both issues visible; a project any of its teams', async () => {
    const prv = (await t.post('/api/teams', { name: 'Closed', key: 'CLO', private: true }, t.adminToken)).body
      .team;
    const inside = await createIssue(prv.id, 'Private end');
    const outside = await createIssue(eng.id, 'Public end');
    const other = await createIssue(eng.id, 'Other public end');
    const member = await t.userWithRole('member');
    const c = await stream('/api/stream', member.token);
    await ready(c);
    const hidden = await t.post(
      `/api/issues/${outside.id}/relations`,
      { type: 'blocks', relatedIssueId: inside.id },
      t.adminToken,
    );
    assert.equal(hidden.status, 201, JSON.stringify(hidden.body));
    const privateProject = (
      await t.post('/api/projects', { name: 'Closed work', teamIds: [prv.id] }, t.adminToken)
    ).body.project;
    const sharedProject = (
      await t.post('/api/projects', { name: 'Shared', teamIds: [prv.id, eng.id] }, t.adminToken)
    ).body.project;
    const shown = await t.post(
      `/api/issues/${outside.id}/relations`,
      { type: 'related', relatedIssueId: other.id },
      t.adminToken,
    );
    const e = await c.next((x) => x.event === 'relation.create');
    assert.equal(e.data.id, shown.body.relation.id);
    assert.deepEqual([e.data.issueId, e.data.relatedIssueId], [outside.id, other.id]);
    const p = await c.next((x) => x.event === 'project.create');
    assert.equal(p.data.id, sharedProject.id);
    assert.deepEqual(p.data.teamIds, [eng.id], 'only the teams the reader sees');
    for (const secret of [hidden.body.relation.id, privateProject.id, inside.id, prv.id])
      assert.ok(!c.raw().includes(secret), secret);
  });

  test('a ticket from POST /api/stream/tickets opens the stream without a header', async () => {
    const member = await t.userWithRole('member');
    const res = await t.post('/api/stream/tickets', {}, member.token);
    assert.equal(res.status, 201);
    assert.ok(Date.parse(res.body.expiresAt) > Date.now());
    const c = await stream(`/api/stream?ticket=${encodeURIComponent(res.body.ticket)}`, null);
    assert.equal(c.status, 200);
    await ready(c);
    const issue = await createIssue(eng.id, 'By ticket');
    await c.next((e) => e.data?.id === issue.id);
    assert.equal((await t.post('/api/stream/tickets', {}, undefined)).status, 401);
    // As test/route-roles.test.ts probes the write routes guests may use: refused, nothing issued.
    const guest = await t.userWithRole('guest');
    for (const body of BAD_BODIES) {
      const bad = await probe(t, 'POST', '/api/stream/tickets', body, guest.token);
      assert.ok([400, 403, 404].includes(bad.status), `${body.what}: ${bad.status}`);
    }
    const tampered = `${res.body.ticket.slice(0, -2)}xx`;
    assert.equal((await stream(`/api/stream?ticket=${encodeURIComponent(tampered)}`, null)).status, 401);
  });

  test('a suspended user’s stream ends with an unauthorized event at the next change', async () => {
    const member = await t.userWithRole('member');
    const c = await stream('/api/stream', member.token);
    await ready(c);
    const res = await t.patch(`/api/admin/users/${member.user.id}`, { status: 'suspended' }, t.adminToken);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await createIssue(eng.id, 'After suspension');
    await c.next((e) => e.event === 'unauthorized');
    await c.ended;
    assert.ok(!c.events.some((e) => e.event === 'issue.create'));
  });
});

// Issue relations over REST: both directions listed as each issue sees them,
// bad input refused with nothing changed, roles before validation, the
// private-team rule, the duplicate state move, and signed webhook events.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { UNKNOWN_ID } from './projects.fixtures.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { type Receiver, signatureValid, startReceiver } from './webhooks-support.js';

let t: TestApp;
let member: { token: string; user: any };
let guest: { token: string; user: any };
before(async () => {
  t = await startTestApp();
  member = await t.register('Relater');
  guest = await t.userWithRole('guest', { teams: ['ENG'] });
});
after(() => t.close());

async function issue(title: string, teamId?: string, token = t.adminToken) {
  const res = await t.post('/api/issues', { title, ...(teamId ? { teamId } : {}) }, token);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.issue as { id: string; identifier: string; stateId: string };
}
const relate = (from: string, type: string, to: string, token = member.token) =>
  t.post(`/api/issues/${from}/relations`, { type, relatedIssueId: to }, token);
const relationCount = async () =>
  Number(
    (
      await t.ctx.db
        .selectFrom('issue_relations')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('creating and listing', () => {
  test('each issue lists the relation as it sees it, with the other issue', async () => {
    const a = await issue('Schema change');
    const b = await issue('Release');
    const res = await relate(a.identifier, 'blocks', b.identifier.toLowerCase());
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const rel = res.body.relation;
    assert.deepEqual(
      { type: rel.type, issueId: rel.issueId, relatedIssueId: rel.relatedIssueId, creatorId: rel.creatorId },
      { type: 'blocks', issueId: a.id, relatedIssueId: b.id, creatorId: member.user.id },
    );
    const fromA = await t.get(`/api/issues/${a.id}/relations`, guest.token);
    assert.equal(fromA.status, 200);
    assert.equal(fromA.body.relations.length, 1);
    assert.equal(fromA.body.relations[0].kind, 'blocks');
    assert.equal(fromA.body.relations[0].direction, 'outgoing');
    assert.equal(fromA.body.relations[0].issue.identifier, b.identifier);
    assert.equal(fromA.body.relations[0].issue.state.type, 'backlog');
    const fromB = await t.get(`/api/issues/${b.identifier}/relations`, member.token);
    assert.equal(fromB.body.relations[0].kind, 'blocked_by');
    assert.equal(fromB.body.relations[0].direction, 'inverse');
    assert.equal(fromB.body.relations[0].issue.id, a.id);
    assert.deepEqual(fromB.body.pageInfo, { total: 1, limit: 100, offset: 0 });
    assert.equal((await t.get(`/api/relations/${rel.id}`, guest.token)).body.relation.id, rel.id);
  });

  test('blocked_by from an issue stores the other issue as the blocker', async () => {
    const a = await issue('Waits');
    const b = await issue('Goes first');
    const res = await relate(a.id, 'blocked_by', b.id);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.relation.type, 'blocks');
    assert.equal(res.body.relation.issueId, b.id);
    assert.equal(res.body.relation.relatedIssueId, a.id);
    const list = await t.get(`/api/issues/${a.id}/relations`, member.token);
    assert.equal(list.body.relations[0].kind, 'blocked_by');
  });

  test('related and similar read the same from both ends', async () => {
    const a = await issue('One');
    const b = await issue('Two');
    assert.equal((await relate(a.id, 'related', b.id)).status, 201);
    assert.equal((await relate(b.id, 'similar', a.id)).status, 201);
    const kinds = (await t.get(`/api/issues/${b.id}/relations`, member.token)).body.relations.map(
      (r: any) => r.kind,
    );
    assert.deepEqual(kinds, ['related', 'similar']);
  });
});

describe('bad input changes nothing', () => {
  test('400 for a self-relation, an unknown type, unknown fields; 404 for unknown issues; 409 for a repeat', async () => {
    const a = await issue('Alpha');
    const b = await issue('Beta');
    assert.equal((await relate(a.id, 'blocks', b.id)).status, 201);
    const before = await relationCount();
    const cases: [Promise<{ status: number; body: any }>, number, string][] = [
      [relate(a.id, 'blocks', a.identifier), 400, 'VALIDATION_FAILED'],
      [relate(a.id, 'depends', b.id), 400, 'VALIDATION_FAILED'],
      [relate(a.id, 'blocks', ''), 400, 'VALIDATION_FAILED'],
      [
        t.post(`/api/issues/${a.id}/relations`, { type: 'blocks', relatedIssueId: b.id, x: 1 }, member.token),
        400,
        'VALIDATION_FAILED',
      ],
      [t.post(`/api/issues/${a.id}/relations`, { type: 'blocks' }, member.token), 400, 'VALIDATION_FAILED'],
      [relate(a.id, 'blocks', UNKNOWN_ID), 400, 'VALIDATION_FAILED'],
      [relate(a.id, 'blocks', 'ENG-99999'), 400, 'VALIDATION_FAILED'],
      [relate(a.id, 'blocked_by', 'ENG-99999'), 400, 'VALIDATION_FAILED'],
      [relate(UNKNOWN_ID, 'blocks', b.id), 404, 'NOT_FOUND'],
      [relate(a.id, 'blocks', b.id), 409, 'CONFLICT'],
      // The same type the other way round is the same link (or a contradiction).
      [relate(b.id, 'blocks', a.id), 409, 'CONFLICT'],
      [relate(a.id, 'blocked_by', b.id), 409, 'CONFLICT'],
    ];
    for (const [pending, status, code] of cases) {
      const res = await pending;
      assert.equal(res.status, status, JSON.stringify(res.body));
      assert.equal(res.body.error.code, code);
    }
    assert.equal(await relationCount(), before);
    for (const ref of [UNKNOWN_ID, 'nope']) {
      assert.equal((await t.get(`/api/relations/${ref}`, member.token)).status, 404);
      assert.equal((await t.del(`/api/relations/${ref}`, member.token)).status, 404);
    }
    assert.equal((await t.get(`/api/issues/ENG-99999/relations`, member.token)).status, 404);
  });

  test('guests are refused before their body is looked at', async () => {
    const a = await issue('Guarded');
    const b = await issue('Other');
    const rel = (await relate(a.id, 'related', b.id)).body.relation;
    for (const res of [
      await relate(a.id, 'blocks', b.id, guest.token),
      await t.post(`/api/issues/${a.id}/relations`, { nonsense: true }, guest.token),
      await t.del(`/api/relations/${rel.id}`, guest.token),
    ]) {
      assert.equal(res.status, 403);
      assert.equal(res.body.error.code, 'FORBIDDEN');
    }
    assert.equal((await t.get(`/api/relations/${rel.id}`, member.token)).status, 200);
  });

  test('deleting removes only the relation', async () => {
    const a = await issue('Keep me');
    const b = await issue('Keep me too');
    const rel = (await relate(a.id, 'blocks', b.id)).body.relation;
    assert.deepEqual((await t.del(`/api/relations/${rel.id}`, member.token)).body, { ok: true, id: rel.id });
    assert.equal((await t.get(`/api/relations/${rel.id}`, member.token)).status, 404);
    assert.equal((await t.get(`/api/issues/${a.id}`, member.token)).status, 200);
    assert.equal((await t.get(`/api/issues/${a.id}/relations`, member.token)).body.relations.length, 0);
  });
});

describe('visibility', () => {
  test('a member outside a private team neither sees nor makes relations touching it', async () => {
    const prv = await t.post('/api/teams', { key: 'RPRV', name: 'Hidden', private: true }, t.adminToken);
    assert.equal(prv.status, 201, JSON.stringify(prv.body));
    const insider = await t.userWithRole('member', { teams: ['RPRV'] });
    const secret = await issue('Secret work', prv.body.team.id);
    const open = await issue('Open work');
    const before = await relationCount();
    // Exactly as an issue that does not exist: 400 naming the field, 404 in the path.
    const refused = await relate(open.id, 'blocks', secret.identifier);
    const unknown = await relate(open.id, 'blocks', 'RPRV-999');
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body.error.details, [
      { field: '/relatedIssueId', message: 'no issue with this id or identifier' },
    ]);
    assert.deepEqual(refused.body.error, unknown.body.error);
    assert.equal((await relate(secret.id, 'blocks', open.id)).status, 404);
    assert.equal((await relate(open.id, 'blocked_by', secret.id)).status, 400);
    assert.equal(await relationCount(), before);

    const rel = (await relate(secret.id, 'blocks', open.id, insider.token)).body.relation;
    assert.ok(rel?.id);
    const seen = await t.get(`/api/issues/${open.id}/relations`, member.token);
    assert.deepEqual(seen.body.relations, []);
    assert.equal(seen.body.pageInfo.total, 0);
    assert.equal((await t.get(`/api/relations/${rel.id}`, member.token)).status, 404);
    assert.equal((await t.del(`/api/relations/${rel.id}`, member.token)).status, 404);
    const insiderView = await t.get(`/api/issues/${open.id}/relations`, insider.token);
    assert.equal(insiderView.body.relations[0].kind, 'blocked_by');
    assert.equal(insiderView.body.relations[0].issue.identifier, secret.identifier);
  });
});

describe('duplicates', () => {
  test("marking an issue a duplicate moves it to its team's Duplicate state, with history and an event", async () => {
    const original = await issue('Login fails');
    const dup = await issue('Cannot log in');
    const res = await relate(dup.identifier, 'duplicate', original.identifier);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const moved = (await t.get(`/api/issues/${dup.id}`, member.token)).body.issue;
    const state = await t.ctx.db
      .selectFrom('workflow_states')
      .selectAll()
      .where('id', '=', moved.stateId)
      .executeTakeFirstOrThrow();
    assert.deepEqual([state.name, state.type], ['Duplicate', 'canceled']);
    const untouched = (await t.get(`/api/issues/${original.id}`, member.token)).body.issue;
    assert.equal(untouched.stateId, original.stateId);
    const history = await t.ctx.db
      .selectFrom('issue_history')
      .selectAll()
      .where('issue_id', '=', dup.id)
      .execute();
    assert.ok(history.some((h) => (h.changes as any).stateId?.to === state.id));
    // duplicated_by from the original marks the other issue the same way.
    const third = await issue('Login broken again');
    assert.equal((await relate(original.id, 'duplicated_by', third.id)).status, 201);
    assert.equal((await t.get(`/api/issues/${third.id}`, member.token)).body.issue.stateId, state.id);
  });

  test('without a state named Duplicate, the first canceled state by position', async () => {
    const team = await t.post('/api/teams', { key: 'RDUP', name: 'No duplicate state' }, t.adminToken);
    assert.equal(team.status, 201, JSON.stringify(team.body));
    const teamId = team.body.team.id;
    // The default workflow has Canceled before Duplicate; rename Duplicate away to test the fallback.
    await t.ctx.db
      .updateTable('workflow_states')
      .set({ name: 'Superseded' })
      .where('team_id', '=', teamId)
      .where('name', '=', 'Duplicate')
      .execute();
    const first = await t.ctx.db
      .selectFrom('workflow_states')
      .selectAll()
      .where('team_id', '=', teamId)
      .where('type', '=', 'canceled')
      .orderBy('position')
      .executeTakeFirstOrThrow();
    const dup = await issue('Again', teamId);
    const original = await issue('First');
    assert.equal((await relate(dup.id, 'duplicate', original.id)).status, 201);
    assert.equal((await t.get(`/api/issues/${dup.id}`, member.token)).body.issue.stateId, first.id);
  });
});

describe('webhooks', () => {
  let rx: Receiver;
  before(async () => {
    rx = await startReceiver();
  });
  after(() => rx.close());

  test('relation.create and relation.remove are signed and delivered; resourceTypes accepts relation', async () => {
    const hook = await t.post(
      '/api/admin/webhooks',
      { url: rx.url, resourceTypes: ['relation'] },
      t.adminToken,
    );
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    const { secret } = hook.body.webhook;
    const a = await issue('Hooked A');
    const b = await issue('Hooked B');
    const rel = (await relate(a.id, 'blocks', b.id)).body.relation;
    assert.equal((await t.del(`/api/relations/${rel.id}`, member.token)).status, 200);
    await rx.waitFor(
      (all) => all.some((r) => r.headers['x-service-event'] === 'relation.remove'),
      'the relation removal',
    );
    const events = rx.received.map((r) => String(r.headers['x-service-event']));
    assert.deepEqual(events, ['relation.create', 'relation.remove']);
    for (const r of rx.received) {
      assert.ok(signatureValid(secret, r));
      assert.equal(r.body.type, 'relation');
      assert.equal(r.body.data.id, rel.id);
      assert.equal(r.body.data.issueId, a.id);
      assert.equal(r.body.data.relatedIssueId, b.id);
      assert.equal(r.body.data.type, 'blocks');
      assert.equal(r.body.actor.id, member.user.id);
    }
  });
});

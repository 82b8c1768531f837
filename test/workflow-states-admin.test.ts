// Managing workflow states over REST: create, update, archive with a
// replacement (the issues move as an update of each would: history and
// events), the last state of a required type, and who may do it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let member: { token: string; user: any };
let guest: { token: string; user: any };
before(async () => {
  t = await startTestApp();
  member = await t.register('Mia Member');
  guest = await t.userWithRole('guest', { teams: ['ENG'] });
});
after(() => t.close());

async function newTeam(key: string) {
  const res = await t.post('/api/teams', { key, name: `Team ${key}` }, t.adminToken);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const states = (await t.get(`/api/workflow-states?teamId=${key}`, member.token)).body.workflowStates;
  const byName = Object.fromEntries(states.map((s: any) => [s.name, s]));
  return { team: res.body.team, states: byName as Record<string, any> };
}

/** The payloads of the issue.update events recorded for an issue. */
async function issueUpdates(issueId: string): Promise<any[]> {
  const rows = await t.ctx.db
    .selectFrom('webhook_events')
    .select('payload')
    .where('type', '=', 'issue')
    .where('action', '=', 'update')
    .execute();
  return rows
    .map((r) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload))
    .filter((p: any) => p.data?.id === issueId);
}

describe('creating and changing states', () => {
  test('create goes after the last state; update changes the held fields', async () => {
    const { team } = await newTeam('WFA');
    const res = await t.post(
      '/api/workflow-states',
      { teamId: 'WFA', name: 'QA', color: '#ABCDEF', type: 'started', description: 'Testing' },
      t.adminToken,
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const qa = res.body.workflowState;
    assert.deepEqual(
      [qa.teamId, qa.name, qa.type, qa.color, qa.position],
      [team.id, 'QA', 'started', '#abcdef', 7],
    );
    const listed = (await t.get(`/api/workflow-states?teamId=${team.id}`, member.token)).body.workflowStates;
    assert.equal(listed.at(-1).id, qa.id);

    const upd = await t.patch(
      `/api/workflow-states/${qa.id}`,
      { name: 'Quality', color: '#000000', position: -1, description: null },
      t.adminToken,
    );
    assert.equal(upd.status, 200, JSON.stringify(upd.body));
    assert.deepEqual(
      [upd.body.workflowState.name, upd.body.workflowState.color, upd.body.workflowState.description],
      ['Quality', '#000000', null],
    );
    const first = (await t.get(`/api/workflow-states?teamId=${team.id}`, member.token)).body
      .workflowStates[0];
    assert.equal(first.id, qa.id);
    assert.equal(
      (await t.get(`/api/workflow-states/${qa.id}`, member.token)).body.workflowState.name,
      'Quality',
    );
  });

  for (const [what, body] of [
    ['an unknown type', { teamId: 'ENG', name: 'X', color: '#000000', type: 'doing' }],
    ['a bad colour', { teamId: 'ENG', name: 'X', color: 'red', type: 'started' }],
    ['a blank name', { teamId: 'ENG', name: ' ', color: '#000000', type: 'started' }],
    ['an unknown team', { teamId: 'NOPE', name: 'X', color: '#000000', type: 'started' }],
    ['an unknown field', { teamId: 'ENG', name: 'X', color: '#000000', type: 'started', x: 1 }],
  ] as const) {
    test(`create: 400 for ${what}`, async () => {
      const res = await t.post('/api/workflow-states', body, t.adminToken);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'VALIDATION_FAILED');
    });
  }

  test('update: the type cannot change; 404 for an unknown state', async () => {
    const { states } = await newTeam('WFT');
    const res = await t.patch(`/api/workflow-states/${states.Todo.id}`, { type: 'started' }, t.adminToken);
    assert.equal(res.status, 400);
    const unknown = '00000000-0000-0000-0000-000000000000';
    assert.equal((await t.patch(`/api/workflow-states/${unknown}`, { name: 'x' }, t.adminToken)).status, 404);
  });
});

describe('archiving a state', () => {
  test('its issues move to the replacement, with history and an issue.update event each', async () => {
    const { states } = await newTeam('WFM');
    const a = (
      await t.post(
        '/api/issues',
        { title: 'a', teamId: 'WFM', stateId: states['In Review'].id },
        member.token,
      )
    ).body.issue;
    const b = (
      await t.post(
        '/api/issues',
        { title: 'b', teamId: 'WFM', stateId: states['In Review'].id },
        member.token,
      )
    ).body.issue;
    await t.post(`/api/issues/${b.id}/archive`, {}, member.token);
    const other = (await t.post('/api/issues', { title: 'c', teamId: 'WFM' }, member.token)).body.issue;

    const res = await t.post(
      `/api/workflow-states/${states['In Review'].id}/archive`,
      { replacementStateId: states.Done.id },
      t.adminToken,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(res.body.workflowState.archivedAt);

    for (const issue of [a, b]) {
      const now = (await t.get(`/api/issues/${issue.id}`, member.token)).body.issue;
      assert.equal(now.stateId, states.Done.id);
      assert.ok(now.completedAt, 'completion time follows the new type');
      const history = (await t.get(`/api/issues/${issue.id}/history`, member.token)).body.history;
      assert.deepEqual(history.at(-1).changes.stateId, { from: states['In Review'].id, to: states.Done.id });
      const moved = (await issueUpdates(issue.id)).find((p) => p.updatedFrom?.stateId);
      assert.ok(moved, 'an issue.update event for the move');
      assert.equal(moved.updatedFrom.stateId, states['In Review'].id);
      assert.equal(moved.data.stateId, states.Done.id);
    }
    assert.equal(
      (await t.get(`/api/issues/${other.id}`, member.token)).body.issue.stateId,
      states.Backlog.id,
    );
    // Gone from the list; no issue can be put in it any more.
    const listed = (await t.get('/api/workflow-states?teamId=WFM', member.token)).body.workflowStates;
    assert.equal(
      listed.some((s: any) => s.id === states['In Review'].id),
      false,
    );
    const put = await t.patch(`/api/issues/${other.id}`, { stateId: states['In Review'].id }, member.token);
    assert.equal(put.status, 400);
    assert.equal(put.body.error.details[0].field, '/stateId');
  });

  test('issues put in the state while it is archived end up in a live state', async () => {
    // On PostgreSQL the updates run beside the archive: each either lands first
    // (and is moved) or waits and is refused. On PGlite they take turns.
    const { states } = await newTeam('WFC');
    const issues = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        t.post('/api/issues', { title: `c${i}`, teamId: 'WFC' }, member.token),
      ),
    );
    const review = states['In Review'].id;
    // Two are in the state already and are set to it again: the archive locks their
    // rows before the states so that this cannot deadlock. (This run does not force
    // that interleaving; it checks the outcome whatever the order.)
    const inReview = await Promise.all(
      [0, 1].map((i) =>
        t.post('/api/issues', { title: `r${i}`, teamId: 'WFC', stateId: review }, member.token),
      ),
    );
    const [archived, ...moves] = await Promise.all([
      t.post(`/api/workflow-states/${review}/archive`, { replacementStateId: states.Done.id }, t.adminToken),
      ...issues.map((r) => t.patch(`/api/issues/${r.body.issue.id}`, { stateId: review }, member.token)),
      ...inReview.map((r) =>
        t.patch(`/api/issues/${r.body.issue.id}`, { stateId: review, priority: 1 }, member.token),
      ),
    ]);
    const sameState = moves.splice(issues.length);
    for (const [i, res] of sameState.entries()) {
      assert.ok(res.status === 200 || res.status === 400, `${res.status} ${JSON.stringify(res.body)}`);
      const now = (await t.get(`/api/issues/${inReview[i]!.body.issue.id}`, member.token)).body.issue;
      assert.equal(now.stateId, states.Done.id);
    }
    assert.equal(archived.status, 200, JSON.stringify(archived.body));
    for (const [i, res] of moves.entries()) {
      assert.ok(res.status === 200 || res.status === 400, `${res.status} ${JSON.stringify(res.body)}`);
      const now = (await t.get(`/api/issues/${issues[i]!.body.issue.id}`, member.token)).body.issue;
      assert.equal(now.stateId, res.status === 200 ? states.Done.id : states.Backlog.id);
    }
  });

  test('without a replacement: refused while it has issues, fine when empty', async () => {
    const { states } = await newTeam('WFE');
    const issue = (
      await t.post('/api/issues', { title: 'x', teamId: 'WFE', stateId: states.Duplicate.id }, member.token)
    ).body.issue;
    const refused = await t.post(`/api/workflow-states/${states.Duplicate.id}/archive`, {}, t.adminToken);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.details[0].field, '/replacementStateId');
    assert.equal(
      (await t.get(`/api/workflow-states/${states.Duplicate.id}`, member.token)).body.workflowState
        .archivedAt,
      null,
    );
    await t.patch(`/api/issues/${issue.id}`, { stateId: states.Canceled.id }, member.token);
    const noBody = await t.request('POST', `/api/workflow-states/${states.Duplicate.id}/archive`, {
      token: t.adminToken,
    });
    assert.equal(noBody.status, 200, JSON.stringify(noBody.body));
    // Archiving again changes nothing.
    const again = await t.post(`/api/workflow-states/${states.Duplicate.id}/archive`, {}, t.adminToken);
    assert.equal(again.body.workflowState.archivedAt, noBody.body.workflowState.archivedAt);
  });

  test('the last state of a required type stays; triage may go', async () => {
    const { states } = await newTeam('WFL');
    for (const name of ['Backlog', 'Todo', 'Done']) {
      const res = await t.post(`/api/workflow-states/${states[name].id}/archive`, {}, t.adminToken);
      assert.equal(res.status, 400, name);
      assert.match(res.body.error.message, /last/);
    }
    // Two started states: the first may go, the second is then the last.
    assert.equal(
      (await t.post(`/api/workflow-states/${states['In Progress'].id}/archive`, {}, t.adminToken)).status,
      200,
    );
    assert.equal(
      (await t.post(`/api/workflow-states/${states['In Review'].id}/archive`, {}, t.adminToken)).status,
      400,
    );
    const triage = (
      await t.post(
        '/api/workflow-states',
        { teamId: 'WFL', name: 'Triage', color: '#ff0000', type: 'triage' },
        t.adminToken,
      )
    ).body.workflowState;
    assert.equal((await t.post(`/api/workflow-states/${triage.id}/archive`, {}, t.adminToken)).status, 200);
  });

  test('the replacement must be another live state of the same team', async () => {
    const { states } = await newTeam('WFR');
    const other = await newTeam('WFS');
    await t.post('/api/issues', { title: 'x', teamId: 'WFR', stateId: states.Todo.id }, member.token);
    await t.post(
      '/api/workflow-states',
      { teamId: 'WFR', name: 'Ready', color: '#00ff00', type: 'unstarted' },
      t.adminToken,
    );
    await t.post(`/api/workflow-states/${states.Duplicate.id}/archive`, {}, t.adminToken);
    for (const replacementStateId of [
      other.states.Todo.id,
      states.Todo.id,
      states.Duplicate.id,
      '00000000-0000-0000-0000-000000000000',
    ]) {
      const res = await t.post(
        `/api/workflow-states/${states.Todo.id}/archive`,
        { replacementStateId },
        t.adminToken,
      );
      assert.equal(res.status, 400, replacementStateId);
      assert.equal(res.body.error.details[0].field, '/replacementStateId');
    }
    assert.equal(
      (
        await t.post(
          `/api/workflow-states/${states.Todo.id}/archive`,
          { replacementStateId: 'x' },
          t.adminToken,
        )
      ).status,
      400,
    );
    assert.equal(
      (await t.get(`/api/workflow-states/${states.Todo.id}`, member.token)).body.workflowState.archivedAt,
      null,
    );
  });
});

describe('who may manage states', () => {
  test('members and guests get 403 and nothing changes', async () => {
    const { states } = await newTeam('WFP');
    for (const who of [member, guest]) {
      const writes = [
        t.post(
          '/api/workflow-states',
          { teamId: 'WFP', name: 'X', color: '#000000', type: 'started' },
          who.token,
        ),
        t.patch(`/api/workflow-states/${states.Todo.id}`, { name: 'Hijacked' }, who.token),
        t.post(`/api/workflow-states/${states['In Review'].id}/archive`, {}, who.token),
      ];
      for (const res of await Promise.all(writes)) assert.equal(res.status, 403, JSON.stringify(res.body));
    }
    const listed = (await t.get('/api/workflow-states?teamId=WFP', member.token)).body.workflowStates;
    assert.equal(listed.length, 7);
    assert.ok(listed.some((s: any) => s.name === 'Todo'));
  });
});

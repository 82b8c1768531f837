import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { LABEL_PALETTE } from '../src/modules/labels/service.js';
import { apiKeyFor, sdk } from './graphql-helpers.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let member: { token: string; user: any };
let guest: { token: string; user: any };
let eng: any;
const NO_ID = '00000000-0000-0000-0000-000000000000';

const labelEvents = async (action: string) =>
  (
    await t.ctx.db
      .selectFrom('webhook_events')
      .selectAll()
      .where('type', '=', 'label')
      .where('action', '=', action)
      .orderBy('id')
      .execute()
  ).map((r) => r.payload as any);

before(async () => {
  t = await startTestApp();
  member = await t.register('Lea Labeller');
  guest = await t.userWithRole('guest', { teams: ['ENG'] });
  eng = (await t.get('/api/teams/ENG', member.token)).body.team;
});
after(() => t.close());

describe('labels', () => {
  test('create a workspace label and a team label; label.create events', async () => {
    const ws = await t.post(
      '/api/labels',
      { name: 'Urgent-ish', color: '#FF0000', description: 'Hot' },
      member.token,
    );
    assert.equal(ws.status, 201, JSON.stringify(ws.body));
    assert.equal(ws.body.label.teamId, null);
    assert.equal(ws.body.label.color, '#ff0000');
    assert.equal(ws.body.label.creatorId, member.user.id);
    const team = await t.post(
      '/api/labels',
      { name: 'Backend', color: '#00ff00', teamId: 'ENG' },
      member.token,
    );
    assert.equal(team.status, 201);
    assert.equal(team.body.label.teamId, eng.id);
    const evs = await labelEvents('create');
    assert.ok(evs.some((e) => e.data.id === ws.body.label.id && e.data.name === 'Urgent-ish'));
  });

  test('409 for a duplicate name in the same scope, case-insensitively; fine in another scope', async () => {
    const dup = await t.post('/api/labels', { name: 'bug', color: '#000000' }, member.token);
    assert.equal(dup.status, 409);
    assert.equal(dup.body.error.code, 'CONFLICT');
    await t.post('/api/labels', { name: 'Frontend', color: '#000000', teamId: eng.id }, member.token);
    const dupTeam = await t.post(
      '/api/labels',
      { name: 'FRONTEND', color: '#000000', teamId: eng.id },
      member.token,
    );
    assert.equal(dupTeam.status, 409);
    await t.post('/api/teams', { key: 'DES', name: 'Design' }, t.adminToken);
    const otherTeam = await t.post(
      '/api/labels',
      { name: 'Frontend', color: '#000000', teamId: 'DES' },
      member.token,
    );
    assert.equal(otherTeam.status, 201);
  });

  test('groups: parentId makes the parent a group; nesting and cross-team refused', async () => {
    const group = (await t.post('/api/labels', { name: 'Area', color: '#111111' }, member.token)).body.label;
    const child = await t.post(
      '/api/labels',
      { name: 'Area: API', color: '#222222', parentId: group.id },
      member.token,
    );
    assert.equal(child.status, 201);
    assert.equal(child.body.label.parentId, group.id);
    const groupNow = await t.get(`/api/labels/${group.id}`, member.token);
    assert.equal(groupNow.body.label.isGroup, true);
    const nested = await t.post(
      '/api/labels',
      { name: 'Too deep', color: '#333333', parentId: child.body.label.id },
      member.token,
    );
    assert.equal(nested.status, 400);
    assert.equal(nested.body.error.details[0].field, '/parentId');
    const teamGroup = (
      await t.post('/api/labels', { name: 'DES group', color: '#111111', teamId: 'DES' }, member.token)
    ).body.label;
    const cross = await t.post(
      '/api/labels',
      { name: 'Cross', color: '#111111', teamId: 'ENG', parentId: teamGroup.id },
      member.token,
    );
    assert.equal(cross.status, 400);
  });

  for (const [what, body] of [
    ['missing name', { color: '#000000' }],
    ['blank name', { name: ' ', color: '#000000' }],
    ['bad colour', { name: 'x', color: 'blue' }],
    ['short colour', { name: 'x', color: '#fff' }],
    ['unknown team', { name: 'x', color: '#000000', teamId: 'NOPE' }],
    ['unknown parent', { name: 'x', color: '#000000', parentId: NO_ID }],
    ['unknown field', { name: 'x', color: '#000000', kind: 'y' }],
  ] as const) {
    test(`400 for ${what}`, async () => {
      const res = await t.post('/api/labels', body, member.token);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'VALIDATION_FAILED');
    });
  }

  test('update: rename, recolour; 409 on a taken name; label.update with updatedFrom', async () => {
    const l = (await t.post('/api/labels', { name: 'Old name', color: '#101010' }, member.token)).body.label;
    const res = await t.patch(`/api/labels/${l.id}`, { name: 'New name', color: '#202020' }, member.token);
    assert.equal(res.status, 200);
    assert.equal(res.body.label.name, 'New name');
    const ev = (await labelEvents('update')).find((e) => e.data.id === l.id);
    assert.equal(ev.updatedFrom.name, 'Old name');
    assert.equal(ev.updatedFrom.color, '#101010');
    assert.equal((await t.patch(`/api/labels/${l.id}`, { name: 'FEATURE' }, member.token)).status, 409);
    assert.equal((await t.patch(`/api/labels/${l.id}`, { color: 'red' }, member.token)).status, 400);
    assert.equal((await t.patch(`/api/labels/${l.id}`, {}, member.token)).status, 400);
    assert.equal((await t.patch(`/api/labels/${NO_ID}`, { name: 'x' }, member.token)).status, 404);
  });

  test('delete removes it from issues; label.remove', async () => {
    const l = (await t.post('/api/labels', { name: 'Temporary', color: '#101010' }, member.token)).body.label;
    const issue = (await t.post('/api/issues', { title: 'Tagged', labelIds: [l.id] }, member.token)).body
      .issue;
    assert.deepEqual(issue.labelIds, [l.id]);
    const res = await t.del(`/api/labels/${l.id}`, member.token);
    assert.equal(res.status, 200);
    assert.deepEqual((await t.get(`/api/issues/${issue.id}`, member.token)).body.issue.labelIds, []);
    assert.ok((await labelEvents('remove')).some((e) => e.data.id === l.id));
    assert.equal((await t.del(`/api/labels/${l.id}`, member.token)).status, 404);
    assert.equal((await t.get(`/api/labels/${l.id}`, member.token)).status, 404);
  });

  test('guests read labels but get 403 on every write', async () => {
    assert.equal((await t.get('/api/labels', guest.token)).status, 200);
    const l = (await t.post('/api/labels', { name: 'Guarded', color: '#101010' }, member.token)).body.label;
    const c = await t.post('/api/labels', { name: 'By guest', color: '#101010' }, guest.token);
    assert.equal(c.status, 403);
    assert.equal(c.body.error.code, 'FORBIDDEN');
    assert.equal((await t.patch(`/api/labels/${l.id}`, { name: 'x' }, guest.token)).status, 403);
    assert.equal((await t.del(`/api/labels/${l.id}`, guest.token)).status, 403);
  });
});

describe('labels without a colour', () => {
  test('get one from the palette, picked by the name: REST, and GraphQL through @linear/sdk', async () => {
    const rest = await t.post('/api/labels', { name: 'Needs design' }, member.token);
    assert.equal(rest.status, 201, JSON.stringify(rest.body));
    assert.ok((LABEL_PALETTE as readonly string[]).includes(rest.body.label.color), rest.body.label.color);
    // The same name in another scope gets the same colour.
    const again = await t.post('/api/labels', { name: 'needs design', teamId: eng.id }, member.token);
    assert.equal(again.status, 201, JSON.stringify(again.body));
    assert.equal(again.body.label.color, rest.body.label.color);

    const base = await t.listen();
    const client = sdk(base, await apiKeyFor(t, member.token));
    const created = await client.createIssueLabel({ name: 'Imported', teamId: eng.id });
    assert.equal(created.success, true);
    const label = await created.issueLabel;
    assert.ok((LABEL_PALETTE as readonly string[]).includes(label!.color), label!.color);
    // A colour that is given is kept, and a bad one is still refused.
    const given = await t.post('/api/labels', { name: 'Red', color: '#FF0000' }, member.token);
    assert.equal(given.body.label.color, '#ff0000');
    assert.equal((await t.post('/api/labels', { name: 'Bad', color: 'red' }, member.token)).status, 400);
  });
});

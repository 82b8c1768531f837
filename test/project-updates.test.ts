// Project updates (issue 26): REST and GraphQL through the real @linear/sdk
// client, the project's health following its newest update, who may write,
// edit and remove one, their events, the private-team rule, and bad input
// refused with nothing changed (a property over hostile values).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type LinearClient, ProjectUpdateHealthType } from '@linear/sdk';
import fc from 'fast-check';
import { runGraphql } from '../src/graphql/execute.js';
import { graphqlSchema } from '../src/graphql/routes.js';
import { apiKeyFor, gql, sdk } from './graphql-helpers.js';
import { hostileJson, hostileString } from './support/fuzz/values.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let base: string;
let member: { token: string; user: any };
let other: { token: string; user: any };
let guest: { token: string; user: any };
let project: any;
let secret: any;
let client: LinearClient;
let memberKey: string;
const PU_CREATE =
  'mutation($input: ProjectUpdateCreateInput!) { projectUpdateCreate(input: $input) { success } }';

const events = async (type: string) =>
  (
    await t.ctx.db
      .selectFrom('webhook_events')
      .select(['action', 'payload'])
      .where('type', '=', type)
      .orderBy('id')
      .execute()
  ).map((r) => ({
    action: r.action,
    data: (r.payload as any).data,
    updatedFrom: (r.payload as any).updatedFrom,
  }));
const updateCount = async () =>
  Number(
    (
      await t.ctx.db
        .selectFrom('project_updates')
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

before(async () => {
  t = await startTestApp();
  base = await t.listen();
  member = await t.register('Mia Member');
  other = await t.register('Oskar Other');
  guest = await t.userWithRole('guest', { teams: ['ENG'] });
  project = (await t.post('/api/projects', { name: 'Launch', memberIds: [other.user.id] }, member.token)).body
    .project;
  await t.post('/api/teams', { key: 'SEC', name: 'Secret', private: true }, t.adminToken);
  secret = (await t.post('/api/projects', { name: 'Hidden plan', teamIds: ['SEC'] }, t.adminToken)).body
    .project;
  memberKey = await apiKeyFor(t, member.token);
  client = sdk(base, memberKey);
});
after(() => t.close());

describe('REST', () => {
  test('post an update: listed newest first, and the project takes its health', async () => {
    const first = await t.post(
      `/api/projects/${project.id}/updates`,
      { body: 'Going well', health: 'onTrack' },
      member.token,
    );
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const u = first.body.projectUpdate;
    assert.equal(u.body, 'Going well');
    assert.equal(u.health, 'onTrack');
    assert.equal(u.projectId, project.id);
    assert.deepEqual(u.user, { id: member.user.id, name: 'Mia Member' });
    assert.match(u.url, new RegExp(`/project/launch-${project.slugId}#update-`));

    const second = await t.post(
      `/api/projects/${project.slugId}/updates`,
      { body: 'Blocked on review', health: 'atRisk' },
      other.token,
    );
    assert.equal(second.status, 201);
    const list = (await t.get(`/api/projects/${project.id}/updates`, guest.token)).body;
    assert.deepEqual(
      list.projectUpdates.map((x: any) => x.body),
      ['Blocked on review', 'Going well'],
    );
    assert.equal(list.pageInfo.total, 2);
    assert.equal((await t.get(`/api/projects/${project.id}`, member.token)).body.project.health, 'atRisk');

    const created = (await events('projectUpdate')).filter((e) => e.action === 'create');
    assert.ok(created.some((e) => e.data.id === second.body.projectUpdate.id && e.data.health === 'atRisk'));
    const projectEvents = (await events('project')).filter(
      (e) => e.action === 'update' && e.data.id === project.id,
    );
    assert.deepEqual(projectEvents.at(-1)!.updatedFrom.health, 'onTrack');
  });

  test('only the author or an admin edits, archives or deletes; guests do not post', async () => {
    const u = (await t.post(`/api/projects/${project.id}/updates`, { body: 'Mine' }, member.token)).body
      .projectUpdate;
    assert.equal(
      (await t.patch(`/api/project-updates/${u.id}`, { body: 'Theirs' }, other.token)).status,
      403,
    );
    assert.equal(
      (await t.post(`/api/projects/${project.id}/updates`, { body: 'Guest' }, guest.token)).status,
      403,
    );
    const edited = await t.patch(
      `/api/project-updates/${u.id}`,
      { body: 'Mine, edited', health: 'offTrack' },
      member.token,
    );
    assert.equal(edited.status, 200);
    assert.equal(edited.body.projectUpdate.health, 'offTrack');
    assert.ok(edited.body.projectUpdate.editedAt);
    // It is the newest: the project follows its health.
    assert.equal((await t.get(`/api/projects/${project.id}`, member.token)).body.project.health, 'offTrack');
    const archived = await t.post(`/api/project-updates/${u.id}/archive`, {}, t.adminToken);
    assert.ok(archived.body.projectUpdate.archivedAt);
    const live = (await t.get(`/api/projects/${project.id}/updates`, member.token)).body.projectUpdates;
    assert.ok(!live.some((x: any) => x.id === u.id));
    assert.equal((await t.del(`/api/project-updates/${u.id}`, member.token)).status, 200);
    assert.equal((await t.get(`/api/project-updates/${u.id}`, member.token)).status, 404);
  });

  test('a project out of sight: 404 for its updates, nothing written', async () => {
    const u = (
      await t.post(`/api/projects/${secret.id}/updates`, { body: 'psst', health: 'offTrack' }, t.adminToken)
    ).body.projectUpdate;
    const count = await updateCount();
    assert.equal((await t.get(`/api/projects/${secret.id}/updates`, guest.token)).status, 404);
    assert.equal((await t.get(`/api/project-updates/${u.id}`, guest.token)).status, 404);
    assert.equal((await t.get(`/api/project-updates/${u.id}`, member.token)).status, 404);
    assert.equal(
      (await t.post(`/api/projects/${secret.id}/updates`, { body: 'x' }, member.token)).status,
      404,
    );
    assert.equal((await t.patch(`/api/project-updates/${u.id}`, { body: 'x' }, member.token)).status, 404);
    assert.equal(await updateCount(), count);
  });

  test('property: a bad body or health is a 400, and nothing changes', async () => {
    const count = await updateCount();
    const before = (await t.get(`/api/projects/${project.id}`, member.token)).body.project.health;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record({ body: fc.oneof(hostileJson, fc.constant('x'.repeat(100_001))) }),
          fc.record({ body: fc.constant('ok'), health: fc.oneof(hostileString, hostileJson) }),
          fc.record({ body: fc.constant('ok'), extra: hostileJson }),
        ),
        async (payload) => {
          fc.pre(
            !(
              typeof (payload as any).body === 'string' &&
              (payload as any).body.length <= 100_000 &&
              !('health' in payload) &&
              !('extra' in payload)
            ),
          );
          fc.pre(!['onTrack', 'atRisk', 'offTrack'].includes((payload as any).health));
          const res = await t.post(`/api/projects/${project.id}/updates`, payload, member.token);
          assert.equal(res.status, 400, `${JSON.stringify(payload).slice(0, 200)} -> ${res.status}`);
        },
      ),
      { numRuns: 40 },
    );
    assert.equal(await updateCount(), count);
    assert.equal((await t.get(`/api/projects/${project.id}`, member.token)).body.project.health, before);
  });
});

describe('GraphQL (@linear/sdk)', () => {
  test('projectUpdateCreate, Project.projectUpdates and health, projectUpdateUpdate, projectUpdateArchive', async () => {
    const p = (await (await client.createProject({ name: 'SDK project', teamIds: [] as string[] })).project)!;
    const created = await client.createProjectUpdate({
      projectId: p.id,
      body: 'Kick-off',
      health: ProjectUpdateHealthType.OnTrack,
    });
    assert.equal(created.success, true);
    const u = (await created.projectUpdate)!;
    assert.equal(u.body, 'Kick-off');
    assert.equal(u.health, 'onTrack');
    assert.equal((await u.user)!.id, member.user.id);
    assert.equal((await u.project)!.id, p.id);

    await client.updateProjectUpdate(u.id, { health: ProjectUpdateHealthType.AtRisk });
    const read = await client.project(p.id);
    assert.equal(read.health, 'atRisk');
    assert.ok(read.healthUpdatedAt);
    assert.equal((await read.lastUpdate)!.id, u.id);
    assert.deepEqual(
      (await read.projectUpdates()).nodes.map((n) => n.id),
      [u.id],
    );
    assert.ok((await client.projectUpdates()).nodes.some((n) => n.id === u.id));
    assert.equal((await client.projectUpdate(u.id)).health, 'atRisk');

    const archived = await client.archiveProjectUpdate(u.id);
    assert.equal(archived.success, true);
    assert.equal((await (await client.project(p.id)).projectUpdates()).nodes.length, 0);
    assert.equal(await (await client.project(p.id)).lastUpdate, undefined);
  });

  test('property: projectUpdateCreate with a bad body or health is a user error, nothing changed', async () => {
    const count = await updateCount();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record({ body: fc.constant('x'.repeat(100_001)) }),
          fc.record({ body: fc.constant('ok'), health: hostileString }),
        ),
        async (extra) => {
          const res = await gql(base, memberKey, PU_CREATE, { input: { projectId: project.id, ...extra } });
          assert.ok(res.body.errors?.length, JSON.stringify(res.body));
          assert.notEqual(res.body.errors[0].extensions.code, 'INTERNAL');
        },
      ),
      { numRuns: 25 },
    );
    assert.equal(await updateCount(), count);
  });

  test('bad input is a user error with nothing changed', async () => {
    const count = await updateCount();
    await assert.rejects(client.createProjectUpdate({ projectId: secret.id, body: 'x' }), /projectId/);
    await assert.rejects(
      client.createProjectUpdate({ projectId: project.id, body: 'x'.repeat(100_001) }),
      /body/,
    );
    const guestClient = sdk(base, await apiKeyFor(t, guest.token));
    await assert.rejects(guestClient.createProjectUpdate({ projectId: project.id, body: 'x' }), /Guests/);
    assert.equal(await updateCount(), count);
  });

  test('the compiled read and the resolver fallback answer the same', async () => {
    const query = `{ projects(first: 20) { nodes { id health healthUpdatedAt lastUpdate { id health user { name } }
      projectUpdates(first: 10) { nodes { id body health url slugId editedAt archivedAt isDiffHidden user { id } project { id } } } } }
      projectUpdates(first: 20) { nodes { id health project { name } } } }`;
    for (const who of [member, guest]) {
      const row = await t.ctx.db
        .selectFrom('users')
        .select(['id', 'role', 'name', 'email'])
        .where('id', '=', who.user.id)
        .executeTakeFirstOrThrow();
      const actor = { ...row, role: row.role as 'member', via: 'apiKey' as const };
      const answer = async (compiled: boolean) => {
        const app = { ...t.ctx, config: { ...t.ctx.config, graphqlCompiledReads: compiled } };
        const res = await runGraphql(graphqlSchema(), app, { ...actor }, { query });
        return JSON.parse(res.json ?? JSON.stringify(res.body));
      };
      const compiled = await answer(true);
      const resolved = await answer(false);
      assert.equal(resolved.errors, undefined, JSON.stringify(resolved.errors));
      assert.deepEqual(resolved, compiled);
      assert.ok(compiled.data.projectUpdates.nodes.length > 0);
      assert.ok(!JSON.stringify(compiled).includes('Hidden plan'));
    }
  });
});

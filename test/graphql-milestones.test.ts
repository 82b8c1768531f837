// Project milestones through the real @linear/sdk client: create, read,
// update, delete, Project.projectMilestones, Issue.projectMilestone, the
// filters, visibility, and statements per query (no N+1).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { InvalidInputLinearError, type LinearClient } from '@linear/sdk';
import { runGraphql } from '../src/graphql/execute.js';
import { graphqlSchema } from '../src/graphql/routes.js';
import { apiKeyFor, gql, sdk, startGraphqlApp } from './graphql-helpers.js';
import type { TestApp } from './support/harness.js';
import { StatementCounter } from './support/statement-counter.js';

let t: TestApp;
let base: string;
let key: string;
let client: LinearClient;
let teamId: string;

before(async () => {
  ({ t, base, key, client, teamId } = await startGraphqlApp());
});
after(() => t.close());

async function project(name: string, teamIds = [teamId]) {
  return (await (
    await client.createProject({ name, teamIds })
  ).project)!;
}

async function milestone(projectId: string, name: string, extra: Record<string, unknown> = {}) {
  const res = await client.createProjectMilestone({ projectId, name, ...extra });
  assert.equal(res.success, true);
  return (await res.projectMilestone)!;
}

describe('milestones through the SDK', () => {
  test('create, read back, update, list on the project, delete', async () => {
    const p = await project('Roadmap');
    const m = await milestone(p.id, 'Beta', { description: 'first cut', targetDate: '2099-03-01' });
    assert.equal(m.name, 'Beta');
    assert.equal(m.description, 'first cut');
    assert.equal(m.targetDate, '2099-03-01');
    assert.equal(m.sortOrder, 0);
    assert.equal(m.progress, 0);
    assert.equal(m.status, 'next');
    assert.equal(m.archivedAt, undefined);
    assert.equal((await m.project)!.id, p.id);

    const second = await milestone(p.id, 'GA');
    assert.equal(second.sortOrder, 1);
    const read = await client.projectMilestone(m.id);
    assert.equal(read.name, 'Beta');

    const updated = await client.updateProjectMilestone(m.id, { name: 'Beta 2', targetDate: null as never });
    const after = (await updated.projectMilestone)!;
    assert.equal(after.name, 'Beta 2');
    assert.equal(after.targetDate, undefined);

    const list = await (await client.project(p.id)).projectMilestones();
    assert.deepEqual(list.nodes.map((n) => n.name).sort(), ['Beta 2', 'GA']);

    // The project may be named by its slug id, as the third-party schema allows.
    const bySlug = await milestone(p.slugId, 'By slug');
    assert.equal((await bySlug.project)!.id, p.id);
    assert.equal(bySlug.sortOrder, 2);
    await client.deleteProjectMilestone(bySlug.id);

    const removed = await client.deleteProjectMilestone(second.id);
    assert.equal(removed.success, true);
    assert.equal(removed.entityId, second.id);
    await assert.rejects(client.projectMilestone(second.id), /not found/i);
  });

  test('bad input is refused as invalid input and changes nothing', async () => {
    const p = await project('Strict GQL');
    await assert.rejects(
      client.createProjectMilestone({ projectId: p.id, name: '  ' }),
      InvalidInputLinearError,
    );
    await assert.rejects(
      client.createProjectMilestone({ projectId: p.id, name: 'x', targetDate: '2026-13-01' }),
      /TimelessDate|targetDate/,
    );
    await assert.rejects(
      client.createProjectMilestone({ projectId: '00000000-0000-4000-8000-000000000000', name: 'x' }),
      InvalidInputLinearError,
    );
    const other = await project('Other GQL');
    const m = await milestone(p.id, 'Stays');
    await assert.rejects(
      client.updateProjectMilestone(m.id, { projectId: other.id }),
      InvalidInputLinearError,
    );
    assert.equal((await p.projectMilestones()).nodes.length, 1);
  });

  test('issues: projectMilestoneId on create and update; Issue.projectMilestone; milestone.issues', async () => {
    const p = await project('Issued');
    const m = await milestone(p.id, 'With issues');
    const created = await client.createIssue({ teamId, title: 'In a milestone', projectMilestoneId: m.id });
    const issue = (await created.issue)!;
    assert.equal((await issue.project)!.id, p.id);
    assert.equal((await issue.projectMilestone)!.id, m.id);
    const issues = await (await client.projectMilestone(m.id)).issues();
    assert.deepEqual(
      issues.nodes.map((n) => n.id),
      [issue.id],
    );
    const other = await project('Moved to');
    await client.updateIssue(issue.id, { projectId: other.id });
    const moved = await client.issue(issue.id);
    assert.equal(moved.projectMilestone, undefined);
    await assert.rejects(
      client.updateIssue(issue.id, { projectId: other.id, projectMilestoneId: m.id }),
      InvalidInputLinearError,
    );
  });

  test('progress and status follow the issues', async () => {
    const p = await project('Measured');
    const m = await milestone(p.id, 'Half');
    const states = await (await client.team(teamId)).states();
    const done = states.nodes.find((s) => s.type === 'completed')!;
    await client.createIssue({ teamId, title: 'a', projectMilestoneId: m.id, stateId: done.id });
    await client.createIssue({ teamId, title: 'b', projectMilestoneId: m.id });
    const res = await gql(
      base,
      key,
      'query($id: String!) { projectMilestone(id: $id) { progress status project { progress } } }',
      { id: m.id },
    );
    assert.deepEqual(res.body.data.projectMilestone, {
      progress: 0.5,
      status: 'next',
      project: { progress: 0.5 },
    });
  });
});

describe('filters', () => {
  test('IssueFilter.projectMilestone, ProjectFilter.projectMilestones, ProjectMilestoneFilter', async () => {
    const p = await project('Filtered');
    const q = await project('Unmarked');
    const m = await milestone(p.id, 'Needle', { targetDate: '2098-01-01' });
    await milestone(p.id, 'Hay');
    const inside = (await (
      await client.createIssue({ teamId, title: 'inside', projectMilestoneId: m.id })
    ).issue)!;
    const outside = (await (await client.createIssue({ teamId, title: 'outside', projectId: p.id })).issue)!;

    const byMilestone = await client.issues({ filter: { projectMilestone: { name: { eq: 'Needle' } } } });
    assert.deepEqual(
      byMilestone.nodes.map((n) => n.id),
      [inside.id],
    );
    const noMilestone = await client.issues({
      filter: { project: { id: { eq: p.id } }, projectMilestone: { null: true } },
    });
    assert.deepEqual(
      noMilestone.nodes.map((n) => n.id),
      [outside.id],
    );
    const withSome = await client.projects({
      filter: { projectMilestones: { some: { name: { eq: 'Needle' } } } },
    });
    assert.deepEqual(
      withSome.nodes.map((n) => n.id),
      [p.id],
    );
    const without = await client.projects({
      filter: { id: { in: [p.id, q.id] }, projectMilestones: { length: { eq: 0 } } },
    });
    assert.deepEqual(
      without.nodes.map((n) => n.id),
      [q.id],
    );
    const byDate = await client.projectMilestones({
      filter: { targetDate: { lt: '2099-01-01' }, project: { id: { eq: p.id } } },
    });
    assert.deepEqual(
      byDate.nodes.map((n) => n.name),
      ['Needle'],
    );
    const nested = await p.projectMilestones({ filter: { name: { startsWith: 'Ha' } } });
    assert.deepEqual(
      nested.nodes.map((n) => n.name),
      ['Hay'],
    );
  });
});

describe('visibility', () => {
  test("a member outside the project's only team sees none of its milestones", async () => {
    await t.post('/api/teams', { name: 'Closed', key: 'CLSD', private: true }, t.adminToken);
    const hidden = await project('Hidden roadmap', ['CLSD']);
    const m = await milestone(hidden.id, 'Private milestone');
    const member = await t.userWithRole('member');
    const theirs = sdk(base, await apiKeyFor(t, member.token));
    await assert.rejects(theirs.projectMilestone(m.id), /not found/i);
    const all = await theirs.projectMilestones();
    assert.ok(all.nodes.every((n) => n.id !== m.id));
    const filtered = await theirs.projects({ filter: { projectMilestones: { some: { id: { eq: m.id } } } } });
    assert.equal(filtered.nodes.length, 0);
    await assert.rejects(theirs.updateProjectMilestone(m.id, { name: 'x' }), /not found/i);
    await assert.rejects(theirs.deleteProjectMilestone(m.id), /not found/i);
    assert.equal((await client.projectMilestone(m.id)).name, 'Private milestone');
  });
});

describe('statements per query', () => {
  test('projects with their milestones, progress and status cost as many statements for 2 as for 12', async () => {
    const viewer = await client.viewer;
    const actor = {
      id: viewer.id,
      role: 'admin' as const,
      name: viewer.name,
      email: viewer.email,
      via: 'apiKey' as const,
    };
    await t.post('/api/teams', { name: 'Counted', key: 'CNTD' }, t.adminToken);
    for (let i = 0; i < 12; i++) {
      const p = await project(`Counted ${i}`, ['CNTD']);
      const m = await milestone(p.id, `M${i}`);
      await milestone(p.id, `N${i}`);
      await client.createIssue({ teamId, title: `c${i}`, projectMilestoneId: m.id });
    }
    const query = `query($n: Int) { projects(first: $n, filter: { accessibleTeams: { some: { key: { eq: "CNTD" } } } }) {
      nodes { name projectMilestones(first: 5) { nodes { name progress status sortOrder project { name }
        issues(first: 5) { nodes { identifier projectMilestone { name } } } } } } } }`;
    const counts: Record<number, number> = {};
    for (const n of [2, 12]) {
      const counter = new StatementCounter();
      const res = await runGraphql(
        graphqlSchema(),
        { ...t.ctx, db: t.ctx.db.withPlugin(counter) },
        { ...actor },
        {
          query,
          variables: { n },
        },
      );
      assert.equal(res.body.errors, undefined, JSON.stringify(res.body.errors));
      const nodes = (res.body.data as { projects: { nodes: { projectMilestones: { nodes: unknown[] } }[] } })
        .projects.nodes;
      assert.equal(nodes.length, n);
      assert.ok(nodes.every((p) => p.projectMilestones.nodes.length === 2));
      counts[n] = counter.count;
    }
    console.log(`# statements: ${JSON.stringify(counts)}`);
    assert.equal(counts[12], counts[2]);
  });
});

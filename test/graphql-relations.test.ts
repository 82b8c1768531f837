// Issue relations through the real @linear/sdk client: the mutations, the
// root reads, an issue's relations in both directions, the relation-exists
// filters, the private-team rule, and one statement per relation for a page.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { IssueRelationType, type LinearClient } from '@linear/sdk';
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

async function newIssue(title: string, team = teamId, c = client) {
  return (await (
    await c.createIssue({ teamId: team, title })
  ).issue)!;
}
const link = async (issueId: string, relatedIssueId: string, type: IssueRelationType, c = client) => {
  const payload = await c.createIssueRelation({ issueId, relatedIssueId, type });
  assert.equal(payload.success, true);
  return (await payload.issueRelation)!;
};

describe('mutations and reads', () => {
  test('create, read from both issues, update, delete', async () => {
    const a = await newIssue('Blocker');
    const b = await newIssue('Blocked');
    const rel = await link(a.identifier, b.id, IssueRelationType.Blocks);
    assert.equal(rel.type, 'blocks');
    assert.equal((await rel.issue)!.id, a.id);
    assert.equal((await rel.relatedIssue)!.id, b.id);
    assert.equal(rel.archivedAt, undefined);

    const out = await (await client.issue(a.id)).relations();
    assert.deepEqual(
      out.nodes.map((r) => r.id),
      [rel.id],
    );
    const inv = await (await client.issue(b.identifier)).inverseRelations();
    assert.deepEqual(
      inv.nodes.map((r) => r.id),
      [rel.id],
    );
    assert.equal((await (await client.issue(b.id)).relations()).nodes.length, 0);
    assert.equal((await client.issueRelation(rel.id)).type, 'blocks');
    assert.ok((await client.issueRelations()).nodes.some((r) => r.id === rel.id));

    const c = await newIssue('Third');
    const updated = await client.updateIssueRelation(rel.id, {
      type: 'related',
      relatedIssueId: c.identifier,
    });
    const after = (await updated.issueRelation)!;
    assert.equal(after.type, 'related');
    assert.equal((await after.relatedIssue)!.id, c.id);

    const del = await client.deleteIssueRelation(rel.id);
    assert.equal(del.success, true);
    assert.equal(del.entityId, rel.id);
    await assert.rejects(client.issueRelation(rel.id), /not found/i);
  });

  test('a duplicate moves to the Duplicate state; bad input is an invalid-input error', async () => {
    const original = await newIssue('Crash on save');
    const dup = await newIssue('Save crashes');
    await link(dup.id, original.id, IssueRelationType.Duplicate);
    const state = await (await client.issue(dup.id)).state;
    assert.equal(state?.name, 'Duplicate');
    assert.equal(state?.type, 'canceled');
    await assert.rejects(link(dup.id, dup.identifier, IssueRelationType.Related), /itself/);
    await assert.rejects(link(original.id, dup.id, IssueRelationType.Duplicate), /already/);
    const res = await gql(
      base,
      key,
      `mutation { issueRelationUpdate(id: "x", input: { type: "blocks" }) { success } }`,
    );
    assert.equal(res.body.errors[0].message, 'Issue relation not found');
    const created = await link(original.id, dup.id, IssueRelationType.Related);
    const bad = await gql(
      base,
      key,
      `mutation($id: String!) { issueRelationUpdate(id: $id, input: { type: "depends" }) { success } }`,
      { id: created.id },
    );
    assert.equal(bad.body.errors[0].extensions.type, 'invalid input');
  });
});

describe('filters', () => {
  test('hasBlockedByRelations, hasBlockingRelations, hasDuplicateRelations, hasRelatedRelations', async () => {
    await t.post('/api/teams', { key: 'FLT', name: 'Filtering' }, t.adminToken);
    const team = (await client.team('FLT')).id;
    const [blocker, blocked, dup, orig, rel1, rel2, loner] = await Promise.all(
      ['blocker', 'blocked', 'dup', 'orig', 'rel1', 'rel2', 'loner'].map((n) => newIssue(n, team)),
    );
    await link(blocker!.id, blocked!.id, IssueRelationType.Blocks);
    await link(dup!.id, orig!.id, IssueRelationType.Duplicate);
    await link(rel1!.id, rel2!.id, IssueRelationType.Related);
    const titles = async (filter: Record<string, unknown>) =>
      (await client.issues({ filter: { team: { key: { eq: 'FLT' } }, ...filter } })).nodes
        .map((i) => i.title)
        .sort();
    assert.deepEqual(await titles({ hasBlockedByRelations: { eq: true } }), ['blocked']);
    assert.deepEqual(await titles({ hasBlockingRelations: { eq: true } }), ['blocker']);
    assert.deepEqual(await titles({ hasDuplicateRelations: { eq: true } }), ['dup', 'orig']);
    assert.deepEqual(await titles({ hasRelatedRelations: { eq: true } }), ['rel1', 'rel2']);
    assert.deepEqual(
      await titles({ hasBlockedByRelations: { neq: true }, hasRelatedRelations: { eq: false } }),
      ['blocker', 'dup', 'loner', 'orig'],
    );
    assert.ok(loner);
  });
});

describe('private teams', () => {
  test('relations touching a team the caller cannot see are hidden, and cannot be made', async () => {
    const prv = await t.post('/api/teams', { key: 'GPRV', name: 'Closed', private: true }, t.adminToken);
    assert.equal(prv.status, 201);
    const hidden = await newIssue('Hidden blocker', prv.body.team.id);
    const open = await newIssue('Open and blocked');
    const rel = await link(hidden.id, open.id, IssueRelationType.Blocks);
    const outsider = await t.userWithRole('member');
    const theirs = sdk(base, await apiKeyFor(t, outsider.token));
    assert.equal((await (await theirs.issue(open.id)).inverseRelations()).nodes.length, 0);
    assert.ok(!(await theirs.issueRelations()).nodes.some((r) => r.id === rel.id));
    await assert.rejects(theirs.issueRelation(rel.id), /not found/i);
    await assert.rejects(theirs.deleteIssueRelation(rel.id), /not found/i);
    await assert.rejects(
      link(open.id, hidden.id, IssueRelationType.Related, theirs),
      /no issue with this id/i,
    );
    // The filter does not count a blocker the caller cannot see.
    const blocked = await theirs.issues({
      filter: { id: { eq: open.id }, hasBlockedByRelations: { eq: true } },
    });
    assert.equal(blocked.nodes.length, 0);
    const mine = await client.issues({
      filter: { id: { eq: open.id }, hasBlockedByRelations: { eq: true } },
    });
    assert.equal(mine.nodes.length, 1);
  });
});

describe('statements', () => {
  test('a page of issues with both relation lists costs the same for 5 issues as for 30', async () => {
    await t.post('/api/teams', { key: 'NREL', name: 'Counting relations' }, t.adminToken);
    const team = (await client.team('NREL')).id;
    const issues = [];
    for (let i = 0; i < 31; i++) issues.push(await newIssue(`n${i}`, team));
    for (let i = 0; i < 30; i++) await link(issues[i]!.id, issues[i + 1]!.id, IssueRelationType.Blocks);
    const viewer = await client.viewer;
    const member = (await t.userWithRole('member')).user;
    const query = `query($n: Int) { issues(first: $n, filter: { team: { key: { eq: "NREL" } } }) { nodes {
      identifier relations { nodes { type relatedIssue { identifier state { type } } } }
      inverseRelations { nodes { type issue { identifier state { type } } } } } } }`;
    const schema = graphqlSchema();
    for (const actor of [
      {
        id: viewer.id,
        role: 'admin' as const,
        name: viewer.name,
        email: viewer.email,
        via: 'apiKey' as const,
      },
      {
        id: member.id,
        role: 'member' as const,
        name: member.name,
        email: member.email,
        via: 'apiKey' as const,
      },
    ]) {
      const counts: number[] = [];
      for (const n of [5, 30]) {
        const counter = new StatementCounter();
        const res = await runGraphql(
          schema,
          { ...t.ctx, db: t.ctx.db.withPlugin(counter) },
          { ...actor },
          {
            query,
            variables: { n },
          },
        );
        assert.equal(res.body.errors, undefined, JSON.stringify(res.body.errors));
        const nodes = (res.body.data as any).issues.nodes;
        assert.equal(nodes.length, n);
        assert.ok(
          nodes.some((x: any) => x.relations.nodes.length === 1 && x.inverseRelations.nodes.length === 1),
        );
        counts.push(counter.count);
      }
      assert.equal(counts[0], counts[1], `${actor.role}: ${counts.join(' vs ')}`);
    }
  });
});

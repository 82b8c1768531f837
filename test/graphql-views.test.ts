// Saved views through the real @linear/sdk client: create (personal and
// shared), list as owner / other member / guest / admin, a view's issues as
// someone who cannot see a private team, update, delete, invalid filterData,
// and statements per page (owner and team are batched).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ForbiddenLinearError, InvalidInputLinearError, type LinearClient } from '@linear/sdk';
import { runGraphql } from '../src/graphql/execute.js';
import { graphqlSchema } from '../src/graphql/routes.js';
import { apiKeyFor, gql, sdk, startGraphqlApp } from './graphql-helpers.js';
import type { TestApp } from './support/harness.js';
import { StatementCounter } from './support/statement-counter.js';

let t: TestApp;
let base: string;
let admin: LinearClient;
let engId: string;
let ownerUser: { id: string; token: string };
let owner: LinearClient;
let other: LinearClient;
let otherToken: string;
let guest: LinearClient;

const ids = (c: { nodes: { id: string }[] }) => c.nodes.map((n) => n.id).sort();

before(async () => {
  let teamId: string;
  ({ t, base, client: admin, teamId } = await startGraphqlApp());
  engId = teamId;
  const o = await t.userWithRole('member', { teams: ['ENG'] });
  const m = await t.userWithRole('member', { teams: ['ENG'] });
  const g = await t.userWithRole('guest', { teams: ['ENG'] });
  ownerUser = { id: o.user.id, token: o.token };
  owner = sdk(base, await apiKeyFor(t, o.token));
  other = sdk(base, await apiKeyFor(t, m.token));
  otherToken = m.token;
  guest = sdk(base, await apiKeyFor(t, g.token));
  const sec = await t.post('/api/teams', { name: 'Secret', key: 'SEC', private: true }, t.adminToken);
  assert.equal(sec.status, 201, JSON.stringify(sec.body));
  await t.post('/api/teams/SEC/members', { userId: o.user.id }, t.adminToken);
  await admin.createIssue({ teamId: engId, title: 'Viewtest open' });
  await admin.createIssue({ teamId: sec.body.team.id, title: 'Viewtest secret' });
});
after(() => t.close());

async function create(client: LinearClient, input: Parameters<LinearClient['createCustomView']>[0]) {
  const res = await client.createCustomView(input);
  assert.equal(res.success, true);
  return (await res.customView)!;
}

describe('saved views through the SDK', () => {
  let personalId: string;
  let sharedId: string;

  test('create a personal and a shared view; read them back', async () => {
    const personal = await create(owner, {
      name: 'My viewtests',
      description: 'mine',
      icon: 'Bug',
      color: '#FF0000',
      filterData: { title: { startsWith: 'Viewtest' } },
    });
    personalId = personal.id;
    assert.equal(personal.name, 'My viewtests');
    assert.equal(personal.shared, false);
    assert.equal(personal.color, '#ff0000');
    assert.equal(personal.modelName, 'Issue');
    assert.match(personal.slugId, /^[0-9a-f]{12}$/);
    assert.deepEqual(personal.filterData, { title: { startsWith: 'Viewtest' } });
    assert.equal((await personal.owner)!.id, ownerUser.id);
    assert.equal((await personal.creator)!.id, ownerUser.id);
    assert.equal(personal.teamId, undefined);

    const shared = await create(owner, {
      name: 'ENG viewtests',
      shared: true,
      teamId: engId,
      filterData: { title: { startsWith: 'Viewtest' } },
    });
    sharedId = shared.id;
    assert.equal(shared.shared, true);
    assert.equal((await shared.team)!.key, 'ENG');
    const read = await other.customView(shared.id);
    assert.equal(read.name, 'ENG viewtests');
    assert.equal((await read.owner)!.id, ownerUser.id);
  });

  test('customViews: the owner sees both; another member, a guest and an admin only the shared one', async () => {
    assert.deepEqual(ids(await owner.customViews()), [personalId, sharedId].sort());
    for (const client of [other, guest, admin]) {
      const list = await client.customViews();
      assert.equal(ids(list).includes(sharedId), true);
      assert.equal(ids(list).includes(personalId), false);
      await assert.rejects(client.customView(personalId), /not found/i);
    }
    // Newest first, paged.
    const page = await owner.customViews({ first: 1 });
    assert.deepEqual(ids(page), [sharedId]);
    assert.equal(page.pageInfo.hasNextPage, true);
    const next = await owner.customViews({ first: 1, after: page.pageInfo.endCursor });
    assert.deepEqual(ids(next), [personalId]);
    // The filter argument: CustomViewFilter.
    assert.deepEqual(ids(await owner.customViews({ filter: { shared: { eq: false } } })), [personalId]);
  });

  test("a view's issues are the caller's: the private team's issue only for who sees that team", async () => {
    const titles = async (client: LinearClient) =>
      (await (await client.customView(sharedId)).issues()).nodes.map((i) => i.title).sort();
    assert.deepEqual(await titles(owner), ['Viewtest open', 'Viewtest secret']);
    assert.deepEqual(await titles(other), ['Viewtest open']);
    assert.deepEqual(await titles(guest), ['Viewtest open']);
    // The argument's filter narrows the view's own, and pages as any issue list.
    const view = await owner.customView(sharedId);
    const narrowed = await view.issues({ filter: { team: { key: { eq: 'SEC' } } } });
    assert.deepEqual(
      narrowed.nodes.map((i) => i.title),
      ['Viewtest secret'],
    );
    const first = await view.issues({ first: 1 });
    assert.equal(first.nodes.length, 1);
    assert.equal(first.pageInfo.hasNextPage, true);
  });

  test('update: the owner and an admin may, another member may not; a guest cannot share', async () => {
    const updated = await owner.updateCustomView(sharedId, { name: 'ENG board', description: 'triage' });
    assert.equal((await updated.customView)!.name, 'ENG board');
    await assert.rejects(other.updateCustomView(sharedId, { name: 'Taken' }), ForbiddenLinearError);
    const byAdmin = await admin.updateCustomView(sharedId, { icon: 'Star' });
    assert.equal((await byAdmin.customView)!.icon, 'Star');
    assert.equal((await owner.customView(sharedId)).name, 'ENG board');
    await assert.rejects(other.updateCustomView(personalId, { name: 'x' }), /not found/i);
    await assert.rejects(create(guest, { name: 'Guest share', shared: true }), ForbiddenLinearError);
    const mine = await create(guest, { name: 'Guest own' });
    assert.equal(mine.shared, false);
  });

  test("invalid filterData is the issue filter's own InvalidInput error, naming filterData; nothing saved", async () => {
    const before = ids(await owner.customViews()).length;
    const bad = { dueDate: { eq: '2024-02-30' } };
    await assert.rejects(
      owner.createCustomView({ name: 'Bad', filterData: bad as never }),
      (e: Error) => e instanceof InvalidInputLinearError && /filterData\.dueDate\.eq/.test(e.message),
    );
    // The same filter on issues(filter:) fails the same way, named after its own argument.
    const list = await gql(
      base,
      `Bearer ${otherToken}`,
      'query($f: IssueFilter) { issues(filter: $f) { nodes { id } } }',
      { f: bad },
    );
    assert.match(list.body.errors[0].message, /filter\.dueDate\.eq/);
    assert.equal(list.body.errors[0].extensions.type, 'invalid input');
    await assert.rejects(
      owner.updateCustomView(personalId, { filterData: { createdAt: { gt: 'P99999999999Y' } } as never }),
      (e: Error) => e instanceof InvalidInputLinearError && /filterData\.createdAt\.gt/.test(e.message),
    );
    await assert.rejects(
      owner.createCustomView({ name: 'Projects', projectFilterData: { name: { eq: 'x' } } as never }),
      (e: Error) => e instanceof InvalidInputLinearError && /projectFilterData/.test(e.message),
    );
    assert.equal(ids(await owner.customViews()).length, before);
    assert.deepEqual((await owner.customView(personalId)).filterData, { title: { startsWith: 'Viewtest' } });
  });

  test('delete: another member may not, the owner may; the view is gone', async () => {
    await assert.rejects(other.deleteCustomView(sharedId), ForbiddenLinearError);
    const removed = await owner.deleteCustomView(sharedId);
    assert.equal(removed.success, true);
    assert.equal(removed.entityId, sharedId);
    await assert.rejects(owner.customView(sharedId), /not found/i);
  });

  test('a page of views with owner, creator and team costs the same statements for 2 or 12', async () => {
    for (let i = 0; i < 12; i++) {
      await create(i % 2 ? owner : admin, { name: `Counted ${i}`, shared: true, teamId: engId });
    }
    const query = `query($n: Int) { customViews(first: $n, filter: { name: { startsWith: "Counted" } }) {
      nodes { name owner { name } creator { name } team { key } } } }`;
    const counts: Record<number, number> = {};
    for (const n of [2, 12]) {
      const counter = new StatementCounter();
      const res = await runGraphql(
        graphqlSchema(),
        { ...t.ctx, db: t.ctx.db.withPlugin(counter) },
        { id: ownerUser.id, role: 'member' as const, name: 'o', email: 'o@x', via: 'session' as const },
        { query, variables: { n } },
      );
      assert.equal(res.body.errors, undefined, JSON.stringify(res.body.errors));
      const nodes = (res.body.data as { customViews: { nodes: { team: { key: string } }[] } }).customViews
        .nodes;
      assert.equal(nodes.length, n);
      assert.ok(nodes.every((v) => v.team.key === 'ENG'));
      counts[n] = counter.count;
    }
    assert.equal(counts[12], counts[2]);
  });
});

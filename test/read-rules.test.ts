// REST answers go through the same read rules as GETs and as GraphQL (issue 24,
// findings 5, 6 and 12). The world: a private team SEC (member: insider), a
// public team PUB (the guest's only team), an outsider (member, not in SEC) and
// a stranger (member, out of PUB, so out of the guest's sight). PUB-1 hangs
// under a SEC parent, in a SEC project and milestone, has a SEC sub-issue, is
// assigned to the stranger and commented on by them; another issue moved from
// SEC to PUB. Then: write answers equal the GET (5), REST names nobody GraphQL
// hides (6), a former SEC identifier shows and answers only to who sees SEC
// (12), and the two doors agree field by field for every role.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from './support/harness.js';

type Role = 'admin' | 'insider' | 'outsider' | 'guest';
const ROLES: Role[] = ['admin', 'insider', 'outsider', 'guest'];

let t: TestApp;
const tokens = {} as Record<Role, string>;
let stranger: { token: string; user: any };
const ids: Record<string, string> = {};
/** The identifier the moved issue had in SEC, and the one it has in PUB. */
let formerKey = '';
let movedKey = '';

const ok = <T = any>(res: { status: number; body: any }, what: string): T => {
  assert.ok(res.status < 300, `${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};

before(async () => {
  t = await startTestApp({ graphqlRequestsPerHour: 1e6, graphqlComplexityPerHour: 1e12 });
  const admin = t.adminToken;
  tokens.admin = admin;
  ok(await t.post('/api/teams', { key: 'SEC', name: 'Secret', private: true }, admin), 'SEC');
  ok(await t.post('/api/teams', { key: 'PUB', name: 'Public' }, admin), 'PUB');
  const insider = await t.userWithRole('member', { teams: ['SEC'] });
  const outsider = await t.userWithRole('member');
  const guest = await t.userWithRole('guest', { teams: ['PUB'] });
  stranger = await t.userWithRole('member');
  // Out of PUB, the stranger shares no team with the guest.
  ok(await t.del(`/api/teams/PUB/members/${stranger.user.id}`, admin), 'stranger leaves PUB');
  await t.ctx.db
    .updateTable('users')
    .set({ display_name: 'Stranger Danger' })
    .where('id', '=', stranger.user.id)
    .execute();
  Object.assign(tokens, { insider: insider.token, outsider: outsider.token, guest: guest.token });
  ids.guest = guest.user.id;

  const issue = async (body: Record<string, unknown>, token = admin) =>
    ok(await t.post('/api/issues', body, token), 'issue').issue;
  ids.secParent = (await issue({ title: 'Secret parent', teamId: 'SEC' })).id;
  const project = ok(await t.post('/api/projects', { name: 'Secret plan', teamIds: ['SEC'] }, admin), 'p');
  ids.secProject = project.project.id;
  ids.secMilestone = ok(
    await t.post(`/api/projects/${ids.secProject}/milestones`, { name: 'Secret step' }, admin),
    'milestone',
  ).milestone.id;
  // Labels whose names sort the other way round from their ids.
  const labelIds: string[] = [];
  for (const n of [1, 2, 3])
    labelIds.push(
      ok(await t.post('/api/labels', { name: `l${n}`, color: '#123456', teamId: 'PUB' }, admin), 'label')
        .label.id,
    );
  labelIds.sort();
  for (const [i, id] of labelIds.entries())
    ok(await t.patch(`/api/labels/${id}`, { name: `${'cba'[i]} label` }, admin), 'rename label');
  ids.labels = labelIds.join(',');
  const pub = await issue({
    title: 'Public work',
    teamId: 'PUB',
    parentId: ids.secParent,
    projectId: ids.secProject,
    projectMilestoneId: ids.secMilestone,
    assigneeId: stranger.user.id,
    labelIds,
  });
  ids.pub = pub.id;
  ids.pubKey = pub.identifier;
  ids.secChild = (await issue({ title: 'Secret child', teamId: 'SEC', parentId: pub.id })).id;
  ids.plain = (await issue({ title: 'Plain public', teamId: 'PUB' })).id;
  // Moved out of SEC: it had a SEC identifier and SEC state (and another number: PUB is one ahead).
  await issue({ title: 'Filler', teamId: 'PUB' });
  const moved = await issue({ title: 'Moved out', teamId: 'SEC' });
  formerKey = moved.identifier;
  movedKey = ok(await t.patch(`/api/issues/${moved.id}`, { teamId: 'PUB' }, admin), 'move').issue.identifier;
  ids.moved = moved.id;
  // The stranger comments on PUB-1 and assigns the guest an issue: the guest is notified by them.
  ok(await t.post(`/api/issues/${pub.id}/comments`, { body: 'from afar' }, stranger.token), 'comment');
  ok(await t.patch(`/api/issues/${ids.plain}`, { assigneeId: guest.user.id }, stranger.token), 'assign');
});
after(async () => {
  await t?.close();
});

const gql = async (role: Role, query: string, variables: Record<string, unknown> = {}) => {
  const res = await t.post('/graphql', { query, variables }, tokens[role]);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as { data?: any; errors?: { message: string }[] };
};
const restIssue = async (role: Role, id: string) =>
  ok(await t.get(`/api/issues/${id}`, tokens[role]), 'GET').issue;

const ISSUE_FIELDS = `id identifier number title description priority priorityLabel estimate dueDate
  sortOrder url branchName labelIds previousIdentifiers createdAt updatedAt startedAt completedAt
  canceledAt archivedAt team { id } state { id } assignee { id } creator { id } parent { id }
  project { id } projectMilestone { id } cycle { id }`;

/** GraphQL's issue in REST's field names, for the fields both doors expose. */
function asRest(i: any) {
  return {
    id: i.id,
    identifier: i.identifier,
    number: i.number,
    title: i.title,
    description: i.description,
    priority: i.priority,
    priorityLabel: i.priorityLabel,
    estimate: i.estimate,
    dueDate: i.dueDate,
    sortOrder: i.sortOrder,
    url: i.url,
    branchName: i.branchName,
    labelIds: i.labelIds,
    createdAt: i.createdAt,
    updatedAt: i.updatedAt,
    startedAt: i.startedAt,
    completedAt: i.completedAt,
    canceledAt: i.canceledAt,
    archivedAt: i.archivedAt,
    teamId: i.team?.id ?? null,
    stateId: i.state?.id ?? null,
    assigneeId: i.assignee?.id ?? null,
    creatorId: i.creator?.id ?? null,
    parentId: i.parent?.id ?? null,
    projectId: i.project?.id ?? null,
    projectMilestoneId: i.projectMilestone?.id ?? null,
    cycleId: i.cycle?.id ?? null,
  };
}
const shared = (rest: any) => Object.fromEntries(Object.keys(asRest({})).map((k) => [k, rest[k]]));

describe('finding 5: REST write answers show what the GET shows', () => {
  test('a no-op PATCH, archive and unarchive of PUB-1 by a member outside SEC hide the SEC parent, project, milestone and sub-issue', async () => {
    const token = tokens.outsider;
    const get = await restIssue('outsider', ids.pubKey!);
    assert.equal(get.parentId, null);
    assert.equal(get.projectId, null);
    assert.equal(get.projectMilestoneId, null);
    assert.deepEqual(get.childProgress, { total: 0, completed: 0, canceled: 0 });
    const noop = ok(await t.patch(`/api/issues/${ids.pubKey}`, { title: 'Public work' }, token), 'PATCH');
    assert.deepEqual(noop.issue, get, 'a no-op PATCH answers the GET');
    for (const action of ['archive', 'unarchive', 'unarchive']) {
      const res = ok(await t.post(`/api/issues/${ids.pubKey}/${action}`, {}, token), action);
      assert.deepEqual(res.issue, await restIssue('outsider', ids.pubKey!), `${action} answers the GET`);
      assert.equal(res.issue.parentId, null, `${action}: parent`);
      assert.equal(res.issue.projectId, null, `${action}: project`);
      assert.equal(res.issue.projectMilestoneId, null, `${action}: milestone`);
      assert.equal(res.issue.childProgress.total, 0, `${action}: childProgress`);
    }
    // A real change answers the GET right after, too; so does a creation.
    const changed = ok(await t.patch(`/api/issues/${ids.pubKey}`, { priority: 2 }, token), 'PATCH');
    assert.deepEqual(changed.issue, await restIssue('outsider', ids.pubKey!));
    const created = ok(await t.post('/api/issues', { title: 'Fresh', teamId: 'PUB' }, token), 'POST');
    assert.deepEqual(created.issue, await restIssue('outsider', created.issue.id));
  });

  test('the admin and the insider still get the whole record back', async () => {
    for (const role of ['admin', 'insider'] as const) {
      const res = ok(
        await t.patch(`/api/issues/${ids.pubKey}`, { title: 'Public work' }, tokens[role]),
        'PATCH',
      );
      assert.equal(res.issue.parentId, ids.secParent, role);
      assert.equal(res.issue.projectMilestoneId, ids.secMilestone, role);
      assert.equal(res.issue.childProgress.total, 1, role);
      assert.deepEqual(res.issue, await restIssue(role, ids.pubKey!));
    }
  });

  test('GraphQL mutation payloads hide the same', async () => {
    const b = await gql(
      'outsider',
      `mutation($id: String!) { issueUpdate(id: $id, input: { title: "Public work" }) { issue { parent { id } project { id } projectMilestone { id } } } }`,
      { id: ids.pub },
    );
    assert.equal(b.errors, undefined, JSON.stringify(b.errors));
    assert.deepEqual(b.data?.issueUpdate?.issue, { parent: null, project: null, projectMilestone: null });
  });
});

describe('finding 6: REST names nobody GraphQL hides', () => {
  test('as a guest: branchName, assignee, comment author and notification actor of a person out of sight', async () => {
    const rest = await restIssue('guest', ids.pub!);
    assert.doesNotMatch(rest.branchName, /stranger/, 'REST branchName names the hidden assignee');
    assert.match(rest.branchName, /^user\//);
    assert.equal(rest.assigneeId, null);
    const g = await gql('guest', `query($id: String!) { issue(id: $id) { branchName assignee { id } } }`, {
      id: ids.pub,
    });
    assert.equal(g.data?.issue?.branchName, rest.branchName);
    assert.equal(g.data?.issue?.assignee, null);
    // Seen by a member, the name is there.
    assert.match((await restIssue('outsider', ids.pub!)).branchName, /^stranger-danger\//);

    const comments = ok(await t.get(`/api/issues/${ids.pub}/comments`, tokens.guest), 'comments').comments;
    assert.equal(comments.length, 1);
    assert.equal(comments[0].user, null, 'REST comment names its hidden author');
    assert.equal(comments[0].userId, null);
    const one = ok(await t.get(`/api/comments/${comments[0].id}`, tokens.guest), 'comment').comment;
    assert.equal(one.user, null);
    const gc = await gql(
      'guest',
      `query($id: String!) { issue(id: $id) { comments { nodes { user { id } } } } }`,
      {
        id: ids.pub,
      },
    );
    assert.deepEqual(gc.data?.issue?.comments?.nodes, [{ user: null }]);
    const byOutsider = ok(await t.get(`/api/issues/${ids.pub}/comments`, tokens.outsider), 'c').comments;
    assert.equal(byOutsider[0].user.id, stranger.user.id);

    const inbox = ok(await t.get('/api/notifications', tokens.guest), 'notifications').notifications;
    const assigned = inbox.find((n: any) => n.type === 'issueAssignedToYou');
    assert.ok(assigned, JSON.stringify(inbox));
    assert.equal(assigned.actor, null, 'REST notification names its hidden actor');
    const gn = await gql(
      'guest',
      '{ notifications { nodes { ... on IssueNotification { type actor { id } } } } }',
    );
    const gAssigned = gn.data?.notifications?.nodes?.find((n: any) => n.type === 'issueAssignedToYou');
    assert.equal(gAssigned?.actor, null);
  });

  test('labelIds come in one order on both doors: by id', async () => {
    const want = ids.labels!.split(',');
    for (const role of ROLES) {
      assert.deepEqual((await restIssue(role, ids.pub!)).labelIds, want, `REST as ${role}`);
      const g = await gql(role, `query($id: String!) { issue(id: $id) { labelIds } }`, { id: ids.pub });
      assert.deepEqual(g.data?.issue?.labelIds, want, `GraphQL as ${role}`);
    }
  });
});

describe("finding 12: a private team's key does not follow its issues out", () => {
  test('previousIdentifiers, history and lookups by the former SEC identifier, role by role', async () => {
    assert.match(formerKey, /^SEC-/);
    for (const role of ROLES) {
      const seesSec = role === 'admin' || role === 'insider';
      const g = await gql(role, `query($id: String!) { issue(id: $id) { previousIdentifiers } }`, {
        id: movedKey,
      });
      assert.deepEqual(
        g.data?.issue?.previousIdentifiers,
        seesSec ? [formerKey] : [],
        `previousIdentifiers as ${role}`,
      );
      // A page read by plan (graphql/plan) masks alike.
      const page = await gql(
        role,
        `{ issues(filter: { team: { key: { eq: "PUB" } } }) { nodes { id previousIdentifiers } } }`,
      );
      const node = page.data?.issues?.nodes?.find((n: any) => n.id === ids.moved);
      assert.deepEqual(node?.previousIdentifiers, seesSec ? [formerKey] : [], `issues page as ${role}`);

      const history = ok(await t.get(`/api/issues/${movedKey}/history`, tokens[role]), 'history').history;
      const move = history.find((h: any) => h.changes.identifier);
      assert.ok(move, JSON.stringify(history));
      assert.equal(
        move.changes.identifier.from,
        seesSec ? formerKey : null,
        `history identifier.from as ${role}`,
      );
      assert.equal(move.changes.identifier.to, movedKey);
      // The number goes with the identifier.
      assert.equal(move.changes.number.from === null, !seesSec, `history number.from as ${role}`);
      assert.equal(move.changes.teamId.from === null, !seesSec, `history teamId.from as ${role}`);
      assert.equal(move.changes.stateId.from === null, !seesSec, `history stateId.from as ${role}`);
      assert.doesNotMatch(JSON.stringify(history), seesSec ? /^$/ : /SEC-/);
      const gh = await gql(
        role,
        `query($id: String!) { issue(id: $id) { history { nodes { fromTeamId toTeamId fromStateId } } } }`,
        {
          id: ids.moved,
        },
      );
      const gMove = gh.data?.issue?.history?.nodes?.find((n: any) => n.toTeamId);
      assert.equal(gMove?.fromTeamId === null, !seesSec, `GraphQL fromTeamId as ${role}`);
      assert.equal(gMove?.fromStateId === null, !seesSec, `GraphQL fromStateId as ${role}`);

      // Looking the issue up by its SEC identifier confirms nothing to who cannot see SEC.
      const byOld = await t.get(`/api/issues/${formerKey}`, tokens[role]);
      assert.equal(byOld.status, seesSec ? 200 : 404, `GET /api/issues/${formerKey} as ${role}`);
      const lower = await t.get(`/api/issues/${formerKey.toLowerCase()}/comments`, tokens[role]);
      assert.equal(lower.status, seesSec ? 200 : 404, `comments by ${formerKey} as ${role}`);
      const gOld = await gql(role, `query($id: String!) { issue(id: $id) { id } }`, { id: formerKey });
      assert.equal(
        gOld.data?.issue?.id ?? null,
        seesSec ? ids.moved : null,
        `issue(id: ${formerKey}) as ${role}`,
      );
      if (role === 'outsider') {
        const parent = await t.patch(`/api/issues/${ids.plain}`, { parentId: formerKey }, tokens[role]);
        assert.equal(parent.status, 400, `parentId: ${formerKey} as ${role}`);
      }
      // The current identifier answers everyone who sees the issue.
      assert.equal((await t.get(`/api/issues/${movedKey}`, tokens[role])).status, 200);
    }
  });
});

describe('the two doors agree', () => {
  test('REST GET /api/issues/:id, the REST list and GraphQL issue(id) agree on every field both expose, for every role', async () => {
    const problems: string[] = [];
    for (const role of ROLES) {
      const issues = [ids.pub, ids.plain, ids.moved, ids.secParent, ids.secChild];
      const list = ok(await t.get('/api/issues?limit=100&includeArchived=true', tokens[role]), 'list').issues;
      for (const id of issues) {
        const rest = await t.get(`/api/issues/${id}`, tokens[role]);
        const g = await gql(role, `query($id: String!) { issue(id: $id) { ${ISSUE_FIELDS} } }`, { id });
        if (rest.status === 404) {
          if (g.data?.issue) problems.push(`${id} as ${role}: REST 404, GraphQL answers it`);
          continue;
        }
        const want = shared(rest.body.issue);
        const got = asRest(g.data?.issue ?? {});
        for (const key of Object.keys(want))
          if (JSON.stringify(want[key]) !== JSON.stringify(got[key as keyof typeof got]))
            problems.push(
              `${rest.body.issue.identifier}.${key} as ${role}: REST ${JSON.stringify(want[key])}, GraphQL ${JSON.stringify(got[key as keyof typeof got])}`,
            );
        const listed = list.find((i: any) => i.id === id);
        if (JSON.stringify(listed) !== JSON.stringify(rest.body.issue))
          problems.push(`${rest.body.issue.identifier} as ${role}: the REST list and GET differ`);
      }
    }
    assert.deepEqual(problems, []);
  });
});

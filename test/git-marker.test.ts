// Issue 29's second half: the branch name format (admin REST, validation, and
// every door's branchName following it), the list's pull request marker, and
// checks (GitHub check suites, check runs and statuses from
// @octokit/webhooks-examples, a GitLab pipeline and a Gitea status from their
// documentation's shapes), signed as each host signs.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { branchFormatProblem, DEFAULT_BRANCH_FORMAT } from '../src/modules/issues/branch-format.js';
import {
  connect,
  deliverAndWait,
  giteaExample,
  githubExample,
  gitlabExample,
  newIssue,
} from './git-support.js';
import { gql } from './graphql-helpers.js';
import { startTestApp, type TestApp } from './support/harness.js';

type Json = any;
let t: TestApp;
let base: string;
let engId: string;
let member: { token: string };
const hosts: Record<string, { id: string; secret: string }> = {};
let prNumber = 700;
const SHA = 'ec26c3e57ca3a959ca5aad62de7213c562f8c821';

before(async () => {
  t = await startTestApp();
  base = await t.listen();
  engId = (await t.ctx.db.selectFrom('teams').select('id').where('key', '=', 'ENG').executeTakeFirstOrThrow())
    .id;
  hosts['github'] = await connect(t, 'github', [{ fullName: 'Codertocat/Hello-World', teamId: engId }]);
  hosts['gitlab'] = await connect(t, 'gitlab', [{ fullName: 'gitlabhq/gitlab-test', teamId: engId }]);
  hosts['gitea'] = await connect(t, 'gitea', [{ fullName: 'gitea/webhooks', teamId: engId }]);
  member = await t.register('Marker Member');
});
after(() => t.close());

const put = (url: string, body: unknown, token: string) => t.request('PUT', url, { body, token });

const graphql = async (query: string, token = t.adminToken) => {
  const res = await gql(base, `Bearer ${token}`, query);
  assert.equal(res.body.errors, undefined, JSON.stringify(res.body.errors));
  return res.body.data;
};

async function marker(identifier: string) {
  const d =
    await graphql(`{ issues(first: 5, filter: { number: { eq: ${Number(identifier.split('-')[1])} } }) {
    nodes { identifier pullRequestMarker } } }`);
  return d.issues.nodes.find((n: Json) => n.identifier === identifier)?.pullRequestMarker ?? null;
}

/** GitHub's opened example as a pull request naming `identifier`, with head `sha`. */
function githubPull(identifier: string, sha = SHA, action = 'opened') {
  const p = githubExample('pull_request', 'opened');
  const number = ++prNumber;
  p.action = action;
  p.number = number;
  Object.assign(p.pull_request, {
    number,
    html_url: `https://github.com/Codertocat/Hello-World/pull/${number}`,
    title: `Fixes ${identifier}`,
    body: null,
    draft: false,
    requested_reviewers: [],
  });
  p.pull_request.head.sha = sha;
  return p;
}

describe('branch name format', () => {
  test('admins read and change it; every issue read follows it, REST and GraphQL alike', async () => {
    const got = await t.get('/api/admin/git/settings', t.adminToken);
    assert.equal(got.status, 200);
    assert.equal(got.body.branchFormat, DEFAULT_BRANCH_FORMAT);
    assert.ok(got.body.placeholders.some((p: Json) => p.name === '{issue.identifier}'));

    const issue = await newIssue(t, 'Fix the Login Page!');
    const saved = await put(
      '/api/admin/git/settings',
      { branchFormat: 'feature/{team.key}/{issue.identifier}_{issue.number}-{issue.title}' },
      t.adminToken,
    );
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const n = issue.identifier.split('-')[1];
    const want = `feature/eng/${issue.identifier.toLowerCase()}_${n}-fix-the-login-page`;
    const rest = await t.get(`/api/issues/${issue.id}`, t.adminToken);
    assert.equal(rest.body.issue.branchName, want);
    const d = await graphql(
      `{ issue(id: "${issue.id}") { branchName } organization { gitBranchFormat } issues(first: 250) { nodes { id branchName } } }`,
    );
    assert.equal(d.issue.branchName, want);
    assert.equal(d.organization.gitBranchFormat, saved.body.branchFormat);
    assert.equal(d.issues.nodes.find((i: Json) => i.id === issue.id).branchName, want);
    // Every issue of the list: REST's page and GraphQL's agree.
    const list = await t.get('/api/issues?limit=100', t.adminToken);
    for (const r of list.body.issues) {
      const g = d.issues.nodes.find((i: Json) => i.id === r.id);
      if (g) assert.equal(g.branchName, r.branchName, r.identifier);
    }
    // A title with no letters leaves no dangling separator.
    const bare = await newIssue(t, '!!!');
    const bareName = (await t.get(`/api/issues/${bare.id}`, t.adminToken)).body.issue.branchName;
    assert.equal(bareName, `feature/eng/${bare.identifier.toLowerCase()}_${bare.identifier.split('-')[1]}`);
    const audit = await t.ctx.db
      .selectFrom('audit_entries')
      .select('type')
      .where('type', '=', 'workspace.gitBranchFormatChanged')
      .execute();
    assert.equal(audit.length, 1);
    await put('/api/admin/git/settings', { branchFormat: DEFAULT_BRANCH_FORMAT }, t.adminToken);
  });

  test('a member may not read or change it (403 before the body is read); bad formats are 400 and change nothing', async () => {
    assert.equal((await t.get('/api/admin/git/settings', member.token)).status, 403);
    assert.equal((await put('/api/admin/git/settings', { branchFormat: 42 }, member.token)).status, 403);
    for (const bad of [
      '',
      '{issue.title}',
      '{user.username}/{issue.name}-{issue.identifier}',
      'feat/{issue.identifier} x',
      '/{issue.identifier}',
      'a..b/{issue.identifier}',
      `${'x'.repeat(100)}{issue.identifier}`,
      '{issue.identifier',
    ]) {
      const res = await put('/api/admin/git/settings', { branchFormat: bad }, t.adminToken);
      assert.equal(res.status, 400, bad);
      assert.equal(res.body.error.code, 'VALIDATION_FAILED', JSON.stringify(res.body));
    }
    assert.equal(
      (await t.get('/api/admin/git/settings', t.adminToken)).body.branchFormat,
      DEFAULT_BRANCH_FORMAT,
    );
  });

  test('property: any string is saved or refused with a 400, and a saved one fills into a clean branch name', async () => {
    const issue = await newIssue(t, 'Property probe');
    const piece = fc.oneof(
      fc.constantFrom(
        '{issue.identifier}',
        '{issue.title}',
        '{user.username}',
        '{team.key}',
        '{issue.number}',
      ),
      fc.constantFrom('/', '-', '_', '.', '{', '}', '{x}', ' ', 'é', '..', '//'),
      fc.string({ maxLength: 6 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 8 }), async (parts) => {
        const format = parts.join('');
        const res = await put('/api/admin/git/settings', { branchFormat: format }, t.adminToken);
        assert.ok(res.status === 200 || res.status === 400, `${res.status} for ${JSON.stringify(format)}`);
        assert.equal(res.status === 200, branchFormatProblem(format) === null, format);
        if (res.status === 200) {
          const name = (await t.get(`/api/issues/${issue.id}`, t.adminToken)).body.issue.branchName as string;
          assert.match(name, /^[A-Za-z0-9._/-]+$/);
          assert.ok(name.includes(issue.identifier.toLowerCase()), name);
          assert.doesNotMatch(name, /[{}]|\/\/|^[-_./]|[-_./]$/);
        }
      }),
      { numRuns: Number(process.env['FUZZ_RUNS'] ?? 25) },
    );
    await put('/api/admin/git/settings', { branchFormat: DEFAULT_BRANCH_FORMAT }, t.adminToken);
  });
});

describe('pull request marker and checks', () => {
  test('GitHub: the marker carries the status; check runs, suites and statuses combine on the head', async () => {
    const issue = await newIssue(t, 'Marker probe');
    assert.equal(await marker(issue.identifier), null);
    const { github } = hosts as Record<string, { secret: string }>;
    await deliverAndWait(t, 'github', github!.secret, 'pull_request', githubPull(issue.identifier));
    assert.deepEqual(await marker(issue.identifier), {
      count: 1,
      status: 'open',
      checks: null,
      host: 'github',
    });

    const runFailed = githubExample('check_run', 'completed', (e) => e.check_run.conclusion === 'failure');
    const runCreated = githubExample('check_run', 'created');
    runCreated.check_run.app = runFailed.check_run.app;
    await deliverAndWait(t, 'github', github!.secret, 'check_run', runCreated);
    assert.equal((await marker(issue.identifier)).checks, 'pending');
    await deliverAndWait(t, 'github', github!.secret, 'check_run', runFailed);
    assert.equal((await marker(issue.identifier)).checks, 'failure');
    const runPassed = githubExample('check_run', 'completed', (e) => e.check_run.conclusion === 'success');
    runPassed.check_run.app = runFailed.check_run.app;
    await deliverAndWait(t, 'github', github!.secret, 'check_run', runPassed);
    assert.equal((await marker(issue.identifier)).checks, 'success');
    // A commit status on the same head, by its own context: pending, then failure.
    const status = githubExample('status', undefined);
    status.sha = SHA;
    status.state = 'pending';
    await deliverAndWait(t, 'github', github!.secret, 'status', status);
    assert.equal((await marker(issue.identifier)).checks, 'pending');
    status.state = 'error';
    await deliverAndWait(t, 'github', github!.secret, 'status', status);
    assert.equal((await marker(issue.identifier)).checks, 'failure');
    status.state = 'success';
    const suite = githubExample('check_suite', 'completed', (e) => e.check_suite.conclusion === 'success');
    await deliverAndWait(t, 'github', github!.secret, 'status', status);
    const done = await deliverAndWait(t, 'github', github!.secret, 'check_suite', suite);
    assert.match(done.outcome ?? '', /checks success/);
    assert.equal((await marker(issue.identifier)).checks, 'success');

    // The issue page's attachment carries the checks, each by its key.
    const res = await t.get(`/api/issues/${issue.id}/attachments`, t.adminToken);
    const pull = res.body.attachments.find((a: Json) => a.sourceType === 'github');
    assert.equal(pull.metadata.checks.state, 'success');
    assert.equal(pull.metadata.checks.sha, SHA);
    assert.ok(Object.keys(pull.metadata.checks.each).length >= 3);

    // The pull request edited with the same head keeps its checks; a new head starts over.
    const same = githubPull(issue.identifier, SHA, 'edited');
    same.number = pull.metadata.number;
    same.pull_request.number = pull.metadata.number;
    same.pull_request.html_url = pull.url;
    await deliverAndWait(t, 'github', github!.secret, 'pull_request', same);
    assert.equal((await marker(issue.identifier)).checks, 'success');
    same.action = 'synchronize';
    same.pull_request.head.sha = 'f95f852bd8fca8fcc58a9a2d6c842781e32a215e';
    await deliverAndWait(t, 'github', github!.secret, 'pull_request', same);
    assert.equal((await marker(issue.identifier)).checks, null);

    // A second pull request: counted, and the one in play leads over a merged one.
    const second = githubPull(issue.identifier, 'a'.repeat(40));
    second.action = 'closed';
    second.pull_request.state = 'closed';
    second.pull_request.merged = true;
    await deliverAndWait(t, 'github', github!.secret, 'pull_request', second);
    assert.deepEqual(await marker(issue.identifier), {
      count: 2,
      status: 'open',
      checks: null,
      host: 'github',
    });
  });

  test('a check on a commit no linked pull request has at its head is ignored', async () => {
    const suite = githubExample('check_suite', 'requested');
    suite.check_suite.head_sha = 'b'.repeat(40);
    const row = await deliverAndWait(t, 'github', hosts['github']!.secret, 'check_suite', suite);
    assert.match(row.outcome ?? '', /^ignored: no pull request/);
  });

  test("GitLab's pipeline and Gitea's commit status set the checks of their merge/pull request", async () => {
    const lab = await newIssue(t, 'GitLab checks');
    const mr = gitlabExample();
    mr.object_attributes.title = `Fixes ${lab.identifier}`;
    mr.object_attributes.iid = 71;
    mr.object_attributes.url = 'https://gitlab.example.com/gitlabhq/gitlab-test/-/merge_requests/71';
    await deliverAndWait(t, 'gitlab', hosts['gitlab']!.secret, 'Merge Request Hook', mr);
    const labSha = mr.object_attributes.last_commit.id as string;
    // GitLab's pipeline event: object_kind pipeline, object_attributes { id, ref, sha, status, source }.
    const pipeline = {
      object_kind: 'pipeline',
      object_attributes: {
        id: 31,
        iid: 3,
        ref: 'master',
        tag: false,
        sha: labSha,
        source: 'merge_request_event',
        status: 'running',
        detailed_status: 'running',
        stages: ['test'],
      },
      merge_request: { id: 1, iid: 71, title: mr.object_attributes.title, url: mr.object_attributes.url },
      user: mr.user,
      project: mr.project,
      builds: [],
    };
    await deliverAndWait(t, 'gitlab', hosts['gitlab']!.secret, 'Pipeline Hook', pipeline);
    assert.equal((await marker(lab.identifier)).checks, 'pending');
    pipeline.object_attributes.status = 'failed';
    await deliverAndWait(t, 'gitlab', hosts['gitlab']!.secret, 'Pipeline Hook', pipeline);
    // The documentation's example has a reviewer: in review.
    assert.deepEqual(await marker(lab.identifier), {
      count: 1,
      status: 'inReview',
      checks: 'failure',
      host: 'gitlab',
    });

    const tea = await newIssue(t, 'Gitea checks');
    const pr = giteaExample();
    pr.pull_request.title = `Fixes ${tea.identifier}`;
    pr.pull_request.number = 72;
    pr.number = 72;
    pr.pull_request.html_url = 'https://gitea.example.com/gitea/webhooks/pulls/72';
    await deliverAndWait(t, 'gitea', hosts['gitea']!.secret, 'pull_request', pr);
    const teaSha = pr.pull_request.head.sha as string;
    // Gitea's status event (CommitStatusPayload): sha, context, state, target_url, repository, sender.
    const status = {
      id: 5,
      sha: teaSha,
      context: 'ci/woodpecker',
      description: 'Pipeline is running',
      target_url: 'https://ci.example.com/repos/1/pipeline/5',
      state: 'pending',
      repository: pr.repository,
      sender: pr.sender,
    };
    await deliverAndWait(t, 'gitea', hosts['gitea']!.secret, 'status', status);
    assert.equal((await marker(tea.identifier)).checks, 'pending');
    status.state = 'success';
    await deliverAndWait(t, 'gitea', hosts['gitea']!.secret, 'status', status);
    assert.equal((await marker(tea.identifier)).checks, 'success');
  });
});

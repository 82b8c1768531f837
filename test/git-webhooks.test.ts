// Pull requests move issues: the hosts' real example payloads (GitHub's from
// @octokit/webhooks-examples, GitLab's and Gitea's fixtures from their docs'
// examples), signed as each host signs them, drive linking, the magic words,
// every automation step, relinking, replays, refusals and unknown repositories.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  connect,
  deliver,
  deliverAndWait,
  gitAttachments,
  giteaExample,
  githubExample,
  gitlabExample,
  newIssue,
  processed,
  stateName,
} from './git-support.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let engId: string;
let github: { id: string; secret: string };
let prNumber = 100;

before(async () => {
  t = await startTestApp();
  engId = (await t.ctx.db.selectFrom('teams').select('id').where('key', '=', 'ENG').executeTakeFirstOrThrow())
    .id;
  github = await connect(t, 'github', [{ fullName: 'Codertocat/Hello-World', teamId: engId }]);
});
after(() => t.close());

/**
 * A GitHub pull_request example made into a new pull request with our texts.
 * The examples hold no merged "closed" nor an "edited": GitHub sends a merge as
 * "closed" with merged true, and an edit as the pull request plus `changes`.
 */
function pr(
  action: string,
  fields: { branch?: string; title?: string; body?: string | null; number?: number; merged?: boolean },
) {
  const p = githubExample('pull_request', action === 'edited' ? 'opened' : action);
  if (action === 'edited') {
    p.action = 'edited';
    p.changes = { body: { from: 'before' } };
  }
  const number = fields.number ?? ++prNumber;
  p.number = number;
  p.pull_request.number = number;
  p.pull_request.html_url = `https://github.com/Codertocat/Hello-World/pull/${number}`;
  p.pull_request.head.ref = fields.branch ?? 'some-branch';
  p.pull_request.title = fields.title ?? 'A change';
  p.pull_request.body = fields.body ?? null;
  p.pull_request.draft = false;
  p.pull_request.requested_reviewers = [];
  if (fields.merged) {
    p.pull_request.merged = true;
    p.pull_request.merged_at = p.pull_request.closed_at;
  }
  return p;
}

describe('GitHub', () => {
  test('a branch name links the issue and each step moves it: open, review requested, approved, merged', async () => {
    const issue = await newIssue(t);
    const branch = `${issue.identifier.toLowerCase()}-fix-the-login`;
    const opened = pr('opened', { branch, title: 'Fix the login' });
    const number = opened.number;
    const done = await deliverAndWait(t, 'github', github.secret, 'pull_request', opened);
    assert.equal(done.status, 'done');
    assert.equal(await stateName(t, issue.id), 'In Progress');
    const [link] = await gitAttachments(t, issue.id);
    assert.equal(link.sourceType, 'github');
    assert.equal(link.url, `https://github.com/Codertocat/Hello-World/pull/${number}`);
    assert.deepEqual(
      { ...link.metadata },
      {
        host: 'github',
        repo: 'codertocat/hello-world',
        number,
        title: 'Fix the login',
        author: 'Codertocat',
        status: 'open',
        url: link.url,
        branch,
        targetBranch: 'master',
        link: 'closes',
        // The head commit checks report on (docs/git.md "Checks").
        headSha: opened.pull_request.head.sha,
      },
    );

    const review = pr('review_requested', { branch, title: 'Fix the login', number });
    review.pull_request.requested_reviewers = [{ login: 'octocat' }];
    await deliverAndWait(t, 'github', github.secret, 'pull_request', review);
    assert.equal(await stateName(t, issue.id), 'In Review');
    assert.equal((await gitAttachments(t, issue.id))[0].metadata.status, 'inReview');

    const approved = githubExample('pull_request_review', 'submitted');
    approved.review.state = 'approved';
    Object.assign(approved.pull_request, {
      number,
      html_url: `https://github.com/Codertocat/Hello-World/pull/${number}`,
      title: 'Fix the login',
      body: null,
      draft: false,
    });
    approved.pull_request.head.ref = branch;
    await deliverAndWait(t, 'github', github.secret, 'pull_request_review', approved);
    assert.equal(await stateName(t, issue.id), 'In Review', 'approved keeps the state by default');
    assert.equal((await gitAttachments(t, issue.id))[0].metadata.status, 'approved');

    const merged = pr('closed', { branch, title: 'Fix the login', number, merged: true });
    await deliverAndWait(t, 'github', github.secret, 'pull_request', merged);
    assert.equal(await stateName(t, issue.id), 'Done');
    const links = await gitAttachments(t, issue.id);
    assert.equal(links.length, 1, 'one attachment per pull request, updated');
    assert.equal(links[0].metadata.status, 'merged');

    // Each move is in the history with the pull request's attachment as its cause, by the connecting admin.
    const history = (await t.get(`/api/issues/${issue.id}/history`, t.adminToken)).body.history as any[];
    const moves = history.filter((h) => h.changes.stateId);
    assert.equal(moves.length, 3);
    for (const m of moves) assert.equal(m.changes.attachmentId.to, links[0].id);

    // GraphQL shows the link the third-party way.
    const gql = await t.post(
      '/graphql',
      { query: `{ issue(id: "${issue.id}") { attachments { nodes { sourceType url metadata } } } }` },
      t.adminToken,
    );
    assert.equal(gql.status, 200, JSON.stringify(gql.body));
    const [node] = gql.body.data.issue.attachments.nodes;
    assert.equal(node.sourceType, 'github');
    assert.equal(node.url, links[0].url);
    assert.equal(node.metadata.status, 'merged');
  });

  test('a draft moves by the draft rule; a closed, unmerged pull request moves nothing', async () => {
    const issue = await newIssue(t);
    const draft = pr('opened', { title: `${issue.identifier} draft work` });
    draft.pull_request.draft = true;
    await deliverAndWait(t, 'github', github.secret, 'pull_request', draft);
    assert.equal(await stateName(t, issue.id), 'In Progress');
    assert.equal((await gitAttachments(t, issue.id))[0].metadata.status, 'draft');
    const closed = pr('closed', { title: `${issue.identifier} draft work`, number: draft.number });
    await deliverAndWait(t, 'github', github.secret, 'pull_request', closed);
    assert.equal(await stateName(t, issue.id), 'In Progress');
    assert.equal((await gitAttachments(t, issue.id))[0].metadata.status, 'closed');
  });

  test('closing words complete on merge, reference words only link; several issues per pull request', async () => {
    const [a, b, c, d, e] = await Promise.all([1, 2, 3, 4, 5].map(() => newIssue(t)));
    const body = `Fixes ${a!.identifier}, closes ${b!.identifier.toLowerCase()} and ${e!.identifier}.\n\nRefs ${c!.identifier}; part of ${d!.identifier}`;
    const opened = pr('opened', { body });
    await deliverAndWait(t, 'github', github.secret, 'pull_request', opened);
    for (const i of [a, b, e]) assert.equal(await stateName(t, i!.id), 'In Progress');
    for (const i of [c, d]) {
      assert.equal(await stateName(t, i!.id), 'Backlog', 'a reference does not move');
      assert.equal((await gitAttachments(t, i!.id))[0].metadata.link, 'ref');
    }
    const merged = pr('closed', { body, number: opened.number, merged: true });
    await deliverAndWait(t, 'github', github.secret, 'pull_request', merged);
    for (const i of [a, b, e]) assert.equal(await stateName(t, i!.id), 'Done');
    for (const i of [c, d]) assert.equal(await stateName(t, i!.id), 'Backlog');
  });

  test('an edited description and a renamed branch relink', async () => {
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => newIssue(t)));
    const opened = pr('opened', { branch: `feature/${a!.identifier}`, body: `Resolves ${b!.identifier}` });
    await deliverAndWait(t, 'github', github.secret, 'pull_request', opened);
    assert.equal((await gitAttachments(t, a!.id)).length, 1);
    assert.equal((await gitAttachments(t, b!.id)).length, 1);
    const edited = pr('edited', {
      branch: `feature/${c!.identifier}`,
      body: 'Nothing to see',
      number: opened.number,
    });
    await deliverAndWait(t, 'github', github.secret, 'pull_request', edited);
    assert.equal((await gitAttachments(t, a!.id)).length, 0);
    assert.equal((await gitAttachments(t, b!.id)).length, 0);
    assert.equal((await gitAttachments(t, c!.id)).length, 1);
    assert.equal(await stateName(t, c!.id), 'Backlog', 'an edit links but is no step');
  });

  test("team rules: don't move, and a rule for one target branch", async () => {
    const states = await t.ctx.db
      .selectFrom('workflow_states')
      .select(['id', 'name'])
      .where('team_id', '=', engId)
      .execute();
    const byName = (n: string) => states.find((x) => x.name === n)!.id;
    const set = await t.request('PUT', `/api/admin/git/teams/${engId}/automation`, {
      token: t.adminToken,
      body: {
        rules: [
          { event: 'review', targetBranch: null, stateId: null },
          { event: 'merge', targetBranch: 'staging', stateId: byName('In Review') },
        ],
      },
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    try {
      const issue = await newIssue(t);
      const opened = pr('opened', { branch: issue.identifier });
      opened.pull_request.base.ref = 'staging';
      await deliverAndWait(t, 'github', github.secret, 'pull_request', opened);
      const review = pr('review_requested', { branch: issue.identifier, number: opened.number });
      review.pull_request.base.ref = 'staging';
      await deliverAndWait(t, 'github', github.secret, 'pull_request', review);
      assert.equal(await stateName(t, issue.id), 'In Progress', "review: don't move");
      const merged = pr('closed', { branch: issue.identifier, number: opened.number, merged: true });
      merged.pull_request.base.ref = 'staging';
      await deliverAndWait(t, 'github', github.secret, 'pull_request', merged);
      assert.equal(await stateName(t, issue.id), 'In Review', 'merged into staging: its own rule');

      const other = await newIssue(t);
      const intoMaster = pr('closed', { branch: other.identifier, merged: true });
      await deliverAndWait(t, 'github', github.secret, 'pull_request', intoMaster);
      assert.equal(await stateName(t, other.id), 'Done', 'another branch: the default');
    } finally {
      await t.request('PUT', `/api/admin/git/teams/${engId}/automation`, {
        token: t.adminToken,
        body: { rules: [] },
      });
    }
  });

  test('a replayed delivery id is answered 200 "duplicate" and does nothing', async () => {
    const issue = await newIssue(t);
    const payload = pr('opened', { branch: issue.identifier });
    const first = await deliver(t, 'github', github.secret, 'pull_request', payload, {
      deliveryId: 'replay-1',
    });
    assert.equal(first.status, 202);
    await processed(t, first.body.id);
    const again = await deliver(t, 'github', github.secret, 'pull_request', payload, {
      deliveryId: 'replay-1',
    });
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, { status: 'duplicate' });
    const rows = await t.ctx.db
      .selectFrom('git_deliveries')
      .select('id')
      .where('delivery_id', '=', 'replay-1')
      .execute();
    assert.equal(rows.length, 1);
  });

  test('a bad or missing signature is refused 401 and queues nothing', async () => {
    const issue = await newIssue(t);
    const payload = pr('opened', { branch: issue.identifier });
    const wrong = await deliver(t, 'github', 'not-the-secret-at-all', 'pull_request', payload);
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error.code, 'UNAUTHENTICATED');
    const garbage = await deliver(t, 'github', github.secret, 'pull_request', payload, {
      proof: 'sha256=zz',
    });
    assert.equal(garbage.status, 401);
    const missing = await t.request('POST', '/api/integrations/github/webhook', {
      payload: JSON.stringify(payload),
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'pull_request',
        'x-github-delivery': 'x',
      },
    });
    assert.equal(missing.status, 401);
    assert.equal(await stateName(t, issue.id), 'Backlog');
  });

  test('a repository nobody connected is ignored (202)', async () => {
    const payload = pr('opened', { branch: 'ENG-1' });
    payload.repository.full_name = 'someone/else';
    const res = await deliver(t, 'github', github.secret, 'pull_request', payload);
    assert.equal(res.status, 202);
    assert.deepEqual(res.body, { status: 'ignored', reason: 'repository not connected' });
  });

  test('a body over the limit is refused 413', async () => {
    const res = await t.request('POST', '/api/integrations/github/webhook', {
      payload: 'x'.repeat(1024 * 1024 + 1),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 413);
  });

  test('commit messages of a push link the issues they name, and move nothing', async () => {
    const issue = await newIssue(t);
    const push = githubExample('push', undefined, (e) => e.commits.length > 0);
    push.commits[0].message = `Tidy the README\n\nPart of ${issue.identifier}`;
    await deliverAndWait(t, 'github', github.secret, 'push', push);
    const [link] = await gitAttachments(t, issue.id);
    assert.equal(link.title, 'Tidy the README');
    assert.equal(link.url, push.commits[0].url);
    assert.equal(link.metadata.kind, 'commit');
    assert.equal(link.metadata.sha, push.commits[0].id);
    assert.equal(await stateName(t, issue.id), 'Backlog');
  });
});

describe('GitLab', () => {
  let gitlab: { id: string; secret: string };
  before(async () => {
    gitlab = await connect(t, 'gitlab', [{ fullName: 'gitlabhq/gitlab-test', teamId: engId }]);
  });
  const mr = (action: string, title: string, iid: number, extra: (p: any) => void = () => {}) => {
    const p = gitlabExample();
    p.object_attributes.action = action;
    p.object_attributes.title = title;
    p.object_attributes.iid = iid;
    p.object_attributes.url = `http://example.com/gitlabhq/gitlab-test/-/merge_requests/${iid}`;
    extra(p);
    return p;
  };

  test('a merge request moves its issue: open, review requested, approved, merged', async () => {
    const issue = await newIssue(t);
    const title = `${issue.identifier}: MS-Viewport`;
    await deliverAndWait(t, 'gitlab', gitlab.secret, 'Merge Request Hook', mr('open', title, 7));
    assert.equal(await stateName(t, issue.id), 'In Progress');
    const [link] = await gitAttachments(t, issue.id);
    assert.equal(link.sourceType, 'gitlab');
    assert.equal(link.metadata.repo, 'gitlabhq/gitlab-test');
    assert.equal(link.metadata.number, 7);
    assert.equal(link.metadata.author, 'root');
    assert.equal(link.metadata.branch, 'ms-viewport');
    assert.equal(link.metadata.status, 'inReview', 'the example has a reviewer');
    await deliverAndWait(
      t,
      'gitlab',
      gitlab.secret,
      'Merge Request Hook',
      mr('update', title, 7, (p) => {
        p.changes = { reviewers: { previous: [], current: p.reviewers } };
      }),
    );
    assert.equal(await stateName(t, issue.id), 'In Review');
    await deliverAndWait(t, 'gitlab', gitlab.secret, 'Merge Request Hook', mr('approved', title, 7));
    assert.equal((await gitAttachments(t, issue.id))[0].metadata.status, 'approved');
    await deliverAndWait(
      t,
      'gitlab',
      gitlab.secret,
      'Merge Request Hook',
      mr('merge', title, 7, (p) => {
        p.object_attributes.state = 'merged';
      }),
    );
    assert.equal(await stateName(t, issue.id), 'Done');
    assert.equal((await gitAttachments(t, issue.id))[0].metadata.status, 'merged');
  });

  test("the last commit's message links too", async () => {
    const issue = await newIssue(t);
    await deliverAndWait(
      t,
      'gitlab',
      gitlab.secret,
      'Merge Request Hook',
      mr('open', 'No id here', 8, (p) => {
        p.object_attributes.last_commit.message = `fixed readme, completes ${issue.identifier}`;
      }),
    );
    assert.equal(await stateName(t, issue.id), 'In Progress');
  });

  test('a wrong token is refused 401', async () => {
    const res = await deliver(t, 'gitlab', gitlab.secret, 'Merge Request Hook', mr('open', 'x', 9), {
      proof: 'wrong-token-wrong-token',
    });
    assert.equal(res.status, 401);
  });
});

describe('Gitea / Forgejo', () => {
  let gitea: { id: string; secret: string };
  before(async () => {
    gitea = await connect(t, 'gitea', [{ fullName: 'gitea/webhooks', teamId: engId }]);
  });
  const pull = (action: string, body: string, number: number, extra: (p: any) => void = () => {}) => {
    const p = giteaExample();
    p.action = action;
    p.number = number;
    p.pull_request.number = number;
    p.pull_request.body = body;
    p.pull_request.html_url = `http://localhost:3000/gitea/webhooks/pulls/${number}`;
    extra(p);
    return p;
  };

  test('a pull request moves its issue: opened, review requested, approved, merged', async () => {
    const issue = await newIssue(t);
    const body = `Implements ${issue.identifier}`;
    await deliverAndWait(t, 'gitea', gitea.secret, 'pull_request', pull('opened', body, 3));
    assert.equal(await stateName(t, issue.id), 'In Progress');
    const [link] = await gitAttachments(t, issue.id);
    assert.equal(link.sourceType, 'gitea');
    assert.equal(link.metadata.author, 'gitea');
    assert.equal(link.metadata.status, 'open');
    await deliverAndWait(
      t,
      'gitea',
      gitea.secret,
      'pull_request_review_request',
      pull('review_requested', body, 3, (p) => {
        p.pull_request.requested_reviewers = [p.sender];
      }),
    );
    assert.equal(await stateName(t, issue.id), 'In Review');
    await deliverAndWait(
      t,
      'gitea',
      gitea.secret,
      'pull_request_approved',
      pull('reviewed', body, 3, (p) => {
        p.review = { type: 'pull_request_review_approved', content: 'LGTM' };
      }),
    );
    assert.equal((await gitAttachments(t, issue.id))[0].metadata.status, 'approved');
    await deliverAndWait(
      t,
      'gitea',
      gitea.secret,
      'pull_request',
      pull('closed', body, 3, (p) => {
        p.pull_request.merged = true;
        p.pull_request.state = 'closed';
      }),
    );
    assert.equal(await stateName(t, issue.id), 'Done');
  });

  test('a bad signature is refused 401', async () => {
    const res = await deliver(t, 'gitea', gitea.secret, 'pull_request', pull('opened', '', 4), {
      proof: 'ab'.repeat(32),
    });
    assert.equal(res.status, 401);
  });
});

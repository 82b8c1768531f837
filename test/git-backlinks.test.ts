// Back-link comments through the hosts' APIs: real webhook payloads drive the
// worker, and a local HTTP server standing in for each host's API records
// every request, so the tests assert exactly what GitHub, GitLab and Gitea
// are sent (path, method, auth header, content type, JSON body), that each
// pull request gets one comment per issue across replays, later deliveries
// and a retry after a host error, and that a private team's issue title
// never leaves on a public repository. The stand-in keeps the comments it
// took, so a retry after a lost answer finds its own and posts nothing new;
// and it answers GitHub App token requests, whose JWT the tests verify with
// the App's public key.
import assert from 'node:assert/strict';
import { generateKeyPairSync, verify } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, test } from 'node:test';
import fc from 'fast-check';
import {
  deliver,
  deliverAndWait,
  giteaExample,
  githubExample,
  gitlabExample,
  processed,
} from './git-support.js';
import { apiKeyFor, gql } from './graphql-helpers.js';
import { startTestApp, type TestApp } from './support/harness.js';

interface Recorded {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let t: TestApp;
let api: http.Server;
let apiBase: string;
let recorded: Recorded[] = [];
/** Statuses the next comment POSTs get, in order; then 201. 0: the host takes the comment and the answer is lost. */
let answers: number[] = [];
/** The comments the stand-in host holds, by the comments path. */
let held = new Map<string, { id: number; body: string }[]>();
/** How long the installation tokens the stand-in hands out live. */
let tokenLifeMs = 60 * 60_000;
let tokensIssued = 0;
let engId: string;
let secretTeamId: string;
let prNumber = 500;
const conns: Record<'github' | 'gitlab' | 'gitea', { id: string; secret: string }> = {} as never;
const APP_KEY = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const TOKENS = { github: 'ghp_testtoken', gitlab: 'glpat-testtoken', gitea: 'gitea-testtoken' };

before(async () => {
  api = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      recorded.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      const path = (req.url ?? '').split('?')[0]!;
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(value));
      };
      if (path.endsWith('/access_tokens')) {
        const expires = new Date(Date.now() + tokenLifeMs).toISOString().replace(/\.\d+Z$/, 'Z');
        return json(201, { token: `ghs_installation${++tokensIssued}`, expires_at: expires });
      }
      if (path.endsWith('/installation')) return json(200, { id: 777, app_id: 12345 });
      if (req.method === 'GET') return json(200, held.get(path) ?? []);
      const status = answers.shift() ?? 201;
      if (status === 201 || status === 0) {
        held.set(path, [...(held.get(path) ?? []), { id: 4242, body: JSON.parse(body).body }]);
      }
      if (status === 0) return void req.socket.destroy();
      json(status, status === 201 ? { id: 4242, body: 'ok' } : { message: 'boom' });
    });
  });
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
  apiBase = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  t = await startTestApp({}, { gitWorker: { pollMs: 20, retryBaseMs: 10 } });
  engId = (await t.get('/api/teams/ENG', t.adminToken)).body.team.id;
  const secret = await t.post('/api/teams', { key: 'SEC', name: 'Secret team', private: true }, t.adminToken);
  assert.equal(secret.status, 201, JSON.stringify(secret.body));
  secretTeamId = secret.body.team.id;
  const repos = {
    github: 'Codertocat/Hello-World',
    gitlab: 'gitlabhq/gitlab-test',
    gitea: 'gitea/webhooks',
  } as const;
  const bases = { github: `${apiBase}/gh`, gitlab: `${apiBase}/gl/api/v4`, gitea: `${apiBase}/gt/api/v1` };
  for (const host of ['github', 'gitlab', 'gitea'] as const) {
    const res = await t.post(
      '/api/admin/git/connections',
      {
        host,
        name: `${host} back-links`,
        apiToken: TOKENS[host],
        apiBaseUrl: bases[host],
        repositories: [{ fullName: repos[host], teamId: engId }],
      },
      t.adminToken,
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.connection.backlinks, true);
    assert.equal(res.body.connection.apiBaseUrl, bases[host]);
    conns[host] = { id: res.body.connection.id, secret: res.body.webhookSecret };
  }
});
after(async () => {
  await t.close();
  await new Promise<void>((r) => api.close(() => r()));
});
beforeEach(() => {
  recorded = [];
  answers = [];
  held = new Map();
});

async function gitAttachmentCount(issueId: string): Promise<number> {
  const rows = await t.ctx.db
    .selectFrom('attachments')
    .select('id')
    .where('issue_id', '=', issueId)
    .where('source_type', '=', 'github')
    .execute();
  return rows.length;
}

/** The comment's visible text; the hidden marker after it names its back-link row. */
function visible(req: Recorded, rowId?: string): string {
  const [text, marker, ...rest] = (JSON.parse(req.body).body as string).split('\n\n');
  assert.equal(rest.length, 0);
  assert.match(marker ?? '', /^<!-- trackway-backlink:[0-9a-f-]{36} -->$/);
  if (rowId) assert.equal(marker, `<!-- trackway-backlink:${rowId} -->`);
  return text!;
}

async function issue(title: string, teamId = 'ENG') {
  const res = await t.post('/api/issues', { title, teamId }, t.adminToken);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.issue as { id: string; identifier: string; url: string };
}

/** Waits until no back-link is due or in flight; returns every back-link row. */
async function settled() {
  for (let i = 0; i < 400; i++) {
    const rows = await t.ctx.db.selectFrom('git_backlinks').selectAll().execute();
    if (rows.every((r) => r.status === 'posted' || r.status === 'failed')) return rows;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('back-links did not settle');
}

function githubPr(fields: { title: string; body?: string; number?: number; private?: boolean }) {
  const p = githubExample('pull_request', 'opened');
  const number = fields.number ?? ++prNumber;
  p.number = number;
  p.pull_request.number = number;
  p.pull_request.html_url = `https://github.com/Codertocat/Hello-World/pull/${number}`;
  p.pull_request.title = fields.title;
  p.pull_request.body = fields.body ?? null;
  p.pull_request.draft = false;
  p.pull_request.head.ref = 'some-branch';
  if (fields.private !== undefined) p.repository.private = fields.private;
  return p;
}

const publicUrl = () => t.config.publicUrl.replace(/\/$/, '');

describe('GitHub', () => {
  test('a pull request linking an issue posts one comment: the exact request GitHub expects', async () => {
    const i = await issue('Fix the login page');
    const p = githubPr({ title: `${i.identifier}: fix the login` });
    const done = await deliverAndWait(t, 'github', conns.github.secret, 'pull_request', p);
    assert.match(done.outcome ?? '', /1 back-link queued/);
    const [row] = (await settled()).filter((r) => r.issue_id === i.id);
    assert.equal(row?.status, 'posted');
    assert.equal(row?.comment_id, '4242');
    assert.equal(recorded.length, 1);
    const [req] = recorded;
    assert.equal(req!.method, 'POST');
    assert.equal(req!.path, `/gh/repos/Codertocat/Hello-World/issues/${p.number}/comments`);
    assert.equal(req!.headers['authorization'], `Bearer ${TOKENS.github}`);
    assert.equal(req!.headers['accept'], 'application/vnd.github+json');
    assert.equal(req!.headers['x-github-api-version'], '2022-11-28');
    assert.equal(req!.headers['content-type'], 'application/json');
    assert.ok(req!.headers['user-agent'], 'GitHub refuses requests without a User-Agent');
    assert.deepEqual(Object.keys(JSON.parse(req!.body)), ['body']);
    assert.equal(
      visible(req!, row!.id),
      `Linked to [${i.identifier} Fix the login page](${publicUrl()}/issue/${i.identifier}/fix-the-login-page) in Trackway.`,
    );
    assert.equal(JSON.parse(req!.body).body.includes(i.url), true, 'the issue URL is the one the API gives');
  });

  test('replays, later deliveries and edits of the same pull request post nothing more', async () => {
    const i = await issue('Only once');
    const p = githubPr({ title: `Fixes ${i.identifier}` });
    const id = 'replayed-delivery-1';
    const first = await deliver(t, 'github', conns.github.secret, 'pull_request', p, { deliveryId: id });
    assert.equal(first.status, 202);
    await processed(t, first.body.id);
    await settled();
    const replay = await deliver(t, 'github', conns.github.secret, 'pull_request', p, { deliveryId: id });
    assert.equal(replay.body.status, 'duplicate');
    const edited = structuredClone(p);
    edited.action = 'edited';
    edited.pull_request.body = `Also about ${i.identifier}`;
    const later = await deliverAndWait(t, 'github', conns.github.secret, 'pull_request', edited);
    assert.doesNotMatch(later.outcome ?? '', /back-link/);
    await settled();
    assert.equal(recorded.length, 1);
  });

  test('a host error is retried: after a 500 the comment goes out once', async () => {
    const i = await issue('Retried comment');
    answers = [500];
    await deliverAndWait(t, 'github', conns.github.secret, 'pull_request', githubPr({ title: i.identifier }));
    const [row] = (await settled()).filter((r) => r.issue_id === i.id);
    assert.equal(row?.status, 'posted');
    assert.equal(row?.attempts, 2);
    // The retry first reads the comments (none of ours: the 500 took nothing), then posts.
    assert.deepEqual(
      recorded.map((r) => r.method),
      ['POST', 'GET', 'POST'],
    );
    const [first, list, second] = recorded;
    assert.equal(first!.body, second!.body);
    assert.equal(first!.path, second!.path);
    assert.equal(list!.path.split('?')[0], first!.path);
    assert.match(list!.path, /[?&]since=\d{4}-/);
    assert.equal(list!.headers['authorization'], `Bearer ${TOKENS.github}`);
  });

  test('an answer lost after GitHub took the comment: the retry finds it and posts nothing new', async () => {
    const i = await issue('Lost answer');
    answers = [0];
    await deliverAndWait(t, 'github', conns.github.secret, 'pull_request', githubPr({ title: i.identifier }));
    const [row] = (await settled()).filter((r) => r.issue_id === i.id);
    assert.equal(row?.status, 'posted');
    assert.equal(row?.attempts, 2);
    assert.equal(row?.comment_id, '4242', "the comment found is recorded as the row's");
    assert.deepEqual(
      recorded.map((r) => r.method),
      ['POST', 'GET'],
    );
    assert.equal([...held.values()].flat().length, 1, 'one comment on the pull request');
    visible(recorded[0]!, row!.id);
  });

  test('a refusal (404) is not retried and is recorded', async () => {
    const i = await issue('Refused comment');
    answers = [404];
    await deliverAndWait(t, 'github', conns.github.secret, 'pull_request', githubPr({ title: i.identifier }));
    const [row] = (await settled()).filter((r) => r.issue_id === i.id);
    assert.equal(row?.status, 'failed');
    assert.match(row?.last_error ?? '', /HTTP 404/);
    assert.equal(recorded.length, 1);
  });

  test("a private team's issue: identifier and URL only on a public repository, never the title", async () => {
    const secret = await issue('Acquisition of Initech', 'SEC');
    const open = await issue('Public cleanup');
    const p = githubPr({ title: `${secret.identifier} and ${open.identifier}`, private: false });
    await deliverAndWait(t, 'github', conns.github.secret, 'pull_request', p);
    await settled();
    assert.equal(recorded.length, 2);
    const everything = JSON.stringify(recorded).toLowerCase();
    assert.equal(everything.includes('initech'), false, 'the private title leaked');
    const bodies = recorded.map((r) => visible(r)).sort();
    assert.ok(
      bodies.includes(
        `Linked to [${secret.identifier}](${publicUrl()}/issue/${secret.identifier}) in Trackway.`,
      ),
      bodies.join('\n'),
    );
    assert.ok(bodies.some((b) => b.includes('Public cleanup')));
  });

  test('on a repository the payload says is private, the private team issue is named with its title', async () => {
    const secret = await issue('Quarterly numbers', 'SEC');
    const p = githubPr({ title: secret.identifier, private: true });
    await deliverAndWait(t, 'github', conns.github.secret, 'pull_request', p);
    await settled();
    assert.equal(recorded.length, 1);
    assert.match(visible(recorded[0]!), /Quarterly numbers/);
    assert.ok(secretTeamId);
  });

  test('switched off, or without a token, nothing is queued or sent', async () => {
    const off = await t.patch(
      `/api/admin/git/connections/${conns.github.id}`,
      { backlinks: false },
      t.adminToken,
    );
    assert.equal(off.status, 200);
    assert.equal(off.body.connection.backlinks, false);
    const i = await issue('No comment wanted');
    const done = await deliverAndWait(
      t,
      'github',
      conns.github.secret,
      'pull_request',
      githubPr({ title: i.identifier }),
    );
    assert.doesNotMatch(done.outcome ?? '', /back-link/);
    const noToken = await t.patch(
      `/api/admin/git/connections/${conns.github.id}`,
      { backlinks: true, apiToken: null },
      t.adminToken,
    );
    assert.equal(noToken.body.connection.hasApiToken, false);
    const j = await issue('Still no comment');
    await deliverAndWait(t, 'github', conns.github.secret, 'pull_request', githubPr({ title: j.identifier }));
    await settled();
    assert.equal(recorded.length, 0);
    const rows = await t.ctx.db.selectFrom('git_backlinks').select('issue_id').execute();
    assert.equal(
      rows.some((r) => r.issue_id === i.id || r.issue_id === j.id),
      false,
    );
    const back = await t.patch(
      `/api/admin/git/connections/${conns.github.id}`,
      { apiToken: TOKENS.github },
      t.adminToken,
    );
    assert.equal(back.body.connection.hasApiToken, true);
  });
});

describe('pull requests linked by hand through GraphQL', () => {
  let base: string;
  let key: string;
  before(async () => {
    base = await t.listen();
    key = await apiKeyFor(t, t.adminToken);
  });
  /** The stand-in host's own address: the connections' API roots are on it, so their pull requests are too. */
  const hostUrl = (path: string) => `${apiBase}${path}`;
  const linkGitHub = async (issueId: string, url: string) => {
    const res = await gql(
      base,
      key,
      'mutation($i: String!, $u: String!) { attachmentLinkGitHubPR(issueId: $i, url: $u, title: "By hand") { success attachment { id } } }',
      { i: issueId, u: url },
    );
    assert.equal(res.body.data?.attachmentLinkGitHubPR?.success, true, JSON.stringify(res.body));
  };
  const rowsOf = async (issueId: string) => (await settled()).filter((r) => r.issue_id === issueId);

  test('GitHub: the comment a webhook would post, once, and a later delivery of the same pull request adds none', async () => {
    const i = await issue('Linked from the API');
    const number = ++prNumber;
    const url = hostUrl(`/Codertocat/Hello-World/pull/${number}`);
    await linkGitHub(i.identifier, url);
    const [row] = await rowsOf(i.id);
    assert.equal(row?.status, 'posted');
    assert.equal(row?.repo_private, false);
    const seen = () => JSON.stringify(recorded.map((r) => `${r.method} ${r.path}`));
    // A retry under load first lists the comments (GET) and finds its own: still one comment.
    const posts = () => recorded.filter((r) => r.method === 'POST');
    assert.equal(posts().length, 1, seen());
    const [req] = posts();
    assert.equal(req!.method, 'POST');
    assert.equal(req!.path, `/gh/repos/Codertocat/Hello-World/issues/${number}/comments`);
    assert.equal(req!.headers['authorization'], `Bearer ${TOKENS.github}`);
    assert.equal(req!.headers['accept'], 'application/vnd.github+json');
    assert.equal(req!.headers['x-github-api-version'], '2022-11-28');
    assert.equal(req!.headers['content-type'], 'application/json');
    assert.deepEqual(Object.keys(JSON.parse(req!.body)), ['body']);
    assert.equal(
      visible(req!, row!.id),
      `Linked to [${i.identifier} Linked from the API](${publicUrl()}/issue/${i.identifier}/linked-from-the-api) in Trackway.`,
    );

    await linkGitHub(i.id, url);
    const p = githubPr({ title: `Fixes ${i.identifier}`, number });
    p.pull_request.html_url = url;
    await deliverAndWait(t, 'github', conns.github.secret, 'pull_request', p);
    assert.equal((await rowsOf(i.id)).length, 1);
    assert.equal(posts().length, 1, `linking again and the delivery post nothing more: ${seen()}`);
  });

  test("a private team's issue: identifier and URL only (the repository's privacy is not known), never the title", async () => {
    const secret = await issue('Merger with Initrode', 'SEC');
    await linkGitHub(secret.identifier, hostUrl(`/Codertocat/Hello-World/pull/${++prNumber}`));
    await rowsOf(secret.id);
    assert.equal(recorded.length, 1);
    assert.equal(
      JSON.stringify(recorded).toLowerCase().includes('initrode'),
      false,
      'the private title leaked',
    );
    assert.equal(
      visible(recorded[0]!),
      `Linked to [${secret.identifier}](${publicUrl()}/issue/${secret.identifier}) in Trackway.`,
    );
  });

  test('GitLab: a note on the merge request, by its path, with PRIVATE-TOKEN', async () => {
    const i = await issue('GitLab by hand');
    const number = ++prNumber;
    const res = await gql(
      base,
      key,
      `mutation($i: String!, $u: String!, $n: Float!) {
        attachmentLinkGitLabMR(issueId: $i, url: $u, projectPathWithNamespace: "gitlabhq/gitlab-test", number: $n) { success }
      }`,
      { i: i.identifier, u: hostUrl(`/gitlabhq/gitlab-test/-/merge_requests/${number}`), n: number },
    );
    assert.equal(res.body.data?.attachmentLinkGitLabMR?.success, true, JSON.stringify(res.body));
    const [row] = await rowsOf(i.id);
    assert.equal(row?.status, 'posted');
    assert.equal(recorded.length, 1);
    const [req] = recorded;
    assert.equal(req!.method, 'POST');
    assert.equal(req!.path, `/gl/api/v4/projects/gitlabhq%2Fgitlab-test/merge_requests/${number}/notes`);
    assert.equal(req!.headers['private-token'], TOKENS.gitlab);
    assert.equal(req!.headers['authorization'], undefined);
    assert.match(visible(req!, row!.id), /GitLab by hand/);
  });

  test('nothing is posted for a repository no connection lists, a URL on another host, or back-links off', async () => {
    const i = await issue('No comment by hand');
    await linkGitHub(i.id, hostUrl(`/someone/elsewhere/pull/${++prNumber}`));
    // The connected repository's name, on a host that is not the connection's.
    await linkGitHub(i.id, `https://github.example.org/Codertocat/Hello-World/pull/${++prNumber}`);
    const off = await t.patch(
      `/api/admin/git/connections/${conns.github.id}`,
      { backlinks: false },
      t.adminToken,
    );
    assert.equal(off.status, 200);
    try {
      await linkGitHub(i.id, hostUrl(`/Codertocat/Hello-World/pull/${++prNumber}`));
    } finally {
      await t.patch(`/api/admin/git/connections/${conns.github.id}`, { backlinks: true }, t.adminToken);
    }
    assert.equal(await gitAttachmentCount(i.id), 3, 'each link is made');
    assert.deepEqual(await rowsOf(i.id), []);
    assert.equal(recorded.length, 0);
  });

  test('a refused link queues nothing: a guest, or a member outside the private team of the issue', async () => {
    const open = await issue('Guarded by hand');
    const hidden = await issue('Hidden by hand', 'SEC');
    const guest = await t.userWithRole('guest', { teams: ['ENG'] });
    const member = await t.userWithRole('member');
    for (const [who, target] of [
      [guest, open],
      [member, hidden],
    ] as const) {
      const res = await gql(
        base,
        await apiKeyFor(t, who.token),
        'mutation($i: String!, $u: String!) { attachmentLinkGitHubPR(issueId: $i, url: $u) { success } }',
        { i: target.id, u: hostUrl(`/Codertocat/Hello-World/pull/${++prNumber}`) },
      );
      assert.ok(res.body.errors?.length, JSON.stringify(res.body));
      assert.deepEqual(await rowsOf(target.id), []);
    }
    assert.equal(recorded.length, 0);
  });
});

describe('GitLab and Gitea', () => {
  test('GitLab: a note on the merge request, by project id, with PRIVATE-TOKEN', async () => {
    const i = await issue('Merge request note');
    const p = gitlabExample();
    p.object_attributes.iid = ++prNumber;
    p.object_attributes.url = `https://gitlab.example.com/gitlabhq/gitlab-test/-/merge_requests/${prNumber}`;
    p.object_attributes.title = `Closes ${i.identifier}`;
    p.object_attributes.action = 'open';
    await deliverAndWait(t, 'gitlab', conns.gitlab.secret, 'Merge Request Hook', p);
    await settled();
    assert.equal(recorded.length, 1);
    const [req] = recorded;
    assert.equal(req!.method, 'POST');
    assert.equal(req!.path, `/gl/api/v4/projects/${p.project.id}/merge_requests/${prNumber}/notes`);
    assert.equal(req!.headers['private-token'], TOKENS.gitlab);
    assert.equal(req!.headers['authorization'], undefined);
    assert.equal(req!.headers['content-type'], 'application/json');
    assert.equal(
      visible(req!),
      `Linked to [${i.identifier} Merge request note](${publicUrl()}/issue/${i.identifier}/merge-request-note) in Trackway.`,
    );
  });

  test('Gitea: an issue comment on the pull request with "Authorization: token"', async () => {
    const i = await issue('Gitea comment');
    const p = giteaExample();
    p.action = 'opened';
    p.number = ++prNumber;
    p.pull_request.number = prNumber;
    p.pull_request.html_url = `https://gitea.example.com/gitea/webhooks/pulls/${prNumber}`;
    p.pull_request.title = `${i.identifier} for Gitea`;
    await deliverAndWait(t, 'gitea', conns.gitea.secret, 'pull_request', p);
    await settled();
    assert.equal(recorded.length, 1);
    const [req] = recorded;
    assert.equal(req!.method, 'POST');
    assert.equal(req!.path, `/gt/api/v1/repos/gitea/webhooks/issues/${prNumber}/comments`);
    assert.equal(req!.headers['authorization'], `token ${TOKENS.gitea}`);
    assert.equal(req!.headers['content-type'], 'application/json');
    assert.equal(
      visible(req!),
      `Linked to [${i.identifier} Gitea comment](${publicUrl()}/issue/${i.identifier}/gitea-comment) in Trackway.`,
    );
  });
});

describe('a lost answer on GitLab and Gitea', () => {
  test('the retry reads the notes / comments, finds its own and posts nothing new', async () => {
    const i = await issue('Lost on GitLab');
    const gl = gitlabExample();
    gl.object_attributes.iid = ++prNumber;
    gl.object_attributes.url = `https://gitlab.example.com/gitlabhq/gitlab-test/-/merge_requests/${prNumber}`;
    gl.object_attributes.title = i.identifier;
    gl.object_attributes.action = 'open';
    answers = [0];
    await deliverAndWait(t, 'gitlab', conns.gitlab.secret, 'Merge Request Hook', gl);
    const j = await issue('Lost on Gitea');
    const gt = giteaExample();
    gt.action = 'opened';
    gt.number = ++prNumber;
    gt.pull_request.number = prNumber;
    gt.pull_request.html_url = `https://gitea.example.com/gitea/webhooks/pulls/${prNumber}`;
    gt.pull_request.title = j.identifier;
    await settled();
    answers = [0];
    await deliverAndWait(t, 'gitea', conns.gitea.secret, 'pull_request', gt);
    const rows = (await settled()).filter((r) => r.issue_id === i.id || r.issue_id === j.id);
    assert.deepEqual(
      rows.map((r) => [r.status, r.attempts, r.comment_id]),
      [
        ['posted', 2, '4242'],
        ['posted', 2, '4242'],
      ],
    );
    assert.deepEqual(
      recorded.map((r) => `${r.method} ${r.path.split('?')[0]}`),
      [
        `POST /gl/api/v4/projects/${gl.project.id}/merge_requests/${prNumber - 1}/notes`,
        `GET /gl/api/v4/projects/${gl.project.id}/merge_requests/${prNumber - 1}/notes`,
        `POST /gt/api/v1/repos/gitea/webhooks/issues/${prNumber}/comments`,
        `GET /gt/api/v1/repos/gitea/webhooks/issues/${prNumber}/comments`,
      ],
    );
    assert.equal(recorded[1]!.headers['private-token'], TOKENS.gitlab);
    assert.equal(recorded[3]!.headers['authorization'], `token ${TOKENS.gitea}`);
    assert.equal([...held.values()].flat().length, 2, 'one comment on each');
  });
});

describe('connection settings', () => {
  test('an API base URL that is not http(s) is a 400 naming apiBaseUrl, and nothing changes', async () => {
    for (const apiBaseUrl of ['ftp://example.com/api', 'not a url', 'https://user:pw@example.com/api']) {
      const res = await t.patch(`/api/admin/git/connections/${conns.gitea.id}`, { apiBaseUrl }, t.adminToken);
      assert.equal(res.status, 400, `${apiBaseUrl}: ${JSON.stringify(res.body)}`);
      assert.match(JSON.stringify(res.body), /apiBaseUrl/);
    }
    const list = await t.get('/api/admin/git/connections', t.adminToken);
    const gitea = list.body.connections.find((c: { id: string }) => c.id === conns.gitea.id);
    assert.equal(gitea.apiBaseUrl, `${apiBase}/gt/api/v1`);
  });

  test('replacing the webhook secret: the old one is refused from then on, the new one accepted; a short one is a 400', async () => {
    const short = await t.patch(
      `/api/admin/git/connections/${conns.gitea.id}`,
      { webhookSecret: 'too-short' },
      t.adminToken,
    );
    assert.equal(short.status, 400);
    assert.match(JSON.stringify(short.body), /webhookSecret/);
    const fresh = 'a-new-secret-for-gitea-0123456789';
    const res = await t.patch(
      `/api/admin/git/connections/${conns.gitea.id}`,
      { webhookSecret: fresh },
      t.adminToken,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(JSON.stringify(res.body).includes(fresh), false, 'the answer never carries the secret');
    const i = await issue('After a new secret');
    const p = giteaExample();
    p.action = 'opened';
    p.number = ++prNumber;
    p.pull_request.number = prNumber;
    p.pull_request.html_url = `https://gitea.example.com/gitea/webhooks/pulls/${prNumber}`;
    p.pull_request.title = i.identifier;
    const old = await deliver(t, 'gitea', conns.gitea.secret, 'pull_request', p);
    assert.equal(old.status, 401);
    const now = await deliver(t, 'gitea', fresh, 'pull_request', p);
    assert.equal(now.status, 202, JSON.stringify(now.body));
    assert.match((await processed(t, now.body.id)).outcome ?? '', new RegExp(`linked ${i.identifier}`));
    await settled();
    conns.gitea.secret = fresh;
  });

  test('only admins change a connection', async () => {
    const member = await t.userWithRole('member');
    const res = await t.patch(
      `/api/admin/git/connections/${conns.gitea.id}`,
      { backlinks: false },
      member.token,
    );
    assert.equal(res.status, 403);
  });

  test('property: any PATCH body is answered without a 5xx', async () => {
    const body = fc.record(
      {
        name: fc.oneof(fc.string(), fc.constant(' ')),
        webhookSecret: fc.oneof(fc.string({ maxLength: 300 }), fc.anything()),
        apiToken: fc.oneof(fc.constant(null), fc.string({ maxLength: 40 })),
        apiBaseUrl: fc.oneof(
          fc.constant(null),
          fc.string(),
          fc.webUrl(),
          fc.constantFrom('http://[::1]/x', 'http://169.254.169.254/', 'javascript:alert(1)'),
        ),
        backlinks: fc.oneof(fc.boolean(), fc.string()),
        githubApp: fc.oneof(
          fc.constant(null),
          fc.record(
            {
              appId: fc.oneof(fc.integer(), fc.string({ maxLength: 20 })),
              privateKey: fc.oneof(fc.string(), fc.constant(APP_KEY.privateKey)),
              installationId: fc.oneof(fc.constant(null), fc.integer(), fc.string({ maxLength: 20 })),
            },
            { requiredKeys: [] },
          ),
          fc.anything(),
        ),
        extra: fc.anything(),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const res = await t.patch(`/api/admin/git/connections/${conns.gitlab.id}`, b, t.adminToken);
        assert.ok(res.status < 500, `${res.status} ${JSON.stringify(res.body)}`);
      }),
      { numRuns: 60 },
    );
    const back = await t.patch(
      `/api/admin/git/connections/${conns.gitlab.id}`,
      { webhookSecret: conns.gitlab.secret },
      t.adminToken,
    );
    assert.equal(back.status, 200, JSON.stringify(back.body));
  });
});

describe('refused destinations', () => {
  test('without WEBHOOK_ALLOW_PRIVATE, an API base URL on this machine is refused', async () => {
    const strict = await startTestApp({ webhookAllowPrivate: false }, { gitWorker: false });
    try {
      const res = await strict.post(
        '/api/admin/git/connections',
        { host: 'gitea', name: 'local', apiToken: 'x', apiBaseUrl: 'http://127.0.0.1:3000/api/v1' },
        strict.adminToken,
      );
      assert.equal(res.status, 400);
      assert.match(JSON.stringify(res.body), /apiBaseUrl/);
    } finally {
      await strict.close();
    }
  });
});

describe('GitHub App', () => {
  /** The App's JWT: signed with its private key (RS256), issued by the App id, valid now. */
  function assertAppJwt(req: Recorded) {
    const [scheme, jwt] = (req.headers['authorization'] ?? '').split(' ');
    assert.match(scheme ?? '', /^bearer$/i);
    const [head, payload, signature] = jwt!.split('.');
    assert.deepEqual(JSON.parse(Buffer.from(head!, 'base64url').toString()), { alg: 'RS256', typ: 'JWT' });
    assert.ok(
      verify(
        'RSA-SHA256',
        Buffer.from(`${head}.${payload}`),
        APP_KEY.publicKey,
        Buffer.from(signature!, 'base64url'),
      ),
      "the JWT's signature verifies with the App's public key",
    );
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    assert.equal(String(claims.iss), '12345');
    const now = Date.now() / 1000;
    assert.ok(
      claims.iat <= now && claims.exp > now && claims.exp - claims.iat <= 11 * 60,
      JSON.stringify(claims),
    );
  }

  test('connecting the App: the key is checked, sealed and never shown back', async () => {
    const refused = [
      { githubApp: { appId: 12345, privateKey: 'not a key', installationId: 777 }, apiToken: null },
      { githubApp: { appId: 'twelve', privateKey: APP_KEY.privateKey }, apiToken: null },
      { githubApp: { appId: 12345, privateKey: APP_KEY.privateKey, installationId: '7x' }, apiToken: null },
      { githubApp: { appId: 12345, installationId: 777 }, apiToken: null },
      { githubApp: { appId: 12345, privateKey: APP_KEY.privateKey, installationId: 777 } },
      { githubApp: { appId: 12345, privateKey: APP_KEY.privateKey, extra: 1 }, apiToken: null },
    ];
    for (const body of refused) {
      const res = await t.patch(`/api/admin/git/connections/${conns.github.id}`, body, t.adminToken);
      assert.equal(res.status, 400, `${JSON.stringify(body).slice(0, 80)}: ${JSON.stringify(res.body)}`);
      assert.match(JSON.stringify(res.body), /githubApp|apiToken/);
    }
    const gitlab = await t.patch(
      `/api/admin/git/connections/${conns.gitlab.id}`,
      { githubApp: { appId: 12345, privateKey: APP_KEY.privateKey } },
      t.adminToken,
    );
    assert.equal(gitlab.status, 400);
    assert.match(JSON.stringify(gitlab.body), /githubApp/);
    const member = await t.userWithRole('member');
    const denied = await t.patch(
      `/api/admin/git/connections/${conns.github.id}`,
      { apiToken: null, githubApp: { appId: 12345, privateKey: APP_KEY.privateKey } },
      member.token,
    );
    assert.equal(denied.status, 403);
    let list = await t.get('/api/admin/git/connections', t.adminToken);
    let gh = list.body.connections.find((c: { id: string }) => c.id === conns.github.id);
    assert.equal(gh.githubApp, null, 'nothing changed');
    assert.equal(gh.hasApiToken, true);

    const res = await t.patch(
      `/api/admin/git/connections/${conns.github.id}`,
      { apiToken: null, githubApp: { appId: 12345, privateKey: APP_KEY.privateKey, installationId: 777 } },
      t.adminToken,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.connection.githubApp, { appId: '12345', installationId: '777' });
    assert.equal(res.body.connection.hasApiToken, false);
    list = await t.get('/api/admin/git/connections', t.adminToken);
    gh = list.body.connections.find((c: { id: string }) => c.id === conns.github.id);
    assert.deepEqual(gh.githubApp, { appId: '12345', installationId: '777' });
    const keyBody = APP_KEY.privateKey.split('\n')[1]!;
    assert.equal(JSON.stringify(res.body).includes(keyBody), false, 'the key is never shown');
    assert.equal(JSON.stringify(list.body).includes(keyBody), false, 'the key is never shown');
    const stored = await t.ctx.db
      .selectFrom('git_connections')
      .select('app_private_key')
      .where('id', '=', conns.github.id)
      .executeTakeFirstOrThrow();
    assert.equal(stored.app_private_key?.includes(keyBody), false, 'the key is stored sealed');
  });

  test('a back-link asks for an installation token with the App JWT, then comments with it; the token is reused', async () => {
    const i = await issue('App comment');
    await deliverAndWait(t, 'github', conns.github.secret, 'pull_request', githubPr({ title: i.identifier }));
    await settled();
    assert.equal(recorded.length, 2, JSON.stringify(recorded.map((r) => r.path)));
    const [tokenReq, comment] = recorded;
    assert.equal(tokenReq!.method, 'POST');
    assert.equal(tokenReq!.path, '/gh/app/installations/777/access_tokens');
    assert.equal(tokenReq!.headers['accept'], 'application/vnd.github.v3+json');
    assert.ok(tokenReq!.headers['user-agent']);
    assertAppJwt(tokenReq!);
    assert.equal(comment!.method, 'POST');
    assert.equal(comment!.path, `/gh/repos/Codertocat/Hello-World/issues/${prNumber}/comments`);
    assert.equal(comment!.headers['authorization'], `token ghs_installation${tokensIssued}`);
    assert.equal(comment!.headers['x-github-api-version'], '2022-11-28');
    assert.match(visible(comment!), /App comment/);

    recorded = [];
    const j = await issue('App comment again');
    await deliverAndWait(t, 'github', conns.github.secret, 'pull_request', githubPr({ title: j.identifier }));
    await settled();
    assert.deepEqual(
      recorded.map((r) => r.path),
      [`/gh/repos/Codertocat/Hello-World/issues/${prNumber}/comments`],
      'the token still has time: no new one',
    );
    assert.equal(recorded[0]!.headers['authorization'], `token ghs_installation${tokensIssued}`);
  });

  test('a token close to its expiry is not used: a new one is asked for', async () => {
    tokenLifeMs = 2 * 60_000;
    try {
      const i = await issue('Short-lived token');
      // The token cached by the last test still has an hour: it is used once more.
      await deliverAndWait(
        t,
        'github',
        conns.github.secret,
        'pull_request',
        githubPr({ title: i.identifier }),
      );
      await settled();
      assert.equal(recorded.length, 1);
      // Drop it: the App's credentials change (the same key, sent again), so the cache starts over.
      const again = await t.patch(
        `/api/admin/git/connections/${conns.github.id}`,
        { githubApp: { appId: 12345, installationId: 777 } },
        t.adminToken,
      );
      assert.equal(again.status, 200, JSON.stringify(again.body));
      for (const title of ['Expiring one', 'Expiring two']) {
        recorded = [];
        const j = await issue(title);
        await deliverAndWait(
          t,
          'github',
          conns.github.secret,
          'pull_request',
          githubPr({ title: j.identifier }),
        );
        await settled();
        assert.deepEqual(
          recorded.map((r) => r.path.replace(/\d+\/comments$/, 'N/comments')),
          ['/gh/app/installations/777/access_tokens', '/gh/repos/Codertocat/Hello-World/issues/N/comments'],
          `${title}: a token with 2 minutes left is fetched again`,
        );
        assert.equal(recorded[1]!.headers['authorization'], `token ghs_installation${tokensIssued}`);
      }
    } finally {
      tokenLifeMs = 60 * 60_000;
    }
  });

  test("without an installation id, the repository's installation is looked up with the JWT", async () => {
    const res = await t.patch(
      `/api/admin/git/connections/${conns.github.id}`,
      { githubApp: { appId: '12345', installationId: null } },
      t.adminToken,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.connection.githubApp, { appId: '12345', installationId: null });
    const i = await issue('Found installation');
    await deliverAndWait(t, 'github', conns.github.secret, 'pull_request', githubPr({ title: i.identifier }));
    await settled();
    assert.deepEqual(
      recorded.map((r) => `${r.method} ${r.path}`),
      [
        'GET /gh/repos/Codertocat/Hello-World/installation',
        'POST /gh/app/installations/777/access_tokens',
        `POST /gh/repos/Codertocat/Hello-World/issues/${prNumber}/comments`,
      ],
    );
    assertAppJwt(recorded[0]!);
    assertAppJwt(recorded[1]!);
    assert.equal(recorded[2]!.headers['authorization'], `token ghs_installation${tokensIssued}`);
  });
});

// Back-link comments through the hosts' APIs: real webhook payloads drive the
// worker, and a local HTTP server standing in for each host's API records
// every request, so the tests assert exactly what GitHub, GitLab and Gitea
// are sent (path, method, auth header, content type, JSON body), that each
// pull request gets one comment per issue across replays, later deliveries
// and a retry after a host error, and that a private team's issue title
// never leaves on a public repository.
import assert from 'node:assert/strict';
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
/** Statuses the next requests get, in order; then 201. */
let answers: number[] = [];
let engId: string;
let secretTeamId: string;
let prNumber = 500;
const conns: Record<'github' | 'gitlab' | 'gitea', { id: string; secret: string }> = {} as never;
const TOKENS = { github: 'ghp_testtoken', gitlab: 'glpat-testtoken', gitea: 'gitea-testtoken' };

before(async () => {
  api = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      recorded.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const status = answers.shift() ?? 201;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(status === 201 ? JSON.stringify({ id: 4242, body: 'ok' }) : '{"message":"boom"}');
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
});

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
    assert.deepEqual(JSON.parse(req!.body), {
      body: `Linked to [${i.identifier} Fix the login page](${publicUrl()}/issue/${i.identifier}/fix-the-login-page) in Trackway.`,
    });
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
    assert.equal(recorded.length, 2);
    assert.equal(recorded[0]!.body, recorded[1]!.body);
    assert.equal(recorded[0]!.path, recorded[1]!.path);
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
    const bodies = recorded.map((r) => JSON.parse(r.body).body as string).sort();
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
    assert.match(JSON.parse(recorded[0]!.body).body, /Quarterly numbers/);
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
    assert.deepEqual(JSON.parse(req!.body), {
      body: `Linked to [${i.identifier} Merge request note](${publicUrl()}/issue/${i.identifier}/merge-request-note) in Trackway.`,
    });
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
    assert.deepEqual(JSON.parse(req!.body), {
      body: `Linked to [${i.identifier} Gitea comment](${publicUrl()}/issue/${i.identifier}/gitea-comment) in Trackway.`,
    });
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
        apiToken: fc.oneof(fc.constant(null), fc.string({ maxLength: 40 })),
        apiBaseUrl: fc.oneof(
          fc.constant(null),
          fc.string(),
          fc.webUrl(),
          fc.constantFrom('http://[::1]/x', 'http://169.254.169.254/', 'javascript:alert(1)'),
        ),
        backlinks: fc.oneof(fc.boolean(), fc.string()),
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

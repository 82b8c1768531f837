// The git receivers' guarantees beyond the happy paths: a delivery answered
// 2xx survives the process stopping before (or while) it is worked on; random
// bodies and headers, signed or not, never make a receiver answer 5xx nor its
// work fail; the admin routes are admins' alone.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { buildApp } from '../src/app.js';
import {
  connect,
  deliver,
  giteaExample,
  githubExample,
  gitlabExample,
  newIssue,
  processed,
  stateName,
} from './git-support.js';
import { hostileJson, hostileString } from './support/fuzz/values.js';
import { startTestApp, type TestApp } from './support/harness.js';

const engOf = async (t: TestApp) =>
  (await t.ctx.db.selectFrom('teams').select('id').where('key', '=', 'ENG').executeTakeFirstOrThrow()).id;

describe('a crash between receipt and processing loses nothing', () => {
  test('stopped before the worker ran, a new process on the same database moves the issue', async () => {
    const first = await startTestApp({}, { gitWorker: false });
    const eng = await engOf(first);
    const github = await connect(first, 'github', [{ fullName: 'Codertocat/Hello-World', teamId: eng }]);
    const issue = await newIssue(first);
    const issue2 = await newIssue(first);
    const payload = githubExample('pull_request', 'opened');
    payload.pull_request.head.ref = `${issue.identifier.toLowerCase()}-work`;
    payload.pull_request.draft = false;
    const res = await deliver(first, 'github', github.secret, 'pull_request', payload);
    assert.equal(res.status, 202);
    // A second delivery, claimed by a worker that then died: it holds a lease that has run out.
    const payload2 = githubExample('pull_request', 'opened');
    payload2.number = payload2.pull_request.number = 77;
    payload2.pull_request.html_url = 'https://github.com/Codertocat/Hello-World/pull/77';
    payload2.pull_request.head.ref = issue2.identifier;
    payload2.pull_request.draft = false;
    const res2 = await deliver(first, 'github', github.secret, 'pull_request', payload2);
    assert.equal(res2.status, 202);
    await first.ctx.db
      .updateTable('git_deliveries')
      .set({ status: 'working', attempts: 1, lease_until: new Date(Date.now() - 1000) })
      .where('id', '=', res2.body.id)
      .execute();
    assert.equal(await stateName(first, issue.id), 'Backlog');
    await first.app.close(); // the process stops; its database stays

    const second = await buildApp({ config: first.config, database: first.database, logger: false });
    try {
      await second.app.ready();
      const row = await processed(second, res.body.id);
      assert.equal(row.status, 'done');
      assert.equal((await processed(second, res2.body.id)).status, 'done');
      assert.equal(await stateName(first, issue.id), 'In Progress');
      assert.equal(await stateName(first, issue2.id), 'In Progress');
    } finally {
      await second.app.close();
      await first.database.close();
    }
  });
});

describe('receivers under random input', () => {
  let t: TestApp;
  const secrets: Record<string, string> = {};
  before(async () => {
    t = await startTestApp();
    const eng = await engOf(t);
    secrets['github'] = (
      await connect(t, 'github', [{ fullName: 'Codertocat/Hello-World', teamId: eng }])
    ).secret;
    secrets['gitlab'] = (
      await connect(t, 'gitlab', [{ fullName: 'gitlabhq/gitlab-test', teamId: eng }])
    ).secret;
    secrets['gitea'] = (await connect(t, 'gitea', [{ fullName: 'gitea/webhooks', teamId: eng }])).secret;
  });
  after(() => t.close());

  const EVENTS = {
    github: ['pull_request', 'pull_request_review', 'push', 'ping'],
    gitlab: ['Merge Request Hook', 'Push Hook'],
    gitea: ['pull_request', 'pull_request_approved', 'pull_request_review_request', 'push'],
  } as const;
  const base = (host: string): any =>
    host === 'github'
      ? githubExample('pull_request', 'opened')
      : host === 'gitlab'
        ? gitlabExample()
        : giteaExample();

  /** Random values over random paths of a real payload, so the signed body reaches the worker. */
  const mutate = (payload: any, edits: [string[], unknown][]) => {
    for (const [path, value] of edits) {
      let o = payload;
      // Own properties only: walking into a prototype would pollute this test process.
      for (const k of path.slice(0, -1)) {
        if (o === null || typeof o !== 'object' || !Object.hasOwn(o, k)) break;
        o = o[k];
      }
      if (o !== null && typeof o === 'object' && path.length > 0) o[path[path.length - 1]!] = value;
    }
    return payload;
  };
  const key = fc.constantFrom(
    'action',
    'pull_request',
    'title',
    'body',
    'head',
    'ref',
    'number',
    'merged',
    'draft',
    'html_url',
    'object_attributes',
    'description',
    'source_branch',
    'url',
    'iid',
    'state',
    'repository',
    'project',
    'commits',
    'review',
    'requested_reviewers',
  );

  test('signed random payloads never answer 5xx and their work never fails', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('github', 'gitlab', 'gitea'),
        fc.array(fc.tuple(fc.array(key, { minLength: 1, maxLength: 3 }), hostileJson), { maxLength: 4 }),
        fc.nat(),
        async (host, edits, pick) => {
          const events = EVENTS[host];
          const event = events[pick % events.length]!;
          const res = await deliver(t, host, secrets[host]!, event, mutate(base(host), edits));
          assert.ok(res.status < 500, `${res.status} ${JSON.stringify(res.body)}`);
          if (res.status === 202 && res.body.status === 'queued') {
            const row = await processed(t, res.body.id);
            assert.equal(row.last_error, null, `work failed: ${row.last_error}`);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  test('random bodies and headers, unsigned or forged, never answer 5xx', async () => {
    const headerName = fc.constantFrom(
      'x-hub-signature-256',
      'x-github-delivery',
      'x-github-event',
      'x-gitlab-token',
      'x-gitlab-event',
      'x-gitlab-event-uuid',
      'idempotency-key',
      'x-gitea-signature',
      'x-gitea-delivery',
      'x-gitea-event',
      'content-type',
    );
    const printable = hostileString.map((s) => s.replace(/[^\x20-\x7e]/g, '').slice(0, 300));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('github', 'gitlab', 'gitea'),
        fc.dictionary(headerName, printable, { maxKeys: 6 }),
        fc.oneof(
          hostileJson.map((j) => JSON.stringify(j) ?? ''),
          hostileString,
        ),
        async (host, headers, body) => {
          const res = await t.request('POST', `/api/integrations/${host}/webhook`, {
            payload: body,
            headers,
          });
          assert.ok(res.status < 500, `${res.status} ${JSON.stringify(res.body)}`);
          assert.ok([200, 202, 400, 401, 413, 415].includes(res.status), String(res.status));
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('admin routes', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  test('connections: created with a sealed secret shown once, listed without it, deleted; admins only', async () => {
    const eng = await engOf(t);
    const member = await t.userWithRole('member');
    const refused = await t.post(
      '/api/admin/git/connections',
      { host: 'github', name: 'x', repositories: [] },
      member.token,
    );
    assert.equal(refused.status, 403);
    const created = await t.post(
      '/api/admin/git/connections',
      {
        host: 'gitlab',
        name: 'Our GitLab',
        webhookSecret: 'a-secret-of-enough-length',
        apiToken: 'glpat-123',
        repositories: [{ fullName: 'Group/Sub/Project', teamId: eng }],
      },
      t.adminToken,
    );
    assert.equal(created.status, 201);
    assert.equal(created.body.webhookSecret, 'a-secret-of-enough-length');
    assert.equal(created.body.connection.webhookUrl, `${t.config.publicUrl}/api/integrations/gitlab/webhook`);
    assert.deepEqual(created.body.connection.repositories, [{ fullName: 'group/sub/project', teamId: eng }]);
    const stored = await t.ctx.db.selectFrom('git_connections').selectAll().executeTakeFirstOrThrow();
    assert.ok(!stored.webhook_secret.includes('a-secret-of-enough-length'), 'sealed');
    assert.ok(!stored.api_token!.includes('glpat'), 'sealed');

    const taken = await t.post(
      '/api/admin/git/connections',
      { host: 'gitlab', name: 'Again', repositories: [{ fullName: 'group/sub/project', teamId: eng }] },
      t.adminToken,
    );
    assert.equal(taken.status, 409);

    const list = await t.get('/api/admin/git/connections', t.adminToken);
    assert.equal(list.status, 200);
    assert.equal(list.body.connections.length, 1);
    assert.equal(list.body.connections[0].hasApiToken, true);
    assert.ok(!JSON.stringify(list.body).includes('a-secret-of-enough-length'));
    assert.equal((await t.get('/api/admin/git/connections', member.token)).status, 403);

    const id = created.body.connection.id;
    assert.equal((await t.del(`/api/admin/git/connections/${id}`, member.token)).status, 403);
    assert.equal((await t.del(`/api/admin/git/connections/${id}`, t.adminToken)).status, 200);
    assert.equal((await t.del(`/api/admin/git/connections/${id}`, t.adminToken)).status, 404);
    assert.equal((await t.get('/api/admin/git/connections', t.adminToken)).body.connections.length, 0);
  });

  test("a team's automation: defaults, rules replaced, a state of another team refused", async () => {
    const eng = await engOf(t);
    const auto = await t.get(`/api/admin/git/teams/${eng}/automation`, t.adminToken);
    assert.equal(auto.status, 200);
    const states = await t.ctx.db.selectFrom('workflow_states').select(['id', 'name', 'team_id']).execute();
    const id = (n: string) => states.find((s) => s.name === n && s.team_id === eng)!.id;
    assert.deepEqual(auto.body.defaults, [
      { event: 'draft', stateId: id('In Progress') },
      { event: 'start', stateId: id('In Progress') },
      { event: 'review', stateId: id('In Review') },
      { event: 'mergeable', stateId: null },
      { event: 'merge', stateId: id('Done') },
    ]);
    const team = await t.post('/api/teams', { name: 'Other', key: 'OTH' }, t.adminToken);
    const otherState = (
      await t.ctx.db
        .selectFrom('workflow_states')
        .select('id')
        .where('team_id', '=', team.body.team.id)
        .executeTakeFirstOrThrow()
    ).id;
    const bad = await t.request('PUT', `/api/admin/git/teams/${eng}/automation`, {
      token: t.adminToken,
      body: { rules: [{ event: 'merge', targetBranch: null, stateId: otherState }] },
    });
    assert.equal(bad.status, 400);
    const good = await t.request('PUT', `/api/admin/git/teams/${eng}/automation`, {
      token: t.adminToken,
      body: { rules: [{ event: 'mergeable', targetBranch: 'main', stateId: id('In Review') }] },
    });
    assert.equal(good.status, 200);
    assert.deepEqual(good.body.rules, [
      { event: 'mergeable', targetBranch: 'main', stateId: id('In Review') },
    ]);
  });
});

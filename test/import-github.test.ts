// The GitHub Issues importer (modules/import/github.ts) against a local server
// that answers as GitHub's REST API does, with bodies recorded in
// test/fixtures/github/: issues over three pages linked by `Link` headers, a
// pull request among them (skipped), comments over two pages, a 429 and a 403
// with no requests left (both waited on), and a page failing once (the run
// fails, and the next run resumes it). A dry run writes nothing; a re-run
// creates nothing twice. Files linked from an issue and a comment (uploads on
// the Enterprise Server's own host, and on github.com's names resolved to a
// local server) are copied byte for byte, the token sent only to the server.
// And a property: any GitHub body an admin posts to POST /api/admin/imports is
// a 202 that ends, or a 4xx that writes nothing.
import assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { ownFileId } from '../src/modules/files/present.js';
import { emailOf, githubSource, nextPage, rateLimitWait, teamKeyOf } from '../src/modules/import/github.js';
import { runImport } from '../src/modules/import/runner.js';
import type { Actor } from '../src/platform/context.js';
import { FAKE_GITHUB_TOKEN, type FakeGithub, startFakeGithub } from './support/fake-github.js';
import { changedTables, digest, tablesToWatch } from './support/fuzz/digest.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let admin: Actor;
let gh: FakeGithub;
let api: string;
let seen: string[];
let once: FakeGithub['once'];

before(async () => {
  // The fake GitHub listens on 127.0.0.1, which the outbound guard refuses unless told.
  t = await startTestApp({ webhookAllowPrivate: true });
  const me = (await t.get('/api/auth/me', t.adminToken)).body.user;
  admin = { id: me.id, role: 'admin', name: me.name, email: me.email, via: 'session' };
  // octocat's email (which the API shows) and hubot's (given by the users mapping) have accounts here.
  for (const [name, email] of [
    ['Octo Cat', 'octocat@github.example'],
    ['Hubot', 'hubot@robots.example'],
  ]) {
    const res = await t.post(
      '/api/admin/users',
      { name, email, password: 'correct horse battery 1', role: 'member' },
      t.adminToken,
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
  }

  gh = await startFakeGithub();
  ({ url: api, seen, once } = gh);
});
after(async () => {
  await gh?.close();
  await t?.close();
});

const source = (repo: string, extra: Partial<Parameters<typeof githubSource>[0]> = {}) =>
  githubSource({
    repo,
    token: FAKE_GITHUB_TOKEN,
    apiUrl: api,
    users: { hubot: 'hubot@robots.example' },
    ...extra,
  });

async function issuesOf(team: string) {
  const res = await t.get(`/api/issues?teamId=${team}&limit=100`, t.adminToken);
  if (res.status === 404 || res.status === 400) return [];
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.issues as any[];
}

describe('the GitHub source, piece by piece', () => {
  test('team keys, emails, Link pages and rate-limit waits', () => {
    assert.equal(teamKeyOf('hello-world'), 'HELLOWORLD');
    assert.equal(teamKeyOf('2048-game'), 'GAME');
    assert.equal(teamKeyOf('---'), 'GH');
    assert.equal(emailOf({ login: 'octocat', email: 'o@x.example' }), 'o@x.example');
    assert.equal(emailOf({ login: 'Alice' }), 'alice@users.noreply.github.com');
    assert.equal(emailOf({ login: 'dependabot[bot]' }), 'dependabot-bot@users.noreply.github.com');
    assert.equal(emailOf({ login: 'alice' }, { alice: 'a@corp.example' }), 'a@corp.example');
    assert.equal(
      nextPage(
        '<https://api.github.com/repositories/1/issues?page=3>; rel="next", <https://api.github.com/repositories/1/issues?page=9>; rel="last"',
      ),
      '3',
    );
    assert.equal(nextPage('<https://api.github.com/x?page=1>; rel="prev"'), null);
    assert.equal(nextPage(undefined), null);
    const now = 1_700_000_000_000;
    assert.equal(rateLimitWait(429, { 'retry-after': '2' }, now), 2000);
    assert.equal(
      rateLimitWait(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1700000005' }, now),
      5000,
    );
    assert.equal(rateLimitWait(403, { 'x-ratelimit-remaining': '12' }, now), null);
    assert.equal(rateLimitWait(500, { 'retry-after': '1' }, now), null);
    assert.throws(() => githubSource({ repo: 'not a repo' }), /owner\/name/);
    assert.throws(() => githubSource({ repo: 'a/b', team: '1X' }), /team/);
  });
});

describe('importing a GitHub repository', () => {
  test('a dry run reports what would be created and who is missing, and writes nothing', async () => {
    const report = await runImport(t.ctx, admin, source('acme/widgets'), { dryRun: true });
    assert.equal(report.status, 'completed', JSON.stringify(report));
    assert.equal(report.counts['issue.created'], 4, 'four issues; the pull request is skipped');
    assert.equal(report.counts['comment.created'], 4);
    assert.equal(report.counts['team.created'], 1);
    assert.equal(report.counts['label.created'], 4);
    assert.equal(report.counts['milestone.created'], 2);
    assert.deepEqual(report.missingUsers, [
      'alice-dev@users.noreply.github.com',
      'dependabot-bot@users.noreply.github.com',
      'ghost@users.noreply.github.com',
    ]);
    assert.equal((await t.get('/api/teams/WIDGETS', t.adminToken)).status, 404);
    assert.ok(!seen.some((s) => s.includes('/issues/3/comments')), 'no request for the pull request');
  });

  test('the import: states, labels, milestones, people, comments, dates, Markdown and the searchable key', async () => {
    seen.length = 0;
    once.set('/repos/acme/widgets/labels?page=1', { status: 429, headers: { 'retry-after': '1' } });
    once.set('/repos/acme/widgets/issues?page=2', {
      status: 403,
      headers: {
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 1),
      },
    });
    const report = await runImport(t.ctx, admin, source('acme/widgets'));
    assert.equal(report.status, 'completed', JSON.stringify(report));
    assert.deepEqual(report.errors, []);
    assert.equal(report.counts['issue.created'], 4);
    // Both rate-limited requests were asked again, and every issue page was read once it answered.
    assert.equal(seen.filter((s) => s.startsWith('GET /repos/acme/widgets/labels')).length, 2);
    assert.equal(seen.filter((s) => /\/issues\?.*page=2/.test(s)).length, 2);
    assert.equal(seen.filter((s) => /\/issues\?.*page=3/.test(s)).length, 1);

    const issues = await issuesOf('WIDGETS');
    assert.equal(issues.length, 4);
    const byKey = (n: number) => {
      const found = issues.find((i) => i.description.includes(`acme/widgets#${n}](`));
      assert.ok(found, `#${n}`);
      return found;
    };
    assert.ok(!issues.some((i) => i.title === 'Fix widget save crash'), 'the pull request is not imported');

    const states = (await t.get('/api/workflow-states?teamId=WIDGETS', t.adminToken)).body
      .workflowStates as any[];
    const stateName = (id: string) => states.find((s) => s.id === id)?.name;
    const users = (await t.get('/api/admin/users?limit=250', t.adminToken)).body.users as any[];
    const userOf = (email: string) => users.find((u) => u.email === email);

    // #1: open, two labels, the milestone in the repository's project, assigned to its first assignee.
    const one = (await t.get(`/api/issues/${byKey(1).id}`, t.adminToken)).body.issue;
    assert.equal(stateName(one.stateId), 'Todo');
    assert.equal(one.createdAt, '2025-01-15T08:30:00.000Z');
    assert.ok(one.description.startsWith('Steps:\n\n1. Open a widget'), 'Markdown kept as written');
    assert.ok(one.description.includes('```js\nwidget.save(); // TypeError\n```'));
    assert.ok(
      one.description.endsWith(
        '*Imported from GitHub: [acme/widgets#1](https://github.com/acme/widgets/issues/1)*',
      ),
    );
    assert.equal(one.creatorId ?? one.creator?.id, userOf('octocat@github.example').id, 'matched by email');
    const alice = userOf('alice-dev@users.noreply.github.com');
    assert.equal(alice.status, 'suspended', 'a placeholder for someone without an account');
    assert.equal(one.assigneeId, alice.id);
    const labels = (await t.get('/api/labels?teamId=WIDGETS', t.adminToken)).body.labels as any[];
    const labelNames = one.labelIds.map((id: string) => labels.find((l) => l.id === id)?.name).sort();
    assert.deepEqual(labelNames, ['bug', 'área: ui']);
    assert.equal(labels.find((l) => l.name === 'bug').color, '#d73a4a');
    const project = (await t.get(`/api/projects/${one.projectId}`, t.adminToken)).body.project;
    assert.equal(project.name, 'acme/widgets');
    const milestones = (await t.get(`/api/projects/${one.projectId}/milestones`, t.adminToken)).body;
    const list = (milestones.milestones ?? milestones.projectMilestones) as any[];
    const v1 = list.find((m) => m.name === 'v1.0');
    assert.equal(v1.id, one.projectMilestoneId);
    assert.equal(v1.targetDate, '2025-06-30');

    // Its comments, over two pages, with their authors and dates.
    const comments = (await t.get(`/api/issues/${one.id}/comments`, t.adminToken)).body.comments as any[];
    assert.deepEqual(
      comments.map((c) => [c.body, c.createdAt]),
      [
        ['I can reproduce this on **Firefox** too.', '2025-01-16T09:00:00.000Z'],
        ['> I can reproduce this\n\nThanks, looking into it.', '2025-01-17T10:00:00.000Z'],
      ],
    );
    assert.equal(comments[0].userId ?? comments[0].user?.id, alice.id);

    // #2: closed as completed → Done, completed when GitHub closed it; hubot by the users mapping.
    const two = (await t.get(`/api/issues/${byKey(2).id}`, t.adminToken)).body.issue;
    assert.equal(two.title, 'Support dark mode — ünïcödé 🌙');
    assert.equal(stateName(two.stateId), 'Done');
    assert.equal(two.completedAt, '2025-02-01T10:00:00.000Z');
    assert.equal(two.creatorId ?? two.creator?.id, userOf('hubot@robots.example').id);

    // #4: closed as not planned → Canceled; a bot and a deleted user ("ghost") as placeholders.
    const four = (await t.get(`/api/issues/${byKey(4).id}`, t.adminToken)).body.issue;
    assert.equal(stateName(four.stateId), 'Canceled');
    assert.equal(four.canceledAt, '2025-02-20T08:00:00.000Z');
    assert.equal(four.creatorId ?? four.creator?.id, userOf('dependabot-bot@users.noreply.github.com').id);

    // #5: no body, only the origin line; an empty comment kept as one.
    const five = byKey(5);
    assert.equal(
      five.description,
      '*Imported from GitHub: [acme/widgets#5](https://github.com/acme/widgets/issues/5)*',
    );

    // The original key finds the issue.
    const found = await t.get(`/api/issues?q=${encodeURIComponent('acme/widgets#4')}`, t.adminToken);
    assert.ok(
      found.body.issues.some((i: any) => i.id === four.id),
      JSON.stringify(found.body.issues.map((i: any) => i.title)),
    );
  });

  test('running again creates nothing', async () => {
    const report = await runImport(t.ctx, admin, source('acme/widgets'));
    assert.equal(report.counts['issue.created'] ?? 0, 0);
    assert.equal(report.counts['issue.existing'], 4);
    assert.equal(report.counts['comment.created'] ?? 0, 0);
    assert.equal(report.counts['label.created'] ?? 0, 0);
    assert.equal((await issuesOf('WIDGETS')).length, 4);
  });

  test('a run failing part-way keeps whole issues, and the next run resumes from its page', async () => {
    once.set('/repos/acme/gadgets/issues?page=3', { status: 502, headers: {} });
    const first = source('acme/gadgets', { team: 'GADGET' });
    await assert.rejects(
      runImport(t.ctx, admin, first),
      /502|rate limit|Bad Gateway|API rate limit exceeded/,
    );
    const partial = await issuesOf('GADGET');
    assert.equal(partial.length, 3, 'pages 1 and 2 written whole');

    seen.length = 0;
    const report = await runImport(t.ctx, admin, source('acme/gadgets', { team: 'GADGET' }));
    assert.equal(report.status, 'completed', JSON.stringify(report));
    assert.equal(report.counts['issue.created'], 1);
    assert.ok(
      !seen.some(
        (s) => /\/issues\?.*page=1(&|$)/.test(s) || (s.includes('/issues?') && !s.includes('page=')),
      ),
      `resumed at page 3: ${seen.join('\n')}`,
    );
    const issues = await issuesOf('GADGET');
    assert.equal(issues.length, 4);
    assert.equal(new Set(issues.map((i) => i.title)).size, 4);
  });
});

describe('files linked from GitHub issues and comments', () => {
  // Binary content (a PNG signature, then random bytes), large enough to arrive in many chunks.
  const shot = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), randomBytes(300_000)]);
  const log = randomBytes(200_000);
  const archive = randomBytes(150_000);
  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
  // github.com's names, resolved by the run's resolver to this local server (over http: no certificate).
  const requests: { host: string; path: string; authorization: string | undefined }[] = [];
  let cdn: http.Server;
  let port: number;
  let links: { shot: string; log: string; archive: string };
  const resolver = async () => [{ address: '127.0.0.1', family: 4 }];

  before(async () => {
    cdn = http.createServer((req, res) => {
      const host = (req.headers.host ?? '').replace(/:\d+$/, '');
      const path = req.url ?? '';
      requests.push({ host, path, authorization: req.headers.authorization });
      const send = (body: Buffer, type: string) =>
        res.writeHead(200, { 'content-type': type, 'content-length': body.length }).end(body);
      // As github.com does: an attachment link redirects to a signed address on another host.
      if (host === 'github.com' && path.startsWith('/user-attachments/assets/'))
        return void res
          .writeHead(302, {
            location: `http://private-user-images.githubusercontent.com:${port}/583231/log.bin?jwt=signed`,
          })
          .end();
      if (host === 'private-user-images.githubusercontent.com') return send(log, 'application/octet-stream');
      if (host === 'media.ghes.test') return send(archive, 'application/zip');
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => cdn.listen(0, '127.0.0.1', r));
    port = (cdn.address() as AddressInfo).port;

    // The Enterprise Server (the fake's own origin) keeps uploads under its own paths.
    const shotPath = `/storage/user/1/files/${randomUUID()}`;
    const archivePath = `/user-attachments/assets/${randomUUID()}`;
    gh.uploads.set(shotPath, { body: shot, contentType: 'image/png' });
    gh.uploads.set(archivePath, { redirect: `http://media.ghes.test:${port}/blobs/archive` });
    links = {
      shot: `${api}${shotPath}`,
      log: `http://github.com:${port}/user-attachments/assets/${randomUUID()}`,
      archive: `${api}${archivePath}`,
    };
    gh.edit.set('acme/uploads', (what, items) => {
      const one = items.find((i) => i.number === 1);
      if (what === 'issues' && one)
        one.body = `Broken:\n\n![screenshot](${links.shot})\n\nThe data: [archive.zip](${links.archive})`;
      const first = items.find((c) => c.id === 2500000001);
      if (what === 'comments-1' && first)
        first.body = `Same here, log: ${links.log}\n\n![again](${links.shot})`;
    });
  });
  after(async () => {
    cdn?.closeAllConnections();
    await new Promise((r) => cdn?.close(r));
  });

  /** A file's bytes as our API serves them, by its address here. */
  async function download(ourUrl: string): Promise<Buffer> {
    const id = ownFileId(ourUrl, t.config.publicUrl);
    assert.ok(id, ourUrl);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/files/${id}`,
      headers: { authorization: `Bearer ${t.adminToken}` },
    });
    assert.equal(res.statusCode, 200);
    return res.rawPayload;
  }

  test('are copied byte for byte, linked from the text and attached; the token goes to the server only', async () => {
    const report = await runImport(t.ctx, admin, source('acme/uploads'), { files: { resolver } });
    assert.equal(report.status, 'completed', JSON.stringify(report));
    assert.deepEqual(report.errors, []);
    assert.equal(report.counts['file.created'], 3, JSON.stringify(report.counts));

    const one = (await issuesOf('UPLOADS')).find((i) => i.description.includes('acme/uploads#1]('));
    assert.ok(one);
    const ours = [...one.description.matchAll(/http:\/\/trackway\.test\/api\/files\/[0-9a-f-]{36}/g)].map(
      (m) => m[0],
    );
    assert.equal(ours.length, 2, one.description);
    const [shotUrl, archiveUrl] = ours as [string, string];
    assert.ok(one.description.includes(`![screenshot](${shotUrl})`), one.description);
    assert.ok(one.description.includes(`[archive.zip](${archiveUrl})`), one.description);
    assert.ok(!one.description.includes(api), 'no link to the source left');

    const comments = (await t.get(`/api/issues/${one.id}/comments`, t.adminToken)).body.comments as any[];
    const logUrl = /Same here, log: (http:\/\/trackway\.test\/api\/files\/[0-9a-f-]{36})/.exec(
      comments[0].body,
    )?.[1];
    assert.ok(logUrl, comments[0].body);
    // One file linked twice is one copy.
    assert.ok(comments[0].body.endsWith(`![again](${shotUrl})`), comments[0].body);

    const attachments = (await t.get(`/api/issues/${one.id}/attachments`, t.adminToken)).body
      .attachments as any[];
    const files = attachments.filter((a) => a.subtitle === 'Imported file');
    assert.deepEqual(files.map((a) => a.url).sort(), [shotUrl, archiveUrl, logUrl].sort());
    // Named by the link's last segment when the answer names no file.
    assert.equal(files.find((a) => a.url === logUrl).title, links.log.split('/').pop());

    assert.equal(sha(await download(shotUrl)), sha(shot));
    assert.equal(sha(await download(archiveUrl)), sha(archive));
    assert.equal(sha(await download(logUrl)), sha(log));

    // The token went with each request to the Enterprise Server, and nowhere else (not after a redirect).
    assert.deepEqual(
      gh.uploadRequests.map((r) => r.authorization),
      [`Bearer ${FAKE_GITHUB_TOKEN}`, `Bearer ${FAKE_GITHUB_TOKEN}`],
    );
    assert.deepEqual(
      requests.map((r) => [r.host, r.authorization]),
      [
        ['media.ghes.test', undefined],
        ['github.com', undefined],
        ['private-user-images.githubusercontent.com', undefined],
      ],
    );
  });

  test('running again copies nothing again', async () => {
    const fetched = gh.uploadRequests.length + requests.length;
    const report = await runImport(t.ctx, admin, source('acme/uploads'), { files: { resolver } });
    assert.equal(report.status, 'completed', JSON.stringify(report));
    assert.equal(report.counts['issue.created'] ?? 0, 0);
    assert.equal(report.counts['file.created'] ?? 0, 0);
    assert.equal(gh.uploadRequests.length + requests.length, fetched, 'no file fetched');
  });
});

describe('GitHub imports over REST', () => {
  test('property: any GitHub body an admin posts is a 202 that ends, or a 4xx that writes nothing', async () => {
    const tables = await tablesToWatch(t.ctx.db);
    const body = fc.record(
      {
        source: fc.constant('github'),
        repo: fc.oneof(
          fc.constantFrom('acme/widgets', 'acme/other-repo', 'a/b.c'),
          fc.string({ maxLength: 20 }),
        ),
        token: fc.oneof(fc.constant(FAKE_GITHUB_TOKEN), fc.string({ maxLength: 10 })),
        // Never the public API: every request stays on this machine.
        apiUrl: fc.constantFrom(api, `${api}/`, 'ftp://127.0.0.1', 'not a url', ''),
        team: fc.oneof(fc.constantFrom('PROPA', 'PROPB'), fc.string({ maxLength: 12 })),
        users: fc.dictionary(
          fc.string({ maxLength: 8 }),
          fc.oneof(fc.constant('someone@example.com'), fc.string({ maxLength: 8 })),
          { maxKeys: 3 },
        ),
        dryRun: fc.boolean(),
      },
      { requiredKeys: ['source', 'apiUrl'] },
    );
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const before = await digest(t.ctx.db, tables);
        const res = await t.post('/api/admin/imports', b, t.adminToken);
        assert.ok(
          res.status === 202 || (res.status >= 400 && res.status < 500),
          `${res.status} ${JSON.stringify(res.body)}`,
        );
        if (res.status !== 202) {
          assert.ok(res.body.error?.code);
          assert.deepEqual(changedTables(before, await digest(t.ctx.db, tables)), []);
          return;
        }
        for (let i = 0; i < 600; i++) {
          const run = (await t.get(`/api/admin/imports/${res.body.importRun.id}`, t.adminToken)).body
            .importRun;
          if (run.status !== 'running') return;
          await new Promise((r) => setTimeout(r, 50));
        }
        assert.fail('the run did not end');
      }),
      { numRuns: 20 },
    );
  });
});

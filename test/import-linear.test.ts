// The hosted tracker's importer end to end: instance A is seeded through its
// REST API and listens; instance B imports it through A's GraphQL API with
// @linear/sdk's client (modules/import/linear.ts), as it would import the
// hosted tracker. Then: a dry run first writes nothing; the import carries
// dates, authors, parent/child, relations, links and the original keys
// (searchable); a second run creates nothing; a run that fails part-way and
// is run again completes with no duplicates. Files uploaded to A (one an
// attachment and linked from the description, one linked from a comment) are
// copied into B's store byte for byte, fetched with A's key and sent nowhere else.
import assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ownFileId } from '../src/modules/files/present.js';
import { type GraphqlRequest, linearSource } from '../src/modules/import/linear.js';
import { runImport } from '../src/modules/import/runner.js';
import type { Actor } from '../src/platform/context.js';
import { apiKeyFor } from './graphql-helpers.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { freePort } from './support/server-process.js';

let a: TestApp;
let b: TestApp;
let baseA: string;
let keyA: string;
let adminB: Actor;
const bobEmail = `bob-${Date.now()}@source.example`;
const ids: Record<string, string> = {};
// Binary content (a PNG signature, then random bytes), large enough to arrive in many chunks.
const diagram = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), randomBytes(300_000)]);
const trace = randomBytes(200_000);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
/** A's files (their ids and URLs there); every request A answered, with its Authorization header. */
const filesA = {} as Record<'diagram' | 'trace', { id: string; url: string }>;
const requestsA: { path: string; authorization: string | undefined }[] = [];
// A server on another port of the same host: its /api/files/ links are not A's files.
let other: http.Server;
const otherRequests: string[] = [];
let otherLink: string;
const fileRequestsA = () => requestsA.filter((r) => r.path.startsWith('/api/files/')).length;

async function ok(res: { status: number; body: any }, what: string) {
  assert.ok(res.status >= 200 && res.status < 300, `${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

before(async () => {
  // A's files are its PUBLIC_URL/api/files/<id>: the address B reads it at must be that URL.
  const port = await freePort();
  baseA = `http://127.0.0.1:${port}`;
  [a, b] = await Promise.all([startTestApp({ publicUrl: baseA }), startTestApp()]);
  await a.app.listen({ port, host: '127.0.0.1' });
  a.app.server.on('request', (req: http.IncomingMessage) =>
    requestsA.push({ path: req.url ?? '', authorization: req.headers.authorization }),
  );
  keyA = await apiKeyFor(a, a.adminToken);
  other = http.createServer((req, res) => {
    otherRequests.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/plain' }).end('not a file of A');
  });
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  otherLink = `http://127.0.0.1:${(other.address() as AddressInfo).port}/api/files/${randomUUID()}`;
  for (const [name, body, type, filename] of [
    ['diagram', diagram, 'image/png', 'diagram.png'],
    ['trace', trace, 'application/octet-stream', 'trace.bin'],
  ] as const) {
    const up = await a.request('POST', '/api/files', {
      payload: body,
      headers: { 'content-type': type, 'x-filename': filename },
      token: a.adminToken,
    });
    filesA[name] = (await ok(up, `upload ${name}`)).file;
  }
  const me = await b.get('/api/auth/me', b.adminToken);
  adminB = {
    id: me.body.user.id,
    role: 'admin',
    name: me.body.user.name,
    email: me.body.user.email,
    via: 'session',
  };

  // A: team SRC, a member who comments, labels, a project with a milestone, a cycle, issues.
  const bob = await ok(
    await a.post(
      '/api/admin/users',
      { name: 'Bob Source', email: bobEmail, password: 'correct horse battery 1', role: 'member' },
      a.adminToken,
    ),
    'bob',
  );
  const team = await ok(await a.post('/api/teams', { key: 'SRC', name: 'Source' }, a.adminToken), 'team');
  ids.team = team.team.id;
  const states = (await a.get('/api/workflow-states?teamId=SRC', a.adminToken)).body.workflowStates;
  const done = states.find((s: any) => s.type === 'completed');
  const label = await ok(
    await a.post('/api/labels', { name: 'Bug', teamId: 'SRC', color: '#ff0000' }, a.adminToken),
    'label',
  );
  const project = await ok(
    await a.post('/api/projects', { name: 'Launch', teamIds: [ids.team] }, a.adminToken),
    'project',
  );
  await ok(
    await a.post(`/api/projects/${project.project.id}/milestones`, { name: 'Beta' }, a.adminToken),
    'milestone',
  );
  await ok(
    await a.post(
      '/api/cycles',
      { teamId: 'SRC', startsAt: '2026-01-05T00:00:00.000Z', endsAt: '2026-01-19T00:00:00.000Z' },
      a.adminToken,
    ),
    'cycle',
  );
  const parent = await ok(
    await a.post(
      '/api/issues',
      {
        teamId: 'SRC',
        title: 'Parent: ship the importer',
        description: 'Ünïcödé\nsecond line',
        priority: 2,
        labelIds: [label.label.id],
        projectId: project.project.id,
        assigneeId: bob.user.id,
        stateId: done.id,
      },
      a.adminToken,
    ),
    'parent',
  );
  ids.parent = parent.issue.identifier;
  const child = await ok(
    await a.post(
      '/api/issues',
      { teamId: 'SRC', title: 'Child: map states', parentId: parent.issue.id },
      a.adminToken,
    ),
    'child',
  );
  ids.child = child.issue.identifier;
  for (let i = 3; i <= 5; i++) {
    // Issue 3 shows the diagram in its description.
    const description = i === 3 ? `The layout:\n\n![diagram](${filesA.diagram.url})` : undefined;
    await ok(
      await a.post('/api/issues', { teamId: 'SRC', title: `Plain issue ${i}`, description }, a.adminToken),
      'issue',
    );
  }
  // ... carries it as an attachment, and links the trace (and a look-alike elsewhere) from a comment.
  await ok(
    await a.post(
      '/api/issues/SRC-3/attachments',
      { title: 'Layout diagram', url: filesA.diagram.url },
      a.adminToken,
    ),
    'file attachment',
  );
  await ok(
    await a.post(
      '/api/issues/SRC-3/comments',
      { body: `Trace: [trace.bin](${filesA.trace.url}), not this: ${otherLink}` },
      a.adminToken,
    ),
    'comment with a file',
  );
  const bobToken = (await a.post('/api/auth/login', { email: bobEmail, password: 'correct horse battery 1' }))
    .body.token;
  await ok(
    await a.post(`/api/issues/${ids.parent}/comments`, { body: 'First comment, by Bob' }, bobToken),
    'comment',
  );
  await ok(
    await a.post(
      `/api/issues/${ids.parent}/relations`,
      { relatedIssueId: 'SRC-5', type: 'blocks' },
      a.adminToken,
    ),
    'relation',
  );
  await ok(
    await a.post(
      `/api/issues/${ids.parent}/attachments`,
      { title: 'Design doc', url: 'https://docs.example.com/design' },
      a.adminToken,
    ),
    'attachment',
  );
});

after(async () => {
  other?.closeAllConnections();
  await new Promise((r) => other?.close(r));
  await Promise.all([a?.close(), b?.close()]);
});

/** B's issues in team SRC, by title. */
async function issuesOfB() {
  const res = await b.get('/api/issues?teamId=SRC&limit=100', b.adminToken);
  if (res.status === 404 || res.status === 400) return [];
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.issues as any[];
}

describe('importing one Trackway instance into another through the GraphQL API', () => {
  test('a dry run reports what would be created and the missing users, and writes nothing', async () => {
    const report = await runImport(b.ctx, adminB, linearSource({ url: baseA, apiKey: keyA }), {
      dryRun: true,
    });
    assert.equal(report.status, 'completed');
    assert.equal(report.counts['issue.created'], 5);
    assert.equal(report.counts['team.created'], 1);
    assert.deepEqual(report.missingUsers, [bobEmail]);
    assert.equal((await b.get('/api/teams/SRC', b.adminToken)).status, 404);
  });

  test('a run that fails part-way leaves whole issues, and the next run completes it with no duplicates', async () => {
    let issuePages = 0;
    const failing: GraphqlRequest = async (query, variables) => {
      if (query.startsWith('query Issues') && ++issuePages === 2) throw new Error('connection reset');
      return (await fetchGraphql(query, variables)) as unknown;
    };
    await assert.rejects(
      runImport(b.ctx, adminB, linearSource({ url: baseA, apiKey: keyA, pageSize: 2, request: failing })),
      /connection reset/,
    );
    assert.equal((await issuesOfB()).length, 2);

    const report = await runImport(b.ctx, adminB, linearSource({ url: baseA, apiKey: keyA, pageSize: 2 }));
    assert.equal(report.status, 'completed');
    assert.equal(report.counts['issue.created'], 3, JSON.stringify(report));
    assert.equal(report.counts['file.created'], 2, 'both files: the failed run stopped before their issue');
    assert.deepEqual(report.errors, []);
    const issues = await issuesOfB();
    assert.equal(issues.length, 5);
    assert.equal(new Set(issues.map((i) => i.title)).size, 5);
  });

  test('the content: dates, authors, states, labels, project, parent/child, relations, links, searchable keys', async () => {
    const issues = await issuesOfB();
    const srcA = (await a.get('/api/issues?teamId=SRC&limit=100', a.adminToken)).body.issues as any[];
    const byTitle = (list: any[], t: string) => list.find((i) => i.title === t);
    for (const original of srcA) {
      const copy = byTitle(issues, original.title);
      assert.ok(copy, original.title);
      assert.equal(copy.createdAt, original.createdAt, `createdAt of ${original.title}`);
      assert.equal(copy.priority, original.priority);
      assert.ok(
        copy.description.includes(`Imported from Linear: [${original.identifier}](`),
        copy.description,
      );
    }
    const parent = byTitle(issues, 'Parent: ship the importer');
    const parentA = byTitle(srcA, 'Parent: ship the importer');
    assert.ok(parent.description.startsWith('Ünïcödé\nsecond line'));
    assert.equal(parent.completedAt, parentA.completedAt);
    const child = byTitle(issues, 'Child: map states');
    assert.equal(child.parentId, parent.id);

    // The original key finds the issue by search.
    const found = await b.get(`/api/issues?q=${encodeURIComponent(ids.child!)}`, b.adminToken);
    assert.ok(
      found.body.issues.some((i: any) => i.id === child.id),
      JSON.stringify(found.body.issues.map((i: any) => i.title)),
    );

    // Labels, project, assignee (a suspended placeholder for Bob).
    const full = (await b.get(`/api/issues/${parent.id}`, b.adminToken)).body.issue;
    assert.equal(full.labelIds.length, 1);
    assert.ok(full.projectId);
    const users = (await b.get('/api/admin/users?limit=250', b.adminToken)).body.users as any[];
    const bob = users.find((u) => u.email === bobEmail);
    assert.ok(bob);
    assert.equal(bob.status, 'suspended');
    assert.equal(full.assigneeId, bob.id);

    // The comment keeps its author and date.
    const commentsA = (await a.get(`/api/issues/${ids.parent}/comments`, a.adminToken)).body.comments;
    const comments = (await b.get(`/api/issues/${parent.id}/comments`, b.adminToken)).body.comments;
    assert.equal(comments.length, 1);
    assert.equal(comments[0].body, 'First comment, by Bob');
    assert.equal(comments[0].userId ?? comments[0].user?.id, bob.id);
    assert.equal(comments[0].createdAt, commentsA[0].createdAt);

    // The relation, the attachment and the link to the original.
    const relations = (await b.get(`/api/issues/${parent.id}/relations`, b.adminToken)).body;
    assert.equal(JSON.stringify(relations).includes('blocks'), true, JSON.stringify(relations));
    const attachments = (await b.get(`/api/issues/${parent.id}/attachments`, b.adminToken)).body.attachments;
    const urls = attachments.map((x: any) => x.url).sort();
    assert.ok(urls.includes('https://docs.example.com/design'), JSON.stringify(urls));
    assert.equal(urls.length, 2, JSON.stringify(urls));
  });

  test("A's files: B holds its own copies, byte for byte, linked from the text and attached", async () => {
    const three = (await issuesOfB()).find((i) => i.title === 'Plain issue 3');
    assert.ok(three);
    const ours = /^The layout:\n\n!\[diagram\]\((http:\/\/trackway\.test\/api\/files\/[0-9a-f-]{36})\)/.exec(
      three.description,
    )?.[1];
    assert.ok(ours, three.description);
    const comments = (await b.get(`/api/issues/${three.id}/comments`, b.adminToken)).body.comments as any[];
    const traceOurs = /^Trace: \[trace\.bin\]\((http:\/\/trackway\.test\/api\/files\/[0-9a-f-]{36})\)/.exec(
      comments[0].body,
    )?.[1];
    assert.ok(traceOurs, comments[0].body);
    // Another origin's /api/files/ link is not A's file: kept as written, never fetched.
    assert.ok(comments[0].body.endsWith(`, not this: ${otherLink}`), comments[0].body);
    assert.deepEqual(otherRequests, []);

    // The attachment that carried A's file carries B's copy; the linked one gets an attachment.
    const attachments = (await b.get(`/api/issues/${three.id}/attachments`, b.adminToken)).body
      .attachments as any[];
    const byUrl = (url: string) => attachments.filter((x) => x.url === url);
    assert.deepEqual(
      byUrl(ours).map((x) => [x.title, x.subtitle]),
      [['Layout diagram', null]],
      JSON.stringify(attachments),
    );
    assert.deepEqual(
      byUrl(traceOurs).map((x) => [x.title, x.subtitle]),
      [['trace.bin', 'Imported file']],
    );
    assert.ok(
      !JSON.stringify(attachments).includes(`${baseA}/api/files/`),
      `nothing points at A's files: ${JSON.stringify(attachments)}`,
    );

    for (const [url, original, source, name] of [
      [ours, diagram, filesA.diagram, 'diagram.png'],
      [traceOurs, trace, filesA.trace, 'trace.bin'],
    ] as const) {
      const id = ownFileId(url, b.config.publicUrl);
      assert.ok(id && id !== source.id, `B's own file, not A's id: ${url}`);
      const res = await b.app.inject({
        method: 'GET',
        url: `/api/files/${id}`,
        headers: { authorization: `Bearer ${b.adminToken}` },
      });
      assert.equal(res.statusCode, 200);
      assert.equal(sha(res.rawPayload), sha(original));
      // Named as A named it (its Content-Disposition), not by the attachment's title.
      assert.match(String(res.headers['content-disposition']), new RegExp(`filename="${name}"`));
    }

    // A served each file once, to A's key; every request A had carried that key.
    const fileRequests = requestsA.filter((r) => r.path.startsWith('/api/files/'));
    assert.deepEqual(fileRequests.map((r) => r.path).sort(), [
      ...[filesA.diagram.id, filesA.trace.id].map((id) => `/api/files/${id}`).sort(),
    ]);
    assert.deepEqual(
      fileRequests.map((r) => r.authorization),
      [`Bearer ${keyA}`, `Bearer ${keyA}`],
    );
    assert.ok(requestsA.every((r) => r.authorization === keyA || r.authorization === `Bearer ${keyA}`));
  });

  test('running again creates nothing', async () => {
    const before = await issuesOfB();
    const fetched = fileRequestsA();
    const report = await runImport(b.ctx, adminB, linearSource({ url: baseA, apiKey: keyA }));
    assert.equal(report.counts['issue.created'] ?? 0, 0);
    assert.equal(report.counts['issue.existing'], 5);
    assert.equal(report.counts['comment.created'] ?? 0, 0);
    assert.equal(report.counts['file.created'] ?? 0, 0);
    assert.equal(fileRequestsA(), fetched, 'no file fetched again');
    assert.equal((await issuesOfB()).length, before.length);
  });
});

async function fetchGraphql(query: string, variables: Record<string, unknown>) {
  const res = await fetch(`${baseA}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: keyA },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: unknown; errors?: unknown };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

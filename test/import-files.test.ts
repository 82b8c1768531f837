// Files copied by the importers (modules/import/files.ts through
// platform/net/safe-download.ts): Jira attachments fetched with the site's
// credentials (which do not follow a redirect to another origin), a 30 MB one
// streamed into the store (checked by checksum, and seen in the store's
// temporary file while the source still holds back its second half), links in
// text rewritten to our copy, idempotent re-runs; a file that cannot be fetched
// keeps its link and is reported; a host resolving to 127.0.0.1 is refused when
// private addresses are not allowed, at connect time (an injected resolver).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { after, before, describe, test } from 'node:test';
import { ownFileId } from '../src/modules/files/present.js';
import { githubSource } from '../src/modules/import/github.js';
import { jiraSource } from '../src/modules/import/jira.js';
import { linearSource } from '../src/modules/import/linear.js';
import type { ImportIssue, ImportSource } from '../src/modules/import/model.js';
import { runImport } from '../src/modules/import/runner.js';
import type { Actor } from '../src/platform/context.js';
import { fileStoreFor } from '../src/platform/storage/index.js';
import { BIG_ATTACHMENT_BYTES, type FakeJira, startFakeJira } from './support/fake-jira.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let strict: TestApp;
let dataDir: string;
let fake: FakeJira;
let files: http.Server;
let filesPort: number;
const served: string[] = [];
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

const adminOf = async (app: TestApp): Promise<Actor> => {
  const me = (await app.get('/api/auth/me', app.adminToken)).body.user;
  return { id: me.id, role: 'admin', name: me.name, email: me.email, via: 'session' };
};

before(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trackway-import-files-'));
  t = await startTestApp({ dataDir, fileStorage: 'local' });
  strict = await startTestApp({ webhookAllowPrivate: false });
  fake = await startFakeJira({ bigAttachment: true });
  files = http.createServer((req, res) => {
    served.push(req.url ?? '');
    if (req.url?.startsWith('/upload/')) {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(PNG.length) });
      return res.end(PNG);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
  filesPort = (files.address() as AddressInfo).port;
});
after(async () => {
  files?.closeAllConnections();
  await new Promise((r) => files?.close(r));
  await fake?.close();
  await t?.close();
  await strict?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const sha256Of = async (app: TestApp, fileId: string) => {
  const hash = createHash('sha256');
  await pipeline(await fileStoreFor(app.ctx).get(fileId), hash);
  return hash.digest('hex');
};

/** The size of the largest file being written into the local store (`.part`), 0 when none. */
async function largestPartial(): Promise<number> {
  let largest = 0;
  const walk = async (dir: string): Promise<void> => {
    for (const e of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.name.endsWith('.part'))
        largest = Math.max(largest, (await fs.stat(p).catch(() => ({ size: 0 }))).size);
    }
  };
  await walk(path.join(dataDir, 'files'));
  return largest;
}

describe('Jira attachments', () => {
  test('are copied into the store, a 30 MB one streamed, and the credentials stay on the site', async () => {
    let midway = 0;
    fake.holdHalfway = async () => {
      // The source holds back the second half until the store holds a good part of the first:
      // only a download streamed into the store gets there (a buffered one would wait for the end).
      for (let tries = 0; tries < 1200 && midway < 8 * 1024 * 1024; tries++) {
        midway = await largestPartial();
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const source = jiraSource({
      url: fake.url,
      jql: 'project = WEB',
      auth: { email: 'admin@acme.example', apiToken: 'cloud-token' },
      pageSize: 2,
    });
    const report = await runImport(t.ctx, await adminOf(t), source);
    assert.equal(report.status, 'completed', JSON.stringify(report.errors));
    assert.deepEqual(report.errors, []);
    assert.equal(report.counts['file.created'], 2, JSON.stringify(report.counts));
    assert.ok(midway >= 8 * 1024 * 1024, `the store held ${midway} bytes halfway through`);

    const issues = (await t.get('/api/issues?teamId=WEB&limit=50', t.adminToken)).body.issues as any[];
    const attachments: any[] = [];
    for (const i of issues)
      attachments.push(...(await t.get(`/api/issues/${i.id}/attachments`, t.adminToken)).body.attachments);
    const big = attachments.find((a) => a.title === 'recording.bin');
    const small = attachments.find((a) => a.title === 'screenshot.png');
    assert.ok(big && small, JSON.stringify(attachments));
    for (const a of [big, small]) assert.match(a.url, /^http:\/\/trackway\.test\/api\/files\/[0-9a-f-]{36}$/);

    const bigId = ownFileId(big.url, t.config.publicUrl)!;
    assert.ok(fake.bigSha256, 'the source sent the whole 30 MB');
    assert.equal(await sha256Of(t, bigId), fake.bigSha256);
    const stored = await fs.stat(path.join(dataDir, 'files', bigId.slice(0, 2), bigId));
    assert.equal(stored.size, BIG_ATTACHMENT_BYTES);
    const download = await t.request('GET', `/api/files/${ownFileId(small.url, t.config.publicUrl)}`, {
      token: t.adminToken,
    });
    assert.equal(download.status, 200);
    assert.equal(download.headers['content-type'], 'image/png');
    // The site's credentials were not sent to the media service's other origin.
    assert.ok(fake.mediaAuthorization.length >= 2);
    assert.deepEqual(
      fake.mediaAuthorization.filter((h) => h !== undefined),
      [],
    );
  });

  test('a re-run fetches nothing again and creates nothing twice', async () => {
    const before = fake.mediaAuthorization.length;
    const report = await runImport(
      t.ctx,
      await adminOf(t),
      jiraSource({
        url: fake.url,
        jql: 'project = WEB',
        auth: { email: 'admin@acme.example', apiToken: 'cloud-token' },
      }),
    );
    assert.equal(report.status, 'completed', JSON.stringify(report.errors));
    assert.equal(report.counts['issue.created'] ?? 0, 0);
    assert.equal(report.counts['file.created'] ?? 0, 0);
    assert.equal(fake.mediaAuthorization.length, before);
  });
});

/** A source of one issue whose text links files on `host` (a stand-in for GitHub's or Linear's upload hosts). */
function linkingSource(name: string, host: string, links: string[]): ImportSource {
  const issue: ImportIssue = {
    key: 'i1',
    identifier: `${name}-1`,
    teamRef: 't',
    title: `Links files (${name})`,
    description: `See ![shot](${links[0]}) and [log](${links[1]}).`,
    comments: [{ key: 'c1', body: `Again: ${links[0]}` }],
  };
  return {
    kind: 'csv',
    name: `files-test:${name}`,
    label: 'Test',
    files: { isFile: (u) => u.hostname === host, headers: () => ({}) },
    async reference() {
      return {
        users: [],
        teams: [{ key: 't', teamKey: name.toUpperCase(), name }],
        states: [],
        labels: [],
        projects: [],
        milestones: [],
        cycles: [],
      };
    },
    async *issues() {
      yield { issues: [issue], next: null };
    },
  };
}

const resolver = async () => [{ address: '127.0.0.1', family: 4 }];

describe('files linked from text', () => {
  test('are copied and the links rewritten; one that cannot be fetched keeps its link', async () => {
    const shot = `http://files.example.test:${filesPort}/upload/shot.png`;
    const missing = `http://files.example.test:${filesPort}/gone/log.txt`;
    const report = await runImport(
      t.ctx,
      await adminOf(t),
      linkingSource('LINKS', 'files.example.test', [shot, missing]),
      {
        files: { resolver },
      },
    );
    assert.equal(report.status, 'completed');
    assert.equal(report.counts['file.created'], 1, JSON.stringify(report));
    assert.equal(report.counts['file.failed'], 1);
    assert.equal(report.errors.length, 1);
    assert.match(
      report.errors[0]!,
      /^LINKS-1: file .*\/gone\/log\.txt not copied \(HTTP 404\); the link to it is kept$/,
    );
    const issue = ((await t.get('/api/issues?teamId=LINKS', t.adminToken)).body.issues as any[])[0];
    const full = (await t.get(`/api/issues/${issue.id}`, t.adminToken)).body.issue;
    const ours = /http:\/\/trackway\.test\/api\/files\/[0-9a-f-]{36}/.exec(full.description)?.[0];
    assert.ok(ours, full.description);
    assert.ok(!full.description.includes(shot));
    assert.ok(full.description.includes(missing));
    const comments = (await t.get(`/api/issues/${issue.id}/comments`, t.adminToken)).body.comments;
    assert.equal(comments[0].body, `Again: ${ours}`);
    const attachments = (await t.get(`/api/issues/${issue.id}/attachments`, t.adminToken)).body.attachments;
    assert.deepEqual(
      attachments.map((a: any) => a.url),
      [ours],
    );
    assert.equal(
      await sha256Of(t, ownFileId(ours, t.config.publicUrl)!),
      createHash('sha256').update(PNG).digest('hex'),
    );
  });

  test('a host resolving to 127.0.0.1 is refused when private addresses are not allowed', async () => {
    const before = served.length;
    const shot = `http://rebind.example.test:${filesPort}/upload/private.png`;
    const report = await runImport(
      strict.ctx,
      await adminOf(strict),
      linkingSource('STRICT', 'rebind.example.test', [shot, shot]),
      { files: { resolver } },
    );
    assert.equal(report.status, 'completed');
    assert.equal(report.counts['issue.created'], 1);
    assert.equal(report.counts['file.failed'], 1);
    assert.match(
      report.errors[0]!,
      /not copied \(destination refused: resolves to 127\.0\.0\.1, a loopback address/,
    );
    assert.equal(served.length, before, 'nothing reached the private server');
    const issue = (
      (await strict.get('/api/issues?teamId=STRICT', strict.adminToken)).body.issues as any[]
    )[0];
    const full = (await strict.get(`/api/issues/${issue.id}`, strict.adminToken)).body.issue;
    assert.ok(full.description.includes(shot));
  });

  test('each source names its own upload links and sends its credentials only to its own hosts', () => {
    const gh = githubSource({ repo: 'acme/widgets', token: 'ghp_x' }).files!;
    assert.ok(gh.isFile(new URL('https://github.com/user-attachments/assets/0d5e-11')));
    assert.ok(gh.isFile(new URL('https://user-images.githubusercontent.com/1/2.png')));
    assert.ok(!gh.isFile(new URL('https://github.com/acme/widgets/issues/3')));
    assert.deepEqual(gh.headers(new URL('https://github.com/user-attachments/assets/1')), {});
    const ghes = githubSource({
      repo: 'acme/widgets',
      token: 'ghp_x',
      apiUrl: 'https://git.corp.example/api/v3',
    }).files!;
    assert.ok(ghes.isFile(new URL('https://git.corp.example/storage/user/1/files/2')));
    assert.deepEqual(ghes.headers(new URL('https://git.corp.example/storage/user/1/files/2')), {
      authorization: 'Bearer ghp_x',
    });
    const lin = linearSource({ url: 'https://api.linear.app', apiKey: 'lin_api_x' }).files!;
    assert.ok(lin.isFile(new URL('https://uploads.linear.app/a/b/c')));
    assert.deepEqual(lin.headers(new URL('https://uploads.linear.app/a/b/c')), {
      authorization: 'lin_api_x',
    });
    assert.deepEqual(lin.headers(new URL('https://evil.example/a')), {});
    const tw = linearSource({ url: 'https://tracker.example', apiKey: 'tw_x' }).files!;
    assert.ok(tw.isFile(new URL('https://tracker.example/api/files/6c0e2a7e-1f43-4c1e-9a55-3f0c1d2e3f4a')));
    assert.ok(!tw.isFile(new URL('https://tracker.example/api/issues')));
  });
});

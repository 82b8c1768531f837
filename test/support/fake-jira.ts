// A local server that answers as Jira does, with bodies recorded in
// test/fixtures/jira/: Jira Cloud's REST v3 at /rest/api/3 (basic auth with
// FAKE_JIRA_CLOUD below) and Data Center's REST v2 under the context path
// /jira (a bearer personal access token, FAKE_JIRA_PAT). The first Cloud
// search answers 429 with Retry-After: 0; `failDcStartAt` makes one Data
// Center issue page answer 500 once. Used by test/import-jira.test.ts and the
// admin Imports page's browser test.
//
// Attachments: the fixtures' content URLs (acme.atlassian.net) are served here
// instead: `/rest/api/3/attachment/content/<id>` checks the credentials and
// redirects (as Cloud does, to another origin: `localhost` for `127.0.0.1`) to
// `/media/<id>?token=...`, which serves the bytes.
// `bigAttachment` adds a 30 MB attachment to WEB-2, generated as it is sent:
// the first half, then (when `holdHalfway` is set) a wait for that promise
// before the rest, so a test can look at the store while the download is open.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAKE_JIRA_CLOUD = { email: 'admin@acme.example', apiToken: 'cloud-token' };
export const FAKE_JIRA_PAT = 'dc-pat';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/jira/${name}`, import.meta.url), 'utf8');

const CLOUD_AUTH = `Basic ${Buffer.from(`${FAKE_JIRA_CLOUD.email}:${FAKE_JIRA_CLOUD.apiToken}`).toString('base64')}`;
const DC_AUTH = `Bearer ${FAKE_JIRA_PAT}`;

export interface FakeJira {
  url: string;
  /** Every request answered: path and query. */
  requests: URL[];
  /** Whether the first Cloud search (answered 429) is still to come. */
  rateLimitOnce: boolean;
  /** The next Data Center issue page at this startAt answers 500 once. */
  failDcStartAt: number | null;
  /** The bytes of the small attachment (10300), and the SHA-256 of the big one once it was sent whole. */
  screenshot: Buffer;
  bigSha256: string | null;
  /** Awaited after the first half of the big attachment is sent. */
  holdHalfway: (() => Promise<void>) | null;
  /** Authorization headers seen on /media/ requests (a redirect must not carry ours). */
  mediaAuthorization: (string | undefined)[];
  close(): Promise<void>;
}

export const BIG_ATTACHMENT_BYTES = 30 * 1024 * 1024;
const BLOCK = 64 * 1024;

/** Block `n` of the big attachment: deterministic, not all alike (so a shifted copy does not hash equal). */
function block(n: number): Buffer {
  const seed = createHash('sha256').update(`block ${n}`).digest();
  const out = Buffer.alloc(BLOCK);
  for (let i = 0; i < BLOCK; i += seed.length) seed.copy(out, i);
  return out;
}

async function sendBig(fake: FakeJira, res: http.ServerResponse) {
  res.writeHead(200, {
    'content-type': 'application/octet-stream',
    'content-length': String(BIG_ATTACHMENT_BYTES),
    'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent('recording é.bin')}`,
  });
  const hash = createHash('sha256');
  const blocks = BIG_ATTACHMENT_BYTES / BLOCK;
  for (let n = 0; n < blocks; n++) {
    if (n === blocks / 2 && fake.holdHalfway) await fake.holdHalfway();
    const b = block(n);
    hash.update(b);
    if (!res.write(b)) await new Promise((r) => res.once('drain', r));
    if (res.destroyed) return;
  }
  res.end();
  fake.bigSha256 = hash.digest('hex');
}

function answer(
  res: http.ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8', ...headers });
  res.end(body);
}

export async function startFakeJira(opts: { bigAttachment?: boolean } = {}): Promise<FakeJira> {
  const fake: FakeJira = {
    url: '',
    requests: [],
    rateLimitOnce: true,
    failDcStartAt: null,
    screenshot: Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('a screenshot, ü')]),
    bigSha256: null,
    holdHalfway: null,
    mediaAuthorization: [],
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
  const server = http.createServer((req, res) => {
    try {
      jira(fake, req, res, opts);
    } catch (err) {
      answer(res, 500, JSON.stringify({ errorMessages: [(err as Error).message] }));
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

/** A Cloud search page with its attachments' content served here (and the big one added to WEB-2). */
function cloudPage(fake: FakeJira, name: string, big: boolean): string {
  const text = fixture(name).replaceAll(
    'https://acme.atlassian.net/rest/api/3/attachment/content/',
    `${fake.url}/rest/api/3/attachment/content/`,
  );
  if (!big) return text;
  const page = JSON.parse(text) as { issues: { key: string; fields: { attachment?: unknown[] } }[] };
  for (const i of page.issues)
    if (i.key === 'WEB-2')
      i.fields.attachment = [
        ...(i.fields.attachment ?? []),
        {
          id: '10301',
          filename: 'recording.bin',
          content: `${fake.url}/rest/api/3/attachment/content/10301`,
        },
      ];
  return JSON.stringify(page);
}

function jira(
  fake: FakeJira,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  opts: { bigAttachment?: boolean },
) {
  const url = new URL(req.url ?? '/', 'http://jira.local');
  fake.requests.push(url);
  const q = url.searchParams;
  if (url.pathname.startsWith('/media/')) {
    fake.mediaAuthorization.push(req.headers.authorization);
    if (q.get('token') !== 'media-token') return answer(res, 401, '{}');
    const id = url.pathname.slice('/media/'.length);
    if (id === '10300') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(fake.screenshot.length) });
      return res.end(fake.screenshot);
    }
    if (id === '10301' && opts.bigAttachment) return void sendBig(fake, res);
  }
  if (url.pathname.startsWith('/rest/api/3/')) {
    if (req.headers.authorization !== CLOUD_AUTH)
      return answer(res, 401, JSON.stringify({ errorMessages: ['You are not authenticated.'], errors: {} }));
    const path = url.pathname.slice('/rest/api/3'.length);
    // Cloud answers an attachment's content with a redirect to its media service, which takes a token.
    const content = /^\/attachment\/content\/(\d+)$/.exec(path);
    if (content) {
      // Another origin (as api.media.atlassian.com is): our credentials must not follow.
      const media = new URL(fake.url);
      media.hostname = 'localhost';
      res.writeHead(303, { location: `${media.origin}/media/${content[1]}?token=media-token` });
      return res.end();
    }
    if (path === '/field') return answer(res, 200, fixture('cloud/field.json'));
    if (path === '/search/jql') {
      if (fake.rateLimitOnce) {
        fake.rateLimitOnce = false;
        return answer(res, 429, JSON.stringify({ errorMessages: ['Rate limit exceeded.'] }), {
          'retry-after': '0',
        });
      }
      assert.equal(q.get('jql'), 'project = WEB ORDER BY created ASC');
      const token = q.get('nextPageToken');
      if (token === null)
        return answer(res, 200, cloudPage(fake, 'cloud/search-page-1.json', !!opts.bigAttachment));
      if (token === 'CAEaAggD')
        return answer(res, 200, cloudPage(fake, 'cloud/search-page-2.json', !!opts.bigAttachment));
      return answer(res, 400, JSON.stringify({ errorMessages: ['Invalid nextPageToken.'], errors: {} }));
    }
    if (path === '/issue/10001/comment' && q.get('startAt') === '2')
      return answer(res, 200, fixture('cloud/comments-10001.json'));
  }
  if (url.pathname.startsWith('/jira/rest/api/2/')) {
    if (req.headers.authorization !== DC_AUTH)
      return answer(res, 401, JSON.stringify({ errorMessages: ['You are not authenticated.'], errors: {} }));
    const path = url.pathname.slice('/jira/rest/api/2'.length);
    if (path === '/field') return answer(res, 200, fixture('dc/field.json'));
    if (path === '/search') {
      if (q.get('jql') === 'key in ("OPS-1")') return answer(res, 200, fixture('dc/search-epics.json'));
      assert.equal(q.get('jql'), 'project = OPS ORDER BY created ASC');
      const startAt = Number(q.get('startAt'));
      // Only the issue pass (which asks for comments) fails: the reference pass reads the same pages.
      if (fake.failDcStartAt === startAt && q.get('fields')?.includes('comment')) {
        fake.failDcStartAt = null;
        return answer(res, 500, '<html><body>Internal server error</body></html>');
      }
      if (startAt === 0) return answer(res, 200, fixture('dc/search-page-1.json'));
      if (startAt === 2) return answer(res, 200, fixture('dc/search-page-2.json'));
    }
  }
  answer(res, 404, JSON.stringify({ errorMessages: ['Not found'], errors: {} }));
}

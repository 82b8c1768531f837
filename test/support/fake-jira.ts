// A local server that answers as Jira does, with bodies recorded in
// test/fixtures/jira/: Jira Cloud's REST v3 at /rest/api/3 (basic auth with
// FAKE_JIRA_CLOUD below) and Data Center's REST v2 under the context path
// /jira (a bearer personal access token, FAKE_JIRA_PAT). The first Cloud
// search answers 429 with Retry-After: 0; `failDcStartAt` makes one Data
// Center issue page answer 500 once. Used by test/import-jira.test.ts and the
// admin Imports page's browser test.
import assert from 'node:assert/strict';
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
  close(): Promise<void>;
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

export async function startFakeJira(): Promise<FakeJira> {
  const fake: FakeJira = {
    url: '',
    requests: [],
    rateLimitOnce: true,
    failDcStartAt: null,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
  const server = http.createServer((req, res) => {
    try {
      jira(fake, req, res);
    } catch (err) {
      answer(res, 500, JSON.stringify({ errorMessages: [(err as Error).message] }));
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

function jira(fake: FakeJira, req: http.IncomingMessage, res: http.ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://jira.local');
  fake.requests.push(url);
  const q = url.searchParams;
  if (url.pathname.startsWith('/rest/api/3/')) {
    if (req.headers.authorization !== CLOUD_AUTH)
      return answer(res, 401, JSON.stringify({ errorMessages: ['You are not authenticated.'], errors: {} }));
    const path = url.pathname.slice('/rest/api/3'.length);
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
      if (token === null) return answer(res, 200, fixture('cloud/search-page-1.json'));
      if (token === 'CAEaAggD') return answer(res, 200, fixture('cloud/search-page-2.json'));
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

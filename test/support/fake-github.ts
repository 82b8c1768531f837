// A local server answering as GitHub's REST API does (api.github.com, or a
// GitHub Enterprise Server's /api/v3), with the bodies recorded in
// test/fixtures/github/ for any owner/repo: issues over three pages linked by
// `Link` headers (a pull request among them), labels, milestones, and
// comments (issue 1's over two pages). `once` makes a path answer a status
// once before its body (a rate limit, a failure); `seen` lists the requests.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'github');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8');

export const FAKE_GITHUB_TOKEN = 'ghp_test';

export interface FakeGithub {
  url: string;
  /** Requests answered, as `METHOD path?query`. */
  seen: string[];
  /** `path?page=N` → the status (and headers) to answer once. */
  once: Map<string, { status: number; headers: Record<string, string> }>;
  close(): Promise<void>;
}

export async function startFakeGithub(): Promise<FakeGithub> {
  let api = '';
  const seen: string[] = [];
  const once = new Map<string, { status: number; headers: Record<string, string> }>();

  function answer(res: http.ServerResponse, body: string, link?: string) {
    const headers: Record<string, string> = {
      'content-type': 'application/json; charset=utf-8',
      'x-ratelimit-limit': '5000',
      'x-ratelimit-remaining': '4999',
      'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 3600),
      'x-ratelimit-resource': 'core',
      'x-github-api-version-selected': '2022-11-28',
    };
    if (link) headers.link = link;
    res.writeHead(200, headers).end(body);
  }

  /** GitHub's `Link` header for page `page` of `last` at `pathname`. */
  function linkOf(pathname: string, query: URLSearchParams, page: number, last: number) {
    const at = (p: number, rel: string) => {
      const q = new URLSearchParams(query);
      q.set('page', String(p));
      return `<${api}${pathname}?${q}>; rel="${rel}"`;
    };
    const parts = [];
    if (page > 1) parts.push(at(page - 1, 'prev'), at(1, 'first'));
    if (page < last) parts.push(at(page + 1, 'next'), at(last, 'last'));
    return parts.join(', ') || undefined;
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url!, api);
    seen.push(`${req.method} ${url.pathname}${url.search}`);
    // GitHub's answers to a wrong token and to a list asked in another order than the importer's.
    if (req.headers.authorization !== `token ${FAKE_GITHUB_TOKEN}`)
      return void res
        .writeHead(401, { 'content-type': 'application/json' })
        .end('{"message":"Bad credentials"}');
    const failure = once.get(`${url.pathname}?page=${url.searchParams.get('page') ?? '1'}`);
    if (failure) {
      once.delete(`${url.pathname}?page=${url.searchParams.get('page') ?? '1'}`);
      res.writeHead(failure.status, { 'content-type': 'application/json', ...failure.headers });
      res.end(
        JSON.stringify({ message: 'API rate limit exceeded', documentation_url: 'https://docs.github.com' }),
      );
      return;
    }
    const m = /^\/repos\/[^/]+\/[^/]+\/(labels|milestones|issues)(?:\/(\d+)\/comments)?$/.exec(url.pathname);
    const page = Number(url.searchParams.get('page') ?? '1');
    if (m?.[1] === 'labels') return answer(res, fixture('labels'));
    if (m?.[1] === 'milestones' && url.searchParams.get('state') === 'all')
      return answer(res, fixture('milestones'));
    if (m?.[1] === 'issues' && m[2] === '1')
      return answer(res, fixture(`comments-1-page${page}`), linkOf(url.pathname, url.searchParams, page, 2));
    if (m?.[1] === 'issues' && m[2]) return answer(res, fixture(`comments-${m[2]}`));
    if (
      m?.[1] === 'issues' &&
      url.searchParams.get('state') === 'all' &&
      url.searchParams.get('direction') === 'asc'
    )
      return answer(res, fixture(`issues-page${page}`), linkOf(url.pathname, url.searchParams, page, 3));
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: api,
    seen,
    once,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

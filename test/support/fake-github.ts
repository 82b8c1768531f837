// A local server answering as GitHub's REST API does (api.github.com, or a
// GitHub Enterprise Server's /api/v3), with the bodies recorded in
// test/fixtures/github/ for any owner/repo: issues over three pages linked by
// `Link` headers (a pull request among them), labels, milestones, and
// comments (issue 1's over two pages). `once` makes a path answer a status
// once before its body (a rate limit, a failure); `seen` lists the requests.
// `edit` changes one repository's issues or comments before they are sent
// (bodies that link files), and `uploads` are files on this host, as GitHub
// Enterprise Server keeps them, readable with the token as a bearer.
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
  /** Changes `owner/repo`'s list at `what` (`issues`, `comments-1`...) in place before it is sent. */
  edit: Map<string, (what: string, items: any[]) => void>;
  /** Paths on this host answered as files (or redirected elsewhere), only to `Bearer <token>`. */
  uploads: Map<string, Upload>;
  /** Each request for an upload path: the path and its Authorization header. */
  uploadRequests: { path: string; authorization: string | undefined }[];
  close(): Promise<void>;
}

export type Upload = { body: Buffer; contentType: string } | { redirect: string };

export async function startFakeGithub(): Promise<FakeGithub> {
  let api = '';
  const seen: string[] = [];
  const once = new Map<string, { status: number; headers: Record<string, string> }>();
  const edit = new Map<string, (what: string, items: any[]) => void>();
  const uploads = new Map<string, Upload>();
  const uploadRequests: FakeGithub['uploadRequests'] = [];

  function answer(res: http.ServerResponse, body: string, link?: string, edited?: [string, string]) {
    const change = edited && edit.get(edited[0]);
    if (change) {
      const items = JSON.parse(body);
      change(edited![1], items);
      body = JSON.stringify(items);
    }
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
    const upload = uploads.get(url.pathname);
    if (upload) {
      uploadRequests.push({ path: url.pathname, authorization: req.headers.authorization });
      // As GitHub answers a private resource to a reader without access.
      if (req.headers.authorization !== `Bearer ${FAKE_GITHUB_TOKEN}`) return void res.writeHead(404).end();
      if ('redirect' in upload) return void res.writeHead(302, { location: upload.redirect }).end();
      res.writeHead(200, { 'content-type': upload.contentType, 'content-length': upload.body.length });
      return void res.end(upload.body);
    }
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
    const m = /^\/repos\/([^/]+\/[^/]+)\/(labels|milestones|issues)(?:\/(\d+)\/comments)?$/.exec(
      url.pathname,
    );
    const page = Number(url.searchParams.get('page') ?? '1');
    const repo = m?.[1] ?? '';
    if (m?.[2] === 'labels') return answer(res, fixture('labels'));
    if (m?.[2] === 'milestones' && url.searchParams.get('state') === 'all')
      return answer(res, fixture('milestones'));
    if (m?.[2] === 'issues' && m[3] === '1')
      return answer(res, fixture(`comments-1-page${page}`), linkOf(url.pathname, url.searchParams, page, 2), [
        repo,
        'comments-1',
      ]);
    if (m?.[2] === 'issues' && m[3])
      return answer(res, fixture(`comments-${m[3]}`), undefined, [repo, `comments-${m[3]}`]);
    if (
      m?.[2] === 'issues' &&
      url.searchParams.get('state') === 'all' &&
      url.searchParams.get('direction') === 'asc'
    )
      return answer(res, fixture(`issues-page${page}`), linkOf(url.pathname, url.searchParams, page, 3), [
        repo,
        'issues',
      ]);
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: api,
    seen,
    once,
    edit,
    uploads,
    uploadRequests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

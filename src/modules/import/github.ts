// The GitHub Issues importer: reads one repository through GitHub's REST API
// (github.com, or GitHub Enterprise Server at its /api/v3) with Octokit's core
// client and its paginate plugin, which follows the `Link` headers.
//
// How a repository lands here (docs/migrate.md, "From GitHub Issues"):
// - the repository becomes a team (its key from the repository's name, or the
//   one given); open issues go to its "Todo" state, closed ones to "Done", or
//   "Canceled" when closed as not planned (or as a duplicate);
// - labels become the team's labels, with their colours;
// - milestones become milestones of a project named after the repository (a
//   GitHub milestone has a due date and no start, like a milestone here and
//   unlike a cycle); an issue with a milestone is in that project;
// - pull requests (items with `pull_request`) are skipped: they are code
//   review, not work items, and references to them stay in the text as written;
// - people are matched by email where the API gives one (or the `users`
//   mapping names one), else by login as `<login>@users.noreply.github.com`, so
//   someone with no account here is one of the run's missing users;
// - the issue's `owner/repo#123` is its searchable original key.
//
// A rate-limited answer (429, or 403 with no requests left) waits for the time
// GitHub names (`retry-after`, else `x-ratelimit-reset`), at most a minute and
// three times; a reset further off stops the run, which the next run resumes.
import { Octokit } from '@octokit/core';
import { paginateRest } from '@octokit/plugin-paginate-rest';
import type { ImportComment, ImportIssue, ImportReference, ImportSource, IssuePage } from './model.js';
import { ImportInputError } from './model.js';

export interface GithubSourceOptions {
  /** `owner/repo`. */
  repo: string;
  token?: string | undefined;
  /** The API's base (default https://api.github.com; GitHub Enterprise Server: https://host/api/v3). */
  apiUrl?: string | undefined;
  /** The team key to import into (default: from the repository's name). */
  team?: string | undefined;
  /** A login's email, for people whose email the API does not show. */
  users?: Record<string, string> | undefined;
  /** Issues per page (default 100, GitHub's most). */
  pageSize?: number | undefined;
  /** Ends the run's requests (the server is stopping). */
  signal?: AbortSignal | undefined;
  /** The longest wait on a rate limit (default a minute). */
  rateLimitWaitMaxMs?: number | undefined;
}

export const GITHUB_API_URL = 'https://api.github.com';
const REPO = /^([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/([A-Za-z0-9._-]{1,100})$/;
const TEAM_KEY = /^[A-Za-z][A-Za-z0-9]{0,9}$/;
const REQUEST_TIMEOUT_MS = 60_000;
const RATE_LIMIT_TRIES = 3;
const RATE_LIMIT_WAIT_MAX_MS = 60_000;

const PaginatedOctokit = Octokit.plugin(paginateRest);

interface GithubUser {
  login: string;
  email?: string | null;
  name?: string | null;
}
interface GithubLabel {
  id?: number;
  name?: string;
  color?: string | null;
  description?: string | null;
}
interface GithubMilestone {
  number: number;
  title: string;
  description: string | null;
  state: 'open' | 'closed';
  due_on: string | null;
}
interface GithubIssue {
  number: number;
  html_url: string;
  title: string;
  body?: string | null;
  state: string;
  state_reason?: string | null;
  user: GithubUser | null;
  assignee?: GithubUser | null;
  assignees?: GithubUser[] | null;
  labels: (string | GithubLabel)[];
  milestone: GithubMilestone | null;
  comments: number;
  pull_request?: unknown;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
}
interface GithubComment {
  id: number;
  body?: string;
  user: GithubUser | null;
  created_at: string;
  updated_at: string;
}

/** `owner/repo` checked; its faults are ImportInputErrors. */
export function parseRepo(raw: string): { owner: string; repo: string } {
  const m = REPO.exec(raw.trim().replace(/\.git$/, ''));
  if (!m) throw new ImportInputError('repo must be owner/name, e.g. octocat/hello-world');
  return { owner: m[1]!, repo: m[2]! };
}

/** A team key from a repository's name: its letters and digits, upper-cased, at most 10, starting with a letter. */
export function teamKeyOf(repo: string): string {
  const key = repo
    .replace(/[^A-Za-z0-9]/g, '')
    .replace(/^[0-9]+/, '')
    .toUpperCase()
    .slice(0, 10);
  return key || 'GH';
}

/** The email a GitHub person is matched by. */
export function emailOf(user: GithubUser, users: Record<string, string> = {}): string {
  const mapped = users[user.login];
  if (mapped) return mapped;
  if (user.email) return user.email;
  // GitHub's own no-reply domain; a bot's `[bot]` suffix made address-safe.
  const local = user.login.replace(/\[bot\]$/, '-bot').replace(/[^A-Za-z0-9-]/g, '-');
  return `${local.toLowerCase()}@users.noreply.github.com`;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(signal.reason);
    });
  });

/** How long a refused request should wait, or null when it was not a rate limit. */
export function rateLimitWait(status: number, headers: Record<string, unknown>, now = Date.now()) {
  if (status !== 429 && status !== 403) return null;
  const retryAfter = Number(headers['retry-after']);
  if (Number.isFinite(retryAfter) && headers['retry-after'] !== undefined)
    return Math.max(0, retryAfter) * 1000;
  if (String(headers['x-ratelimit-remaining']) === '0') {
    const reset = Number(headers['x-ratelimit-reset']);
    if (Number.isFinite(reset)) return Math.max(0, reset * 1000 - now);
    return 1000;
  }
  // A 429 naming no time; a 403 with requests left is a permission problem, not a limit.
  return status === 429 ? 1000 : null;
}

/** Where files dropped into an issue or comment live: an image host, or a path of the site itself. */
const UPLOAD_HOSTS = new Set([
  'user-images.githubusercontent.com',
  'private-user-images.githubusercontent.com',
]);
const UPLOAD_PATH = /^\/(user-attachments\/(assets|files)|storage\/user)\//;

/** The `page` of the `rel="next"` link, or null on the last page. */
export function nextPage(link: string | undefined): string | null {
  return pageOfLink(link, 'next');
}

/** The page number a Link header's `rel` points at (`next`, `last`), or null. */
function pageOfLink(link: string | undefined, rel: string): string | null {
  const part = link?.split(',').find((p) => p.includes(`rel="${rel}"`));
  const url = part && /<([^>]+)>/.exec(part)?.[1];
  if (!url) return null;
  return new URL(url).searchParams.get('page');
}

function withoutCredentials(base: string): string {
  try {
    const url = new URL(base);
    url.username = '';
    url.password = '';
    return url.toString().replace(/\/+$/, '');
  } catch {
    throw new ImportInputError('apiUrl is not a valid URL');
  }
}

export function githubSource(opts: GithubSourceOptions): ImportSource {
  const { owner, repo } = parseRepo(opts.repo);
  const full = `${owner}/${repo}`;
  const apiUrl = withoutCredentials(opts.apiUrl?.trim() || GITHUB_API_URL);
  if (opts.team !== undefined && !TEAM_KEY.test(opts.team))
    throw new ImportInputError('team must be a team key (a letter, then letters and digits, at most 10)');
  const teamKey = (opts.team ?? teamKeyOf(repo)).toUpperCase();
  const pageSize = Math.min(100, Math.max(1, opts.pageSize ?? 100));
  const waitMax = opts.rateLimitWaitMaxMs ?? RATE_LIMIT_WAIT_MAX_MS;
  const users = opts.users ?? {};

  const octokit = new PaginatedOctokit({
    ...(opts.token ? { auth: opts.token } : {}),
    baseUrl: apiUrl,
    userAgent: 'trackway-import',
    request: {
      // Each request gets its own deadline, and ends when the run is stopped.
      fetch: (url: string, init: RequestInit = {}) => {
        const signals = [AbortSignal.timeout(REQUEST_TIMEOUT_MS)];
        if (opts.signal) signals.push(opts.signal);
        if (init.signal) signals.push(init.signal);
        return fetch(url, { ...init, signal: AbortSignal.any(signals) });
      },
    },
  });
  octokit.hook.wrap('request', async (request, options) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await request(options);
      } catch (err) {
        const e = err as { status?: number; response?: { headers?: Record<string, unknown> } };
        const wait = rateLimitWait(e.status ?? 0, e.response?.headers ?? {});
        if (wait === null || attempt >= RATE_LIMIT_TRIES) throw err;
        if (wait > waitMax) {
          const at = new Date(Date.now() + wait).toISOString();
          throw new Error(`GitHub's rate limit resets at ${at}; run the import again then to continue`);
        }
        await sleep(wait, opts.signal);
      }
    }
  });

  const teamRef = `team:${full}`;
  const projectRef = `project:${full}`;
  const state = { open: 'state:open', done: 'state:done', canceled: 'state:canceled' };
  const labelRef = (name: string) => `label:${name.toLowerCase()}`;
  const milestoneRef = (n: number) => `milestone:${n}`;
  let hasMilestones = false;

  async function comments(number: number): Promise<ImportComment[]> {
    const list = (await octokit.paginate('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      owner,
      repo,
      issue_number: number,
      per_page: 100,
    })) as GithubComment[];
    return list.map((c) => ({
      key: `comment:${c.id}`,
      authorEmail: c.user ? emailOf(c.user, users) : null,
      authorName: c.user?.name ?? c.user?.login ?? null,
      body: c.body ?? '',
      createdAt: c.created_at,
      updatedAt: c.updated_at,
    }));
  }

  async function toIssue(i: GithubIssue): Promise<ImportIssue> {
    const closed = i.state === 'closed';
    const canceled = closed && (i.state_reason === 'not_planned' || i.state_reason === 'duplicate');
    const assignee = i.assignee ?? i.assignees?.[0] ?? null;
    const names = i.labels.map((l) => (typeof l === 'string' ? l : l.name)).filter((n): n is string => !!n);
    return {
      key: `issue:${i.number}`,
      identifier: `${full}#${i.number}`,
      url: i.html_url,
      teamRef,
      title: i.title.replace(/\s+/g, ' ').trim() || `${full}#${i.number}`,
      // Markdown stays Markdown: GitHub's is what the editor here reads.
      description: i.body ?? null,
      stateRef: closed ? (canceled ? state.canceled : state.done) : state.open,
      assigneeEmail: assignee ? emailOf(assignee, users) : null,
      creatorEmail: i.user ? emailOf(i.user, users) : null,
      labelRefs: names.map(labelRef),
      projectRef: i.milestone && hasMilestones ? projectRef : null,
      milestoneRef: i.milestone ? milestoneRef(i.milestone.number) : null,
      createdAt: i.created_at,
      updatedAt: i.updated_at,
      completedAt: closed && !canceled ? i.closed_at : null,
      canceledAt: canceled ? i.closed_at : null,
      comments: i.comments > 0 ? await comments(i.number) : [],
    };
  }

  const base = apiUrl === GITHUB_API_URL ? '' : `${apiUrl}:`;
  // GitHub Enterprise Server keeps uploads on its own host, which is also where the token is good.
  const server = apiUrl === GITHUB_API_URL ? null : new URL(apiUrl).origin;
  return {
    kind: 'github',
    name: `github:${base}${full}`,
    label: 'GitHub',
    files: {
      isFile: (url) =>
        UPLOAD_HOSTS.has(url.hostname) ||
        ((url.hostname === 'github.com' || url.origin === server) && UPLOAD_PATH.test(url.pathname)),
      headers: (url): Record<string, string> =>
        opts.token && url.origin === server ? { authorization: `Bearer ${opts.token}` } : {},
    },
    async reference(): Promise<ImportReference> {
      const labels = (await octokit.paginate('GET /repos/{owner}/{repo}/labels', {
        owner,
        repo,
        per_page: 100,
      })) as GithubLabel[];
      const milestones = (await octokit.paginate('GET /repos/{owner}/{repo}/milestones', {
        owner,
        repo,
        state: 'all',
        per_page: 100,
      })) as GithubMilestone[];
      hasMilestones = milestones.length > 0;
      return {
        users: [],
        teams: [{ key: teamRef, teamKey, name: full }],
        states: [
          { key: state.open, teamRef, name: 'Todo', type: 'unstarted' },
          { key: state.done, teamRef, name: 'Done', type: 'completed' },
          { key: state.canceled, teamRef, name: 'Canceled', type: 'canceled' },
        ],
        labels: labels
          .filter((l): l is GithubLabel & { name: string } => !!l.name)
          .map((l) => ({
            key: labelRef(l.name),
            teamRef,
            name: l.name,
            ...(l.color && /^[0-9a-fA-F]{6}$/.test(l.color) ? { color: `#${l.color.toLowerCase()}` } : {}),
          })),
        projects: hasMilestones
          ? [
              {
                key: projectRef,
                name: full,
                description: `Imported from GitHub: ${full}`,
                teamRefs: [teamRef],
              },
            ]
          : [],
        milestones: milestones.map((m) => ({
          key: milestoneRef(m.number),
          projectRef,
          name: m.title,
          targetDate: m.due_on ? m.due_on.slice(0, 10) : null,
        })),
        cycles: [],
      };
    },
    async *issues(cursor: string | null): AsyncIterable<IssuePage> {
      // Oldest first, every state: a page number stays a stable place to resume from.
      const pages = octokit.paginate.iterator('GET /repos/{owner}/{repo}/issues', {
        owner,
        repo,
        state: 'all',
        sort: 'created',
        direction: 'asc',
        per_page: pageSize,
        page: cursor === null ? 1 : Math.max(1, Number.parseInt(cursor, 10) || 1),
      });
      let at = cursor === null ? 1 : Math.max(1, Number.parseInt(cursor, 10) || 1);
      for await (const res of pages) {
        const issues: ImportIssue[] = [];
        for (const item of res.data as GithubIssue[]) {
          if (item.pull_request) continue;
          issues.push(await toIssue(item));
        }
        // GitHub tells how many pages there are (the last one's link), not how many issues: pull
        // requests share the list. On the last page there is no such link: this page is the last.
        const next = nextPage(res.headers.link);
        const last = Number(pageOfLink(res.headers.link, 'last') ?? (next ? Number.NaN : at));
        yield {
          issues,
          next,
          ...(Number.isInteger(last) && last > 0 ? { total: { count: last, unit: 'page' as const } } : {}),
        };
        at++;
      }
    },
  };
}

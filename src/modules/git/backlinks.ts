// Back-link comments: when a pull/merge request first links an issue, one
// comment on it names the issue, posted through the host's API with the
// connection's token (or, on GitHub, a GitHub App's installation token,
// github-app.ts). process.ts queues a row per pull request and issue in
// git_backlinks (unique: a replay or a later delivery queues nothing new);
// worker.ts claims due rows and runs postBacklink. Each comment carries its
// row's id in a hidden marker, and a retry first looks for it among the pull
// request's comments: a comment the host took before we could record it
// (a crash, a lost answer) is found rather than posted twice. Privacy: an
// issue of a private team is named by identifier and URL only (the URL
// without its title slug) unless the payload said the repository is private.
// A pull request linked by hand (GraphQL, links.ts) queues its row through
// queueHandBacklink, in the transaction that writes the attachment.
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import type { GitConnectionRow, GitHost } from '../../platform/db/tables.js';
import { getJson, postJson } from '../../platform/net/outbound-post.js';
import { unseal } from '../../platform/sealed.js';
import { issueUrl } from '../issues/fields.js';
import { AppAuthError, installationToken, usesGitHubApp } from './github-app.js';
import * as q from './queries.js';
import { SEALING_PURPOSE } from './service.js';

/** The public hosts' API roots; self-hosted GitLab and every Gitea need the connection's apiBaseUrl. */
export const DEFAULT_API_BASE: Record<GitHost, string | null> = {
  github: 'https://api.github.com',
  gitlab: 'https://gitlab.com/api/v4',
  gitea: null,
};

const TIMEOUT_MS = 10_000;

/** The API root a connection's comments go to, or null when none is known. */
export function apiBaseOf(c: Pick<GitConnectionRow, 'host' | 'api_base_url'>): string | null {
  return (c.api_base_url ?? DEFAULT_API_BASE[c.host])?.replace(/\/+$/, '') ?? null;
}

/** Whether a connection posts back-links: its switch is on, it has a token or a GitHub App, and an API root. */
export function postsBacklinks(c: GitConnectionRow): boolean {
  return c.backlinks && (c.api_token !== null || usesGitHubApp(c)) && apiBaseOf(c) !== null;
}

/**
 * The host a connection's pull requests are on, as their web URLs name it: its
 * API root's host without a leading "api." (api.github.com -> github.com;
 * GitHub Enterprise, GitLab and Gitea serve the API on the web host).
 */
export function webHostOf(c: Pick<GitConnectionRow, 'host' | 'api_base_url'>): string | null {
  const base = apiBaseOf(c);
  return base === null ? null : new URL(base).host.toLowerCase().replace(/^api\./, '');
}

/**
 * Queues the back-link of a pull request linked by hand, inside the caller's
 * transaction (the attachment and its comment commit together), when a
 * connection that posts back-links lists its repository and the URL is on that
 * connection's host (a URL elsewhere would get the comment on a namesake).
 * Nothing says whether the repository is private, so it counts as public: a
 * private team's issue is named by identifier and URL only. The unique row per
 * pull request and issue keeps it to one comment, whichever way it was linked.
 */
export async function queueHandBacklink(
  db: Db,
  link: { host: GitHost; repo: string; apiRepo: string; number: number; url: string; issueId: string },
): Promise<boolean> {
  const connection = await q.connectionOfRepository(db, link.host, link.repo);
  if (!connection || !postsBacklinks(connection)) return false;
  if (new URL(link.url).host.toLowerCase() !== webHostOf(connection)) return false;
  const queued = await q.queueBacklinks(db, [
    {
      connectionId: connection.id,
      pullUrl: link.url,
      issueId: link.issueId,
      apiRepo: link.apiRepo,
      number: link.number,
      repoPrivate: false,
    },
  ]);
  return queued > 0;
}

/** The hidden line that names a comment's back-link row (rendered by none of the hosts). */
export const backlinkMarker = (backlinkId: string) => `<!-- trackway-backlink:${backlinkId} -->`;

/** Markdown's punctuation in a title, escaped so a title cannot become a link or markup. */
const escapeMarkdown = (s: string) => s.replace(/[\\`*_[\]<>]/g, (c) => `\\${c}`);

/** The comment's text; a private team's issue is named without its title, on a repository not known private. */
export function backlinkBody(
  publicUrl: string,
  issue: { identifier: string; title: string; private: boolean },
  repoPrivate: boolean,
): string {
  const showTitle = !issue.private || repoPrivate;
  const url = issueUrl(publicUrl, issue.identifier, showTitle ? issue.title : '');
  const label = showTitle ? `${issue.identifier} ${escapeMarkdown(issue.title)}` : issue.identifier;
  return `Linked to [${label}](${url}) in Trackway.`;
}

interface HostRequest {
  url: string;
  headers: Record<string, string>;
}

/** A connection's credential: a token, or a GitHub App's installation token (sent as `token …`). */
export type Credential = { kind: 'token' | 'installation'; value: string };

/** Each host's endpoint for a comment on a pull request, and how its credential is sent. */
export function commentRequest(
  host: GitHost,
  base: string,
  credential: Credential,
  repo: string,
  number: number,
): HostRequest {
  const token = credential.value;
  const ownerName = repo
    .split('/')
    .map((p) => encodeURIComponent(p))
    .join('/');
  const json = { 'content-type': 'application/json', 'user-agent': 'Trackway' };
  switch (host) {
    case 'github':
      return {
        url: `${base}/repos/${ownerName}/issues/${number}/comments`,
        headers: {
          ...json,
          accept: 'application/vnd.github+json',
          'x-github-api-version': '2022-11-28',
          authorization: credential.kind === 'installation' ? `token ${token}` : `Bearer ${token}`,
        },
      };
    case 'gitlab':
      // The project's numeric id, or its path URL-encoded as one segment.
      return {
        url: `${base}/projects/${encodeURIComponent(repo)}/merge_requests/${number}/notes`,
        headers: { ...json, 'private-token': token },
      };
    case 'gitea':
      return {
        url: `${base}/repos/${ownerName}/issues/${number}/comments`,
        headers: { ...json, accept: 'application/json', authorization: `token ${token}` },
      };
  }
}

export type BacklinkOutcome =
  | { status: 'posted'; commentId: string | null }
  | { status: 'failed'; error: string }
  | { status: 'retry'; error: string };

const transientStatus = (code: number | null) => code === null || code >= 500 || code === 429 || code === 408;

/** Clocks differ: a retry reads comments from a little before the row was queued. */
const CLOCK_SKEW_MS = 10 * 60_000;

/** The list of a pull request's comments that a retry searches for its marker: newest, or since the row was queued. */
function listUrl(host: GitHost, commentsUrl: string, queuedAt: Date): string {
  const since = new Date(queuedAt.getTime() - CLOCK_SKEW_MS).toISOString();
  return host === 'gitlab'
    ? `${commentsUrl}?sort=desc&order_by=created_at&per_page=100`
    : `${commentsUrl}?since=${encodeURIComponent(since)}&per_page=100`;
}

/** On a retry: the comment this row already left, if the host took it, or what went wrong reading them. */
async function alreadyPosted(
  ctx: AppContext,
  host: GitHost,
  req: HostRequest,
  job: q.ClaimedBacklink,
): Promise<{ found: boolean; commentId: string | null } | BacklinkOutcome> {
  const { 'content-type': _, ...headers } = req.headers;
  const res = await getJson(listUrl(host, req.url, job.created_at), headers, {
    timeoutMs: TIMEOUT_MS,
    allowPrivate: ctx.config.webhookAllowPrivate,
    keepBytes: 256 * 1024,
  });
  const error = `listing comments: ${res.error ?? 'failed'}`;
  if (!res.ok)
    return transientStatus(res.statusCode) ? { status: 'retry', error } : { status: 'failed', error };
  let comments: unknown;
  try {
    comments = JSON.parse(res.responseBody ?? '');
  } catch {
    return { status: 'retry', error: 'listing comments: not JSON (or too long)' };
  }
  if (!Array.isArray(comments)) return { status: 'retry', error: 'listing comments: not a list' };
  const marker = backlinkMarker(job.id);
  const mine = comments.find(
    (c): c is { id: unknown; body: string } => typeof c?.body === 'string' && c.body.includes(marker),
  );
  return { found: mine !== undefined, commentId: mine?.id == null ? null : String(mine.id) };
}

async function credentialOf(
  ctx: AppContext,
  connection: GitConnectionRow,
  repo: string,
): Promise<Credential | BacklinkOutcome> {
  const key = ctx.deriveKey(SEALING_PURPOSE);
  if (usesGitHubApp(connection)) {
    try {
      return {
        kind: 'installation',
        value: await installationToken(ctx, connection, apiBaseOf(connection)!, key, repo),
      };
    } catch (err) {
      if (!(err instanceof AppAuthError)) throw err;
      return { status: err.transient ? 'retry' : 'failed', error: err.message };
    }
  }
  const token = unseal(key, connection.api_token!);
  if (token === null) return { status: 'failed', error: 'the API token cannot be unsealed; set it again' };
  return { kind: 'token', value: token };
}

/** Posts one queued back-link. A host error worth retrying (5xx, 429, no answer) says "retry". */
export async function postBacklink(ctx: AppContext, job: q.ClaimedBacklink): Promise<BacklinkOutcome> {
  const connection = await q.findConnection(ctx.db, job.connection_id);
  if (!connection || !postsBacklinks(connection)) return { status: 'failed', error: 'back-links are off' };
  const issue = await q.backlinkIssue(ctx.db, job.issue_id);
  if (!issue) return { status: 'failed', error: 'issue gone' };
  const credential = await credentialOf(ctx, connection, job.api_repo);
  if ('status' in credential) return credential;
  const publicUrl = ctx.config.publicUrl.replace(/\/$/, '');
  const req = commentRequest(connection.host, apiBaseOf(connection)!, credential, job.api_repo, job.number);
  if (job.attempts > 1) {
    const earlier = await alreadyPosted(ctx, connection.host, req, job);
    if ('status' in earlier) return earlier;
    if (earlier.found) return { status: 'posted', commentId: earlier.commentId };
  }
  const text = `${backlinkBody(publicUrl, issue, job.repo_private)}\n\n${backlinkMarker(job.id)}`;
  const res = await postJson(req.url, JSON.stringify({ body: text }), req.headers, {
    timeoutMs: TIMEOUT_MS,
    allowPrivate: ctx.config.webhookAllowPrivate,
    resendOnStaleSocket: false,
  });
  if (res.ok) {
    const id = /"id"\s*:\s*(\d{1,20})/.exec(res.responseBody ?? '')?.[1] ?? null;
    return { status: 'posted', commentId: id };
  }
  const error = `${res.error ?? 'failed'}${res.responseBody ? `: ${res.responseBody.slice(0, 300)}` : ''}`;
  return transientStatus(res.statusCode) ? { status: 'retry', error } : { status: 'failed', error };
}

// Back-link comments: when a pull/merge request first links an issue, one
// comment on it names the issue, posted through the host's API with the
// connection's token. process.ts queues a row per pull request and issue in
// git_backlinks (unique: a replay or a later delivery queues nothing new);
// worker.ts claims due rows and runs postBacklink. Privacy: an issue of a
// private team is named by identifier and URL only (the URL without its
// title slug) unless the payload said the repository is private.
import type { AppContext } from '../../platform/context.js';
import type { GitConnectionRow, GitHost } from '../../platform/db/tables.js';
import { postJson } from '../../platform/net/outbound-post.js';
import { unseal } from '../../platform/sealed.js';
import { issueUrl } from '../issues/fields.js';
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

/** Whether a connection posts back-links: its switch is on, it has a token and an API root. */
export function postsBacklinks(c: GitConnectionRow): boolean {
  return c.backlinks && c.api_token !== null && apiBaseOf(c) !== null;
}

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

/** Each host's endpoint for a comment on a pull request, and how its token is sent. */
export function commentRequest(
  host: GitHost,
  base: string,
  token: string,
  repo: string,
  number: number,
): HostRequest {
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
          authorization: `Bearer ${token}`,
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

/** Posts one queued back-link. A host error worth retrying (5xx, 429, no answer) says "retry". */
export async function postBacklink(ctx: AppContext, job: q.ClaimedBacklink): Promise<BacklinkOutcome> {
  const connection = await q.findConnection(ctx.db, job.connection_id);
  if (!connection || !postsBacklinks(connection)) return { status: 'failed', error: 'back-links are off' };
  const token = unseal(ctx.deriveKey(SEALING_PURPOSE), connection.api_token!);
  if (token === null) return { status: 'failed', error: 'the API token cannot be unsealed; set it again' };
  const issue = await q.backlinkIssue(ctx.db, job.issue_id);
  if (!issue) return { status: 'failed', error: 'issue gone' };
  const publicUrl = ctx.config.publicUrl.replace(/\/$/, '');
  const req = commentRequest(connection.host, apiBaseOf(connection)!, token, job.api_repo, job.number);
  const body = JSON.stringify({ body: backlinkBody(publicUrl, issue, job.repo_private) });
  const res = await postJson(req.url, body, req.headers, {
    timeoutMs: TIMEOUT_MS,
    allowPrivate: ctx.config.webhookAllowPrivate,
  });
  if (res.ok) {
    const id = /"id"\s*:\s*(\d{1,20})/.exec(res.responseBody ?? '')?.[1] ?? null;
    return { status: 'posted', commentId: id };
  }
  const error = `${res.error ?? 'failed'}${res.responseBody ? `: ${res.responseBody.slice(0, 300)}` : ''}`;
  const code = res.statusCode;
  const transient = code === null || code >= 500 || code === 429 || code === 408;
  return transient ? { status: 'retry', error } : { status: 'failed', error };
}

// A pull/merge request as an issue's attachment: the one shape (source type =
// the host, metadata as docs/git.md lists) that both the webhook path
// (process.ts) and GraphQL's attachmentLinkGitHubPR / attachmentLinkGitLabMR
// write, and the parsing of what those mutations are given. A pull request
// linked by hand queues its back-link comment as a webhook's does.
import type { Actor, AppContext } from '../../platform/context.js';
import type { AttachmentRow, GitHost } from '../../platform/db/tables.js';
import { invalidField } from '../../platform/errors.js';
import { type AttachmentInput, createAttachment } from '../attachments/service.js';
import { queueHandBacklink } from './backlinks.js';
import type { PullChecks } from './checks.js';
import type { PullStatus } from './events.js';
import type { LinkKind } from './words.js';

export interface PullRequestLink {
  host: GitHost;
  /** Lower-cased owner/name (GitLab: group/project). */
  repo: string;
  number: number;
  title: string;
  author: string | null;
  status: PullStatus;
  url: string;
  branch: string;
  targetBranch: string;
  link: LinkKind;
  /** The head commit, when known; its checks are kept while it stays the head (checks.ts). */
  headSha?: string;
  checks?: PullChecks | null;
}

/** The attachment a pull request makes on an issue. */
export function pullRequestAttachment(issueId: string, pr: PullRequestLink): AttachmentInput {
  return {
    issueId,
    title: pr.title.trim() || `#${pr.number}`,
    subtitle: `${pr.repo}#${pr.number}`,
    url: pr.url,
    sourceType: pr.host,
    metadata: {
      host: pr.host,
      repo: pr.repo,
      number: pr.number,
      title: pr.title,
      author: pr.author,
      status: pr.status,
      url: pr.url,
      branch: pr.branch,
      targetBranch: pr.targetBranch,
      link: pr.link,
      ...(pr.headSha ? { headSha: pr.headSha } : {}),
      ...(pr.checks ? { checks: pr.checks } : {}),
    },
  };
}

const MAX_NUMBER = 2 ** 31 - 1;
const REPO_PATH = /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)+$/;

function httpUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalidField('url', 'must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalidField('url', 'must be an absolute http or https URL');
  }
  return url;
}

/** GitLinkKind of the third-party schema: only "closes" drives the issue, the others only link. */
const linkOf = (kind: string | null | undefined): LinkKind => (kind === 'closes' ? 'closes' : 'ref');

/**
 * A GitHub pull request's URL (github.com or an Enterprise host):
 * https://host/owner/repo/pull/123, nothing after the number but a tab of it.
 */
export function parseGitHubPullUrl(raw: string): {
  repo: string;
  /** owner/name as the URL spells it, for the host's API. */
  apiRepo: string;
  number: number;
  url: string;
} {
  const url = httpUrl(raw);
  const m = /^\/([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)\/pull\/(\d{1,10})(?:\/[a-z-]*)?\/?$/.exec(url.pathname);
  const number = m ? Number(m[3]) : 0;
  if (!m || number < 1 || number > MAX_NUMBER) {
    throw invalidField('url', 'must be a pull request URL: https://github.com/owner/repo/pull/123');
  }
  return {
    repo: `${m[1]}/${m[2]}`.toLowerCase(),
    apiRepo: `${m[1]}/${m[2]}`,
    number,
    url: `${url.origin}/${m[1]}/${m[2]}/pull/${number}`,
  };
}

/** Writes a hand-made link and queues its back-link in one transaction. */
function linkByHand(
  ctx: AppContext,
  actor: Actor,
  pr: PullRequestLink,
  issueId: string,
  apiRepo: string,
): Promise<AttachmentRow> {
  return ctx.db.transaction().execute(async (trx) => {
    const row = await createAttachment(ctx, actor, pullRequestAttachment(issueId, pr), trx);
    await queueHandBacklink(trx, {
      host: pr.host,
      repo: pr.repo,
      apiRepo,
      number: pr.number,
      url: pr.url,
      issueId: row.issue_id,
    });
    return row;
  });
}

export interface LinkGitHubInput {
  issueId: string;
  url: string;
  title?: string | null | undefined;
  linkKind?: string | null | undefined;
}

export interface LinkGitLabInput {
  issueId: string;
  url: string;
  projectPathWithNamespace: string;
  number: number;
  title?: string | null | undefined;
}

/**
 * Links a pull request by hand (GraphQL attachmentLinkGitHubPR). Its status
 * reads "open" until the host's next delivery about it brings the real one.
 * A connected repository with back-links on gets the back-link comment.
 */
export function linkGitHubPullRequest(
  ctx: AppContext,
  actor: Actor,
  input: LinkGitHubInput,
): Promise<AttachmentRow> {
  const pr = parseGitHubPullUrl(input.url);
  return linkByHand(
    ctx,
    actor,
    {
      host: 'github',
      repo: pr.repo,
      number: pr.number,
      title: input.title ?? '',
      author: null,
      status: 'open',
      url: pr.url,
      branch: '',
      targetBranch: '',
      link: linkOf(input.linkKind),
    },
    input.issueId,
    pr.apiRepo,
  );
}

/** Links a merge request by hand (GraphQL attachmentLinkGitLabMR). */
export function linkGitLabMergeRequest(
  ctx: AppContext,
  actor: Actor,
  input: LinkGitLabInput,
): Promise<AttachmentRow> {
  const url = httpUrl(input.url);
  const path = input.projectPathWithNamespace.trim();
  if (!REPO_PATH.test(path) || path.length > 300) {
    throw invalidField('projectPathWithNamespace', 'must be group/project (or group/subgroup/project)');
  }
  if (!Number.isSafeInteger(input.number) || input.number < 1 || input.number > MAX_NUMBER) {
    throw invalidField('number', 'must be a positive whole number');
  }
  return linkByHand(
    ctx,
    actor,
    {
      host: 'gitlab',
      repo: path.toLowerCase(),
      number: input.number,
      title: input.title ?? '',
      author: null,
      status: 'open',
      url: url.toString(),
      branch: '',
      targetBranch: '',
      link: 'closes',
    },
    input.issueId,
    path,
  );
}

/** A plain link (GraphQL attachmentLinkURL): titled by the caller, else by the URL's host and path. */
export function linkUrl(
  ctx: AppContext,
  actor: Actor,
  input: { issueId: string; url: string; title?: string | null | undefined },
): Promise<AttachmentRow> {
  const url = httpUrl(input.url);
  const fallback = `${url.host}${url.pathname === '/' ? '' : url.pathname}`.slice(0, 500);
  return createAttachment(ctx, actor, {
    issueId: input.issueId,
    title: input.title?.trim() ? input.title : fallback,
    url: input.url.trim(),
  });
}

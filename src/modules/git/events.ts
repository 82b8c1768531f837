// Each host's webhook payload read into one shape: which repository, which
// pull/merge request (its texts, branches, author, status) and which step of
// the automation it is, if any. Payloads come from outside: every field is
// read defensively, and anything unexpected reads as "nothing to do".
import type { GitAutomationEvent, GitHost } from '../../platform/db/tables.js';
import type { ChecksState } from './fields.js';

export type PullStatus = 'draft' | 'open' | 'inReview' | 'approved' | 'merged' | 'closed';

export interface PullRequestChange {
  kind: 'pullRequest';
  repo: string;
  number: number;
  title: string;
  body: string | null;
  sourceBranch: string;
  targetBranch: string;
  author: string | null;
  url: string;
  status: PullStatus;
  /** The automation step this delivery is, or null (an edit: relink only). */
  step: GitAutomationEvent | null;
  commitMessages: string[];
  /** Where the host's API finds the repository: owner/name as the host spells it (GitLab: the project id). */
  apiRepo: string;
  /** True only when the payload says so (GitHub/Gitea `repository.private`, GitLab visibility level 0). */
  repoPrivate: boolean;
  /** The head commit, which checks report on (empty when the payload does not say). */
  headSha: string;
}

/** A check, status or pipeline's state on a commit: what the pull request with that head shows. */
export interface ChecksChange {
  kind: 'checks';
  repo: string;
  sha: string;
  /** Which check this is (one state per key; the pull request's state is of all its keys). */
  key: string;
  state: ChecksState;
}

export interface PushChange {
  kind: 'push';
  repo: string;
  branch: string | null;
  commits: { id: string; message: string; url: string; author: string | null }[];
}

export type GitChange = PullRequestChange | PushChange | ChecksChange | { kind: 'ignored'; reason: string };

type Json = Record<string, unknown>;
const obj = (v: unknown): Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) ? v : null);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const MAX_COMMITS = 100;

/** The repository a payload is about, lower-cased owner/name, or null. */
export function repositoryOf(host: GitHost, payload: unknown): string | null {
  const p = obj(payload);
  const name =
    host === 'gitlab'
      ? str(obj(p['project'])['path_with_namespace'])
      : str(obj(p['repository'])['full_name']);
  return name ? name.toLowerCase() : null;
}

function branchOf(ref: string | null): string | null {
  return ref?.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null;
}

function pushOf(p: Json, repo: string): GitChange {
  const commits = arr(p['commits'])
    .slice(0, MAX_COMMITS)
    .map((c) => {
      const o = obj(c);
      const author = obj(o['author']);
      return {
        id: str(o['id']) ?? '',
        message: str(o['message']) ?? '',
        url: str(o['url']) ?? '',
        author: str(author['username']) ?? str(author['name']),
      };
    })
    .filter((c) => c.id && c.url);
  return { kind: 'push', repo, branch: branchOf(str(p['ref'])), commits };
}

/**
 * The pull request of a GitHub or Gitea payload (Gitea's mirror GitHub's
 * shape): its fields, and its final status once merged or closed.
 */
function githubLike(p: Json, repo: string, status: PullStatus, step: GitAutomationEvent | null): GitChange {
  const pr = obj(p['pull_request']);
  const repository = obj(p['repository']);
  const user = obj(pr['user']);
  if (pr['merged'] === true) status = 'merged';
  else if (str(pr['state']) === 'closed') status = 'closed';
  return pull(repo, {
    number: num(pr['number']) ?? num(p['number']),
    title: str(pr['title']),
    body: str(pr['body']),
    sourceBranch: str(obj(pr['head'])['ref']),
    targetBranch: str(obj(pr['base'])['ref']),
    author: str(user['login']) ?? str(user['username']),
    url: str(pr['html_url']),
    status,
    step,
    commitMessages: [],
    apiRepo: str(repository['full_name']) ?? repo,
    repoPrivate: repository['private'] === true,
    headSha: str(obj(pr['head'])['sha']),
  });
}

// Each host's words for a check's outcome, as pending, success or failure.
const GITHUB_CONCLUSIONS: Record<string, ChecksState> = {
  success: 'success',
  neutral: 'success',
  skipped: 'success',
  failure: 'failure',
  timed_out: 'failure',
  cancelled: 'failure',
  action_required: 'failure',
  startup_failure: 'failure',
};
/** GitHub's and Gitea's commit status states. */
const STATUS_STATES: Record<string, ChecksState> = {
  pending: 'pending',
  success: 'success',
  warning: 'success',
  failure: 'failure',
  error: 'failure',
};
const GITLAB_PIPELINE: Record<string, ChecksState> = {
  success: 'success',
  skipped: 'success',
  failed: 'failure',
  canceled: 'failure',
};
const MAX_KEY = 200;

function checks(repo: string, sha: string | null, key: string, state: ChecksState | undefined): GitChange {
  if (!sha || !/^[0-9a-f]{7,64}$/i.test(sha) || !state)
    return { kind: 'ignored', reason: 'no commit or state' };
  return { kind: 'checks', repo, sha: sha.toLowerCase(), key: key.slice(0, MAX_KEY), state };
}

/** GitHub's check_suite and check_run: pending until completed, then by conclusion. */
function githubCheck(event: 'check_suite' | 'check_run', p: Json, repo: string): GitChange {
  const c = obj(p[event]);
  const app = obj(c['app']);
  const appName = str(app['slug']) ?? String(num(app['id']) ?? 'app');
  const key = event === 'check_suite' ? `suite:${appName}` : `run:${appName}/${str(c['name']) ?? ''}`;
  const done = str(c['status']) === 'completed';
  const state = done ? (GITHUB_CONCLUSIONS[str(c['conclusion']) ?? ''] ?? 'pending') : 'pending';
  return checks(repo, str(c['head_sha']), key, state);
}

/** A commit status (GitHub's `status`, Gitea's `status`): one state per context. */
const commitStatus = (p: Json, repo: string): GitChange =>
  checks(
    repo,
    str(p['sha']),
    `status:${str(p['context']) ?? 'default'}`,
    STATUS_STATES[str(p['state']) ?? ''],
  );

function github(event: string, p: Json, repo: string): GitChange {
  if (event === 'push') return pushOf(p, repo);
  if (event === 'check_suite' || event === 'check_run') return githubCheck(event, p, repo);
  if (event === 'status') return commitStatus(p, repo);
  if (event !== 'pull_request' && event !== 'pull_request_review') return { kind: 'ignored', reason: event };
  const pr = obj(p['pull_request']);
  const action = str(p['action']) ?? '';
  const draft = pr['draft'] === true;
  const reviewers = arr(pr['requested_reviewers']).length + arr(pr['requested_teams']).length;
  let status: PullStatus = draft ? 'draft' : reviewers > 0 ? 'inReview' : 'open';
  let step: GitAutomationEvent | null = null;
  if (event === 'pull_request_review') {
    const state = (str(obj(p['review'])['state']) ?? '').toLowerCase();
    if (action === 'submitted' && state === 'approved') {
      status = 'approved';
      step = 'mergeable';
    }
  } else if (action === 'opened' || action === 'reopened' || action === 'ready_for_review') {
    step = draft ? 'draft' : 'start';
  } else if (action === 'converted_to_draft') {
    status = 'draft';
    step = 'draft';
  } else if (action === 'review_requested') {
    status = draft ? 'draft' : 'inReview';
    step = draft ? null : 'review';
  } else if (action === 'closed') {
    const merged = pr['merged'] === true;
    status = merged ? 'merged' : 'closed';
    step = merged ? 'merge' : null;
  }
  return githubLike(p, repo, status, step);
}

function gitlab(event: string, p: Json, repo: string): GitChange {
  const kind = str(p['object_kind']);
  if (kind === 'push' || event === 'Push Hook') return pushOf(p, repo);
  if (kind === 'pipeline') {
    // One state per pipeline source (a merge request's pipeline and the branch's are two); the latest wins.
    const a = obj(p['object_attributes']);
    const status = str(a['status']) ?? '';
    return checks(
      repo,
      str(a['sha']),
      `pipeline:${str(a['source']) ?? ''}`,
      GITLAB_PIPELINE[status] ?? (status ? 'pending' : undefined),
    );
  }
  if (kind !== 'merge_request') return { kind: 'ignored', reason: kind ?? event };
  const mr = obj(p['object_attributes']);
  const project = obj(p['project']);
  const action = str(mr['action']) ?? '';
  const changes = obj(p['changes']);
  const draft = mr['draft'] === true || mr['work_in_progress'] === true;
  const reviewers = arr(p['reviewers']).length;
  const state = str(mr['state']);
  let status: PullStatus = draft ? 'draft' : reviewers > 0 ? 'inReview' : 'open';
  let step: GitAutomationEvent | null = null;
  if (action === 'open' || action === 'reopen') step = draft ? 'draft' : 'start';
  else if (action === 'update') {
    if ('draft' in changes) step = draft ? 'draft' : 'start';
    else if ('reviewers' in changes && reviewers > 0 && !draft) step = 'review';
  } else if (action === 'approved' || action === 'approval') {
    status = 'approved';
    step = 'mergeable';
  } else if (action === 'merge') step = 'merge';
  if (state === 'merged') status = 'merged';
  else if (state === 'closed') status = 'closed';
  const lastCommit = str(obj(mr['last_commit'])['message']);
  return pull(repo, {
    number: num(mr['iid']),
    title: str(mr['title']),
    body: str(mr['description']),
    sourceBranch: str(mr['source_branch']),
    targetBranch: str(mr['target_branch']),
    author: str(obj(p['user'])['username']),
    url: str(mr['url']),
    status,
    step,
    commitMessages: lastCommit ? [lastCommit] : [],
    apiRepo: String(num(project['id']) ?? repo),
    repoPrivate: project['visibility_level'] === 0 || project['visibility'] === 'private',
    headSha: str(obj(mr['last_commit'])['id']),
  });
}

function gitea(event: string, p: Json, repo: string): GitChange {
  if (event === 'push') return pushOf(p, repo);
  if (event === 'status') return commitStatus(p, repo);
  if (!event.startsWith('pull_request')) return { kind: 'ignored', reason: event };
  const pr = obj(p['pull_request']);
  const action = str(p['action']) ?? '';
  const draft = pr['draft'] === true;
  const reviewers = arr(pr['requested_reviewers']).length;
  let status: PullStatus = draft ? 'draft' : reviewers > 0 ? 'inReview' : 'open';
  let step: GitAutomationEvent | null = null;
  if (event === 'pull_request_approved' || event === 'pull_request_review_approved') {
    status = 'approved';
    step = 'mergeable';
  } else if (event === 'pull_request_review_request' && action === 'review_requested') {
    status = draft ? 'draft' : 'inReview';
    step = draft ? null : 'review';
  } else if (event === 'pull_request') {
    if (action === 'opened' || action === 'reopened') step = draft ? 'draft' : 'start';
    else if (action === 'closed' && pr['merged'] === true) step = 'merge';
  }
  return githubLike(p, repo, status, step);
}

type Loose = { [K in keyof Omit<PullRequestChange, 'kind' | 'repo'>]: PullRequestChange[K] | null };

function pull(repo: string, f: Loose): GitChange {
  if (f.number === null || !f.url || !/^https?:\/\//i.test(f.url)) {
    return { kind: 'ignored', reason: 'no pull request number or url' };
  }
  return {
    kind: 'pullRequest',
    repo,
    number: f.number,
    title: f.title ?? '',
    body: f.body,
    sourceBranch: f.sourceBranch ?? '',
    targetBranch: f.targetBranch ?? '',
    author: f.author,
    url: f.url,
    status: f.status ?? 'open',
    step: f.step,
    commitMessages: f.commitMessages ?? [],
    apiRepo: f.apiRepo ?? repo,
    repoPrivate: f.repoPrivate === true,
    headSha: f.headSha?.toLowerCase() ?? '',
  };
}

/** What one delivery asks for; `event` is the host's event header. */
export function readChange(host: GitHost, event: string, payload: unknown): GitChange {
  const p = obj(payload);
  const repo = repositoryOf(host, p);
  if (!repo) return { kind: 'ignored', reason: 'no repository' };
  if (host === 'github') return github(event, p, repo);
  if (host === 'gitlab') return gitlab(event, p, repo);
  return gitea(event, p, repo);
}

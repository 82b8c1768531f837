// What a queued delivery does (run by worker.ts, at least once): a pull
// request's named issues are linked as attachments (source type = the host,
// metadata as docs/git.md lists), links it no longer names are removed (an
// edited description or renamed branch relinks), and on an automation step
// each issue it closes moves through the issues service, recorded with the
// attachment as its cause. A push links the issues its commits name. Every
// write is idempotent (attachments are keyed by issue and url; a move to the
// state an issue is in does nothing), so running a delivery twice is safe.
import type { Actor, AppContext } from '../../platform/context.js';
import type { GitConnectionRow, StateRow, StateType } from '../../platform/db/tables.js';
import { unseal } from '../../platform/sealed.js';
import { createAttachment, deleteAttachment } from '../attachments/service.js';
import { moveIssueToState } from '../issues/service.js';
import { postsBacklinks } from './backlinks.js';
import { keptChecks, recordCheck } from './checks.js';
import { type GitChange, type PullRequestChange, type PushChange, readChange } from './events.js';
import { pullRequestAttachment } from './links.js';
import * as q from './queries.js';
import { automationTarget } from './service.js';
import { findReferences, type LinkKind } from './words.js';

const RANK: Record<StateType, number> = {
  triage: 0,
  backlog: 0,
  unstarted: 1,
  started: 2,
  completed: 3,
  canceled: 3,
};

/**
 * Pull requests move issues forward only: a finished (completed or canceled)
 * issue stays, and nothing goes back to an earlier kind of state; between
 * started states (In Progress, In Review) it follows the pull request.
 */
export function movesForward(from: StateType, to: StateType): boolean {
  return RANK[from] < 3 && RANK[to] >= RANK[from];
}

const toActor = (u: { id: string; role: Actor['role']; name: string; email: string }): Actor => ({
  id: u.id,
  role: u.role,
  name: u.name,
  email: u.email,
  via: 'apiKey',
});

const firstLine = (text: string) => (text.split('\n', 1)[0] ?? '').trim().slice(0, 500) || 'Commit';

interface Linked {
  id: string;
  identifier: string;
  teamId: string;
  stateId: string;
  stateType: StateType;
  kind: LinkKind;
}

async function namedIssues(ctx: AppContext, texts: readonly (string | null)[]): Promise<Linked[]> {
  const refs = findReferences(texts);
  const rows = await q.issuesByIdentifier(ctx.db, [...refs.keys()]);
  const byIssue = new Map<string, Linked>();
  for (const r of rows) {
    const kind = refs.get(r.identifier)!;
    const had = byIssue.get(r.id);
    if (had && (had.kind === 'closes' || kind === 'ref')) continue;
    byIssue.set(r.id, {
      id: r.id,
      identifier: r.identifier,
      teamId: r.team_id,
      stateId: r.state_id,
      stateType: r.state_type as StateType,
      kind,
    });
  }
  return [...byIssue.values()];
}

async function pullRequest(
  ctx: AppContext,
  actor: Actor,
  connection: GitConnectionRow,
  pr: PullRequestChange,
): Promise<string> {
  const issues = await namedIssues(ctx, [pr.sourceBranch, pr.title, pr.body, ...pr.commitMessages]);
  const linked = new Set(issues.map((i) => i.id));
  const existing = await q.attachmentsAt(ctx.db, connection.host, pr.url);
  // Relink: what the pull request no longer names loses its link.
  for (const a of existing) {
    if (!linked.has(a.issue_id)) await deleteAttachment(ctx, actor, a.id);
  }
  const metadataOf = new Map(existing.map((a) => [a.issue_id, a.metadata as Record<string, unknown>]));
  const notes: string[] = [];
  // Queued before the moves: a failing move retries the delivery, and the queue keeps one per issue anyway.
  let queued = 0;
  if (postsBacklinks(connection)) {
    queued = await q.queueBacklinks(
      ctx.db,
      issues.map((i) => ({
        connectionId: connection.id,
        pullUrl: pr.url,
        issueId: i.id,
        apiRepo: pr.apiRepo,
        number: pr.number,
        repoPrivate: pr.repoPrivate,
      })),
    );
  }
  for (const issue of issues) {
    const attachment = await createAttachment(
      ctx,
      actor,
      pullRequestAttachment(issue.id, {
        host: connection.host,
        repo: pr.repo,
        number: pr.number,
        title: pr.title,
        author: pr.author,
        status: pr.status,
        url: pr.url,
        branch: pr.sourceBranch,
        targetBranch: pr.targetBranch,
        link: issue.kind,
        headSha: pr.headSha,
        checks: keptChecks(metadataOf.get(issue.id), pr.headSha),
      }),
    );
    notes.push(`linked ${issue.identifier}${issue.kind === 'ref' ? ' (ref)' : ''}`);
    if (!pr.step || issue.kind !== 'closes') continue;
    const to: StateRow | null = await automationTarget(ctx, issue.teamId, pr.step, pr.targetBranch);
    if (!to || to.id === issue.stateId || !movesForward(issue.stateType, to.type)) continue;
    const moved = await ctx.db
      .transaction()
      .execute((trx) =>
        moveIssueToState(trx, ctx, actor, issue.id, to, { notify: true, causeAttachmentId: attachment.id }),
      );
    if (moved) notes.push(`moved ${issue.identifier} to ${to.name}`);
  }
  if (queued > 0) notes.push(`${queued} back-link${queued === 1 ? '' : 's'} queued`);
  return notes.length > 0 ? notes.join('; ') : 'no issue named';
}

async function push(ctx: AppContext, actor: Actor, connection: GitConnectionRow, p: PushChange) {
  const notes: string[] = [];
  for (const commit of p.commits) {
    for (const issue of await namedIssues(ctx, [commit.message])) {
      await createAttachment(ctx, actor, {
        issueId: issue.id,
        title: firstLine(commit.message),
        subtitle: `${p.repo}@${commit.id.slice(0, 7)}`,
        url: commit.url,
        sourceType: connection.host,
        metadata: {
          host: connection.host,
          kind: 'commit',
          repo: p.repo,
          sha: commit.id,
          branch: p.branch,
          author: commit.author,
          url: commit.url,
        },
      });
      notes.push(`linked ${issue.identifier} to ${commit.id.slice(0, 7)}`);
    }
  }
  return notes.length > 0 ? notes.join('; ') : 'no issue named';
}

/** Runs one delivery; returns what it did, for the delivery log. */
export async function processDelivery(ctx: AppContext, job: q.ClaimedDelivery): Promise<string> {
  const connection = await q.findConnection(ctx.db, job.connection_id);
  if (!connection) return 'connection removed';
  const change: GitChange = readChange(job.host, job.event, job.payload);
  if (change.kind === 'ignored') return `ignored: ${change.reason}`.slice(0, 500);
  if (!(await q.findRepository(ctx.db, connection.id, change.repo)))
    return 'ignored: repository not connected';
  const user = await q.automationUser(ctx.db, connection.created_by);
  if (!user) throw new Error('no admin to act as');
  const actor = toActor(user);
  if (change.kind === 'checks') return recordCheck(ctx, actor, connection.host, change);
  return change.kind === 'push'
    ? push(ctx, actor, connection, change)
    : pullRequest(ctx, actor, connection, change);
}

/** The connection's webhook secret, or null when the workspace secret changed since it was sealed. */
export function webhookSecretOf(key: Buffer, c: GitConnectionRow): string | null {
  return unseal(key, c.webhook_secret);
}

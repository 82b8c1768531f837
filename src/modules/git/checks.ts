// Checks on a pull request's head commit (GitHub check suites, check runs and
// commit statuses, GitLab pipelines, Gitea commit statuses): each delivery
// says one check's state on one commit; the pull request attachments whose
// head is that commit keep every check's state and show them as one:
// failure if any failed, else pending if any is still running, else success.
import type { Actor, AppContext } from '../../platform/context.js';
import { updateAttachment } from '../attachments/service.js';
import type { ChecksChange } from './events.js';
import type { ChecksState } from './fields.js';
import * as q from './queries.js';

/** `metadata.checks` of a pull request attachment. */
export interface PullChecks {
  /** The commit the states are about: a new head starts over. */
  sha: string;
  state: ChecksState;
  /** Each check's own state, by the key events.ts gives it. */
  each: Record<string, ChecksState>;
}

/** A pull request's checks are bounded: a matrix of a few hundred jobs still fits. */
const MAX_CHECKS = 300;

export function combinedState(each: Record<string, ChecksState>): ChecksState {
  const states = Object.values(each);
  if (states.includes('failure')) return 'failure';
  if (states.includes('pending')) return 'pending';
  return 'success';
}

/** The checks as they are once `change` is counted in. */
export function withCheck(had: unknown, change: ChecksChange): PullChecks {
  const before = had as Partial<PullChecks> | null | undefined;
  const each: Record<string, ChecksState> =
    before?.sha === change.sha && before.each && typeof before.each === 'object' ? { ...before.each } : {};
  if (change.key in each || Object.keys(each).length < MAX_CHECKS) each[change.key] = change.state;
  return { sha: change.sha, state: combinedState(each), each };
}

/** The checks a rewrite of the pull request keeps: those of its head, if the head is unchanged. */
export function keptChecks(
  metadata: Record<string, unknown> | undefined,
  headSha: string,
): PullChecks | null {
  const checks = metadata?.['checks'] as PullChecks | undefined;
  return headSha && checks?.sha === headSha ? checks : null;
}

/**
 * Records one check on every pull request whose head is the commit, through
 * the attachments service (an attachment.update event: the issue page's
 * panel and the lists' marker follow it live).
 */
export async function recordCheck(ctx: AppContext, actor: Actor, host: string, change: ChecksChange) {
  const pulls = await q.pullsAtHead(ctx.db, host, change.repo, change.sha);
  for (const a of pulls) {
    const checks = withCheck(a.metadata['checks'], change);
    await updateAttachment(ctx, actor, a.id, { metadata: { ...a.metadata, checks } });
  }
  return pulls.length > 0
    ? `checks ${change.state} on ${change.sha.slice(0, 7)} (${pulls.length} link${pulls.length === 1 ? '' : 's'})`
    : `ignored: no pull request with head ${change.sha.slice(0, 7)}`;
}

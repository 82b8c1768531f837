// Who may change issues: members and admins. Guests read everything (and may
// comment, see comments/policy.ts). Projects and cycles can be switched off.
import type { Actor } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { assertRole, type RequiredRole } from '../../platform/roles.js';
import { assertFeature } from '../flags/service.js';

/** Who changes issues; their REST routes declare it, so guests are refused before the body is read. */
export const EDIT_ISSUES: RequiredRole = 'member';

export function assertCanEditIssues(actor: Actor): void {
  assertRole(actor, EDIT_ISSUES, 'Guests can read issues and comment, but not change issues');
}

/** Setting (not clearing) a project, milestone or cycle needs its feature on. */
export async function assertCanLink(
  db: Db,
  input: { projectId?: string | null; projectMilestoneId?: string | null; cycleId?: string | null },
): Promise<void> {
  const setsProject = (input.projectId ?? null) !== null || (input.projectMilestoneId ?? null) !== null;
  if (setsProject) await assertFeature(db, 'projects', 'Projects');
  if (input.cycleId !== undefined && input.cycleId !== null) await assertFeature(db, 'cycles', 'Cycles');
}

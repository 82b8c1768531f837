// Who may change issues: members and admins. Guests read everything (and may
// comment, see comments/policy.ts). Projects and cycles can be switched off.
import type { Actor } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { forbidden } from '../../platform/errors.js';
import { assertFeature } from '../flags/service.js';

export function assertCanEditIssues(actor: Actor): void {
  if (actor.role === 'guest') throw forbidden('Guests can read issues and comment, but not change issues');
}

/** Setting (not clearing) a project or cycle needs its feature on. */
export async function assertCanLink(
  db: Db,
  input: { projectId?: string | null; cycleId?: string | null },
): Promise<void> {
  if (input.projectId !== undefined && input.projectId !== null)
    await assertFeature(db, 'projects', 'Projects');
  if (input.cycleId !== undefined && input.cycleId !== null) await assertFeature(db, 'cycles', 'Cycles');
}

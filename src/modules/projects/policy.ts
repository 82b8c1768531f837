// Who may do what with projects: anyone signed in reads, guests never write,
// and nothing works while the 'projects' feature is switched off.
import type { Actor } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { assertRole, type RequiredRole } from '../../platform/roles.js';
import { assertFeature } from '../flags/service.js';

export async function assertCanReadProjects(db: Db): Promise<void> {
  await assertFeature(db, 'projects', 'projects');
}

/** Who changes projects; the REST routes declare it, so guests are refused before the body is read. */
export const WRITE_PROJECTS: RequiredRole = 'member';

/** The role before the flag, as on REST: a guest is refused whether or not the feature is on. */
export async function assertCanWriteProjects(db: Db, actor: Actor): Promise<void> {
  assertRole(actor, WRITE_PROJECTS, 'Guests cannot change projects');
  await assertFeature(db, 'projects', 'projects');
}

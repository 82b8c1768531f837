// Who may do what with attachments: anyone signed in reads, guests never
// write, and nothing works while the 'attachments' feature is switched off.
import type { Actor } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { assertRole, type RequiredRole } from '../../platform/roles.js';
import { assertFeature } from '../flags/service.js';

export async function assertCanReadAttachments(db: Db): Promise<void> {
  await assertFeature(db, 'attachments', 'attachments');
}

/** Who changes attachments; the REST routes declare it, so guests are refused before the body is read. */
export const WRITE_ATTACHMENTS: RequiredRole = 'member';

/** The role before the flag, as on REST: a guest is refused whether or not the feature is on. */
export async function assertCanWriteAttachments(db: Db, actor: Actor): Promise<void> {
  assertRole(actor, WRITE_ATTACHMENTS, 'Guests cannot change attachments');
  await assertFeature(db, 'attachments', 'attachments');
}

// Who may upload and read files: everything needs the 'attachments' feature;
// guests may download but never upload.
import type { Actor } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { assertRole, type RequiredRole } from '../../platform/roles.js';
import { assertFeature } from '../flags/service.js';

export async function assertCanReadFiles(db: Db): Promise<void> {
  await assertFeature(db, 'attachments', 'attachments');
}

/** Who uploads files; the REST routes declare it, so guests are refused before the body is read. */
export const UPLOAD_FILES: RequiredRole = 'member';

/** The role before the flag, as on REST: a guest is refused whether or not the feature is on. */
export async function assertCanUpload(db: Db, actor: Actor): Promise<void> {
  assertRole(actor, UPLOAD_FILES, 'Guests cannot upload files');
  await assertFeature(db, 'attachments', 'attachments');
}

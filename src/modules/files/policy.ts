// Who may upload and read files: everything needs the 'attachments' feature;
// guests may download but never upload.
import type { Actor } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { forbidden } from '../../platform/errors.js';
import { assertFeature } from '../flags/service.js';

export async function assertCanReadFiles(db: Db): Promise<void> {
  await assertFeature(db, 'attachments', 'attachments');
}

export async function assertCanUpload(db: Db, actor: Actor): Promise<void> {
  await assertFeature(db, 'attachments', 'attachments');
  if (actor.role === 'guest') throw forbidden('Guests cannot upload files');
}

// Who may do what with attachments: anyone signed in reads, guests never
// write, and nothing works while the 'attachments' feature is switched off.
import type { Actor } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { forbidden } from '../../platform/errors.js';
import { assertFeature } from '../flags/service.js';

export async function assertCanReadAttachments(db: Db): Promise<void> {
  await assertFeature(db, 'attachments', 'attachments');
}

export async function assertCanWriteAttachments(db: Db, actor: Actor): Promise<void> {
  await assertFeature(db, 'attachments', 'attachments');
  if (actor.role === 'guest') throw forbidden('Guests cannot change attachments');
}

// Who may do what with projects: anyone signed in reads, guests never write,
// and nothing works while the 'projects' feature is switched off.
import type { Actor } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { forbidden } from '../../platform/errors.js';
import { assertFeature } from '../flags/service.js';

export async function assertCanReadProjects(db: Db): Promise<void> {
  await assertFeature(db, 'projects', 'projects');
}

export async function assertCanWriteProjects(db: Db, actor: Actor): Promise<void> {
  await assertFeature(db, 'projects', 'projects');
  if (actor.role === 'guest') throw forbidden('Guests cannot change projects');
}

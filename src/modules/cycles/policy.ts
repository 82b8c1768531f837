// Who may do what with cycles: anyone signed in reads, guests never write,
// and nothing works while the 'cycles' feature is switched off.
import type { Actor } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { forbidden } from '../../platform/errors.js';
import { assertFeature } from '../flags/service.js';

export async function assertCanReadCycles(db: Db): Promise<void> {
  await assertFeature(db, 'cycles', 'cycles');
}

export async function assertCanWriteCycles(db: Db, actor: Actor): Promise<void> {
  await assertFeature(db, 'cycles', 'cycles');
  if (actor.role === 'guest') throw forbidden('Guests cannot change cycles');
}

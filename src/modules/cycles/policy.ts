// Who may do what with cycles: anyone signed in reads, guests never write,
// and nothing works while the 'cycles' feature is switched off.
import type { Actor } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { assertRole, type RequiredRole } from '../../platform/roles.js';
import { assertFeature } from '../flags/service.js';

export async function assertCanReadCycles(db: Db): Promise<void> {
  await assertFeature(db, 'cycles', 'cycles');
}

/** Who changes cycles; the REST routes declare it, so guests are refused before the body is read. */
export const WRITE_CYCLES: RequiredRole = 'member';

/** The role before the flag, as on REST: a guest is refused whether or not the feature is on. */
export async function assertCanWriteCycles(db: Db, actor: Actor): Promise<void> {
  assertRole(actor, WRITE_CYCLES, 'Guests cannot change cycles');
  await assertFeature(db, 'cycles', 'cycles');
}

// Team memberships: the one rule on who joins teams without being added.
// Members and admins join every public team when their account is created and
// every new public team; guests join no team until an admin adds them, since a
// team's members see its work. The statements are in queries.ts.
import type { Db } from '../../platform/db/database.js';
import type { Role } from '../../platform/db/tables.js';
import { addToOpenTeams } from './queries.js';

/** Whether an account of this role joins teams without being added. */
export const joinsAutomatically = (role: Role) => role !== 'guest';

/** A new account joins every live public team (a guest joins none). */
export async function joinOpenTeams(db: Db, user: { id: string; role: Role }): Promise<void> {
  if (joinsAutomatically(user.role)) await addToOpenTeams(db, user.id);
}

// SQL for single sign-on: the links between provider identities and accounts.
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { TeamRow, UserRow } from '../../platform/db/tables.js';

/**
 * The live account linked to this identity. A link to a deleted account is
 * dropped, so the person is matched or created afresh.
 */
export async function linkedUser(
  db: Db,
  issuer: string,
  subject: string,
): Promise<{ identityId: string; user: UserRow } | undefined> {
  const link = await db
    .selectFrom('user_identities')
    .select(['id', 'user_id'])
    .where('issuer', '=', issuer)
    .where('subject', '=', subject)
    .executeTakeFirst();
  if (!link) return undefined;
  const user = await db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', link.user_id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (user) return { identityId: link.id, user };
  await db.deleteFrom('user_identities').where('id', '=', link.id).execute();
  return undefined;
}

export async function insertIdentity(
  db: Db,
  i: { userId: string; issuer: string; subject: string; email: string },
): Promise<void> {
  await db
    .insertInto('user_identities')
    .values({ user_id: i.userId, issuer: i.issuer, subject: i.subject, email: i.email })
    .execute();
}

export async function touchIdentity(db: Db, id: string, email: string): Promise<void> {
  await db
    .updateTable('user_identities')
    .set({ email, last_sign_in_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

/** How many accounts are linked to a provider, for the admin page. */
export async function countLinked(db: Db): Promise<number> {
  const row = await db
    .selectFrom('user_identities')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The live teams with these keys (the group-to-team mapping names teams by key). */
export function liveTeamsByKey(db: Db, keys: readonly string[]): Promise<TeamRow[]> {
  if (keys.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('teams')
    .selectAll()
    .where('key', 'in', keys)
    .where('archived_at', 'is', null)
    .execute();
}

// Team memberships: their SQL, and the one rule on who joins teams without
// being added. Members and admins join every public team when their account is
// created and every new public team; guests join no team until an admin adds
// them, since a team's members see its work.
import { type Selectable, sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { Role, TeamMembershipsTable } from '../../platform/db/tables.js';
import { isUuid } from './ids.js';

export type MembershipRow = Selectable<TeamMembershipsTable>;

/** Whether an account of this role joins teams without being added. */
export const joinsAutomatically = (role: Role) => role !== 'guest';

/** A new account joins every live public team (a guest joins none). */
export async function joinOpenTeams(db: Db, user: { id: string; role: Role }): Promise<void> {
  if (!joinsAutomatically(user.role)) return;
  await db
    .insertInto('team_memberships')
    .columns(['team_id', 'user_id'])
    .expression((eb) =>
      eb
        .selectFrom('teams')
        .select((e) => ['id', e.val(user.id).as('user_id')])
        .where('private', '=', false)
        .where('archived_at', 'is', null),
    )
    .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
    .execute();
}

/** Every active account that joins automatically (not guests) joins a new public team. */
export async function addActiveUsers(db: Db, teamId: string): Promise<void> {
  await db
    .insertInto('team_memberships')
    .columns(['team_id', 'user_id'])
    .expression((eb) =>
      eb
        .selectFrom('users')
        .select((e) => [e.val(teamId).as('team_id'), 'id'])
        .where('deleted_at', 'is', null)
        .where('status', '=', 'active')
        .where('role', '<>', 'guest'),
    )
    .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
    .execute();
}

export function findMembership(db: Db, teamId: string, userId: string): Promise<MembershipRow | undefined> {
  if (!isUuid(userId)) return Promise.resolve(undefined);
  return db
    .selectFrom('team_memberships')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export function findMembershipById(db: Db, id: string): Promise<MembershipRow | undefined> {
  if (!isUuid(id)) return Promise.resolve(undefined);
  return db.selectFrom('team_memberships').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Adds the membership; undefined when the user already is a member. */
export function insertMembership(
  db: Db,
  m: { team_id: string; user_id: string; owner: boolean; sort_order: number },
): Promise<MembershipRow | undefined> {
  return db
    .insertInto('team_memberships')
    .values(m)
    .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export function updateMembership(
  db: Db,
  id: string,
  set: { owner?: boolean; sort_order?: number },
): Promise<MembershipRow> {
  return db
    .updateTable('team_memberships')
    .set({ ...set, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteMembership(db: Db, id: string): Promise<void> {
  await db.deleteFrom('team_memberships').where('id', '=', id).execute();
}

/** A team's memberships of live accounts, oldest first. */
export function listLiveMemberships(db: Db, teamId: string): Promise<MembershipRow[]> {
  return db
    .selectFrom('team_memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .selectAll('m')
    .where('m.team_id', '=', teamId)
    .where('m.archived_at', 'is', null)
    .where('u.deleted_at', 'is', null)
    .orderBy('m.created_at')
    .orderBy('m.id')
    .execute();
}

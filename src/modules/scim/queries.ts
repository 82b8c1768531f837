// SQL for SCIM provisioning: its tokens, and the users and teams it reads by
// externalId or filter. Every function takes the connection or transaction it runs in.
import { type Expression, type SqlBool, sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { ScimTokenRow, TeamRow, UserRow } from '../../platform/db/tables.js';

export function insertToken(
  db: Db,
  t: { label: string; hash: string; hint: string; createdBy: string },
): Promise<ScimTokenRow> {
  return db
    .insertInto('scim_tokens')
    .values({ label: t.label, token_hash: t.hash, token_hint: t.hint, created_by: t.createdBy })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Every token, revoked ones included (the admin page shows when they were revoked), newest first. */
export function listTokens(db: Db): Promise<ScimTokenRow[]> {
  return db.selectFrom('scim_tokens').selectAll().orderBy('created_at', 'desc').orderBy('id').execute();
}

/** Marks a live token revoked; undefined when there is no such live token. */
export function revokeToken(db: Db, id: string): Promise<ScimTokenRow | undefined> {
  return db
    .updateTable('scim_tokens')
    .set({ revoked_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

export function findLiveTokenByHash(db: Db, hash: string): Promise<ScimTokenRow | undefined> {
  return db
    .selectFrom('scim_tokens')
    .selectAll()
    .where('token_hash', '=', hash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

export async function touchToken(db: Db, id: string): Promise<void> {
  await db.updateTable('scim_tokens').set({ last_used_at: sql<Date>`now()` }).where('id', '=', id).execute();
}

// ---- Users

export function findUser(db: Db, id: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .where('status', '<>', 'app')
    .executeTakeFirst();
}

export function findUserByExternalId(db: Db, externalId: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('external_id', '=', externalId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export function setUserIdentity(
  db: Db,
  id: string,
  set: { external_id?: string | null; email?: string },
): Promise<UserRow | undefined> {
  return db
    .updateTable('users')
    .set({ ...set, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/** A page of live users matching `where` (compiled from a SCIM filter over `u`), oldest first, and the total. */
export async function pageUsers(
  db: Db,
  where: Expression<SqlBool> | undefined,
  page: { offset: number; limit: number },
): Promise<{ rows: UserRow[]; total: number }> {
  const base = db
    .selectFrom('users as u')
    .where('u.deleted_at', 'is', null)
    .where('u.status', '<>', 'app')
    .$if(where !== undefined, (qb) => qb.where(() => where!));
  const [rows, count] = await Promise.all([
    page.limit === 0
      ? Promise.resolve([])
      : base
          .selectAll('u')
          .orderBy('u.created_at')
          .orderBy('u.id')
          .offset(page.offset)
          .limit(page.limit)
          .execute(),
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as UserRow[], total: Number(count.n) };
}

// ---- Groups (teams)

export function findTeam(db: Db, id: string): Promise<TeamRow | undefined> {
  return db
    .selectFrom('teams')
    .selectAll()
    .where('id', '=', id)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
}

export async function pageTeams(
  db: Db,
  where: Expression<SqlBool> | undefined,
  page: { offset: number; limit: number },
): Promise<{ rows: TeamRow[]; total: number }> {
  const base = db
    .selectFrom('teams as t')
    .where('t.archived_at', 'is', null)
    .$if(where !== undefined, (qb) => qb.where(() => where!));
  const [rows, count] = await Promise.all([
    page.limit === 0
      ? Promise.resolve([])
      : base
          .selectAll('t')
          .orderBy('t.created_at')
          .orderBy('t.id')
          .offset(page.offset)
          .limit(page.limit)
          .execute(),
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as TeamRow[], total: Number(count.n) };
}

/** Whether a key is or was any team's (identifiers keep pointing at former keys). */
export async function keyInUse(db: Db, key: string): Promise<boolean> {
  const row = await db
    .selectFrom('teams')
    .select('id')
    .where('key', '=', key)
    .union(db.selectFrom('team_keys').select('team_id as id').where('key', '=', key))
    .executeTakeFirst();
  return row !== undefined;
}

export function setTeamColumns(
  db: Db,
  id: string,
  set: { name?: string; external_id?: string | null; archived_at?: Date },
): Promise<TeamRow | undefined> {
  return db
    .updateTable('teams')
    .set({ ...set, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('archived_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/** The live members of teams, with their names, oldest membership first. */
export function membersOf(
  db: Db,
  teamIds: readonly string[],
): Promise<{ team_id: string; user_id: string; name: string }[]> {
  if (teamIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('team_memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.team_id', 'm.user_id', 'u.name'])
    .where('m.team_id', 'in', teamIds)
    .where('m.archived_at', 'is', null)
    .where('u.deleted_at', 'is', null)
    .orderBy('m.created_at')
    .orderBy('m.id')
    .execute();
}

/** Of `ids`, those that are live users. */
export async function liveUserIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
  return new Set(rows.map((r) => r.id));
}

export async function removeMembers(db: Db, teamId: string, userIds: readonly string[]): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .deleteFrom('team_memberships')
    .where('team_id', '=', teamId)
    .where('user_id', 'in', userIds)
    .execute();
}

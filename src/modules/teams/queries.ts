// SQL for teams. Every function takes the connection or transaction it runs in.

import type { Expression, Insertable, Selectable, SqlBool } from 'kysely';
import { sql } from 'kysely';
import { userSeesTeam } from '../../platform/access.js';
import type { Db } from '../../platform/db/database.js';
import type { Role, TeamMembershipsTable, TeamRow, TeamsTable } from '../../platform/db/tables.js';
import { teamEntity } from '../../platform/list/entities.js';
import { timeKey } from '../../platform/list/order.js';
import { type ListRequest, restList } from '../../platform/list/query.js';
import { isUuid, TEAM_KEY } from './ids.js';

export function findTeamById(db: Db, id: string): Promise<TeamRow | undefined> {
  if (!isUuid(id)) return Promise.resolve(undefined);
  return db.selectFrom('teams').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * A team by id or by key, current or former (keys are upper case; "eng" finds
 * ENG). A key a team held stays with it (team_keys), so ENG still finds the
 * team after it became CORE.
 */
export function findTeamByIdOrKey(db: Db, idOrKey: string): Promise<TeamRow | undefined> {
  if (isUuid(idOrKey)) return findTeamById(db, idOrKey);
  const key = idOrKey.toUpperCase();
  if (!TEAM_KEY.test(key)) return Promise.resolve(undefined);
  return db
    .selectFrom('teams')
    .selectAll()
    .where('id', '=', (eb) => eb.selectFrom('team_keys').select('team_id').where('key', '=', key))
    .executeTakeFirst();
}

/** findTeamByIdOrKey's match as a condition over the team row under `alias`; undefined when none can match. */
export function teamRefCondition(alias: string, idOrKey: string) {
  const id = sql.ref(`${alias}.id`);
  if (isUuid(idOrKey)) return sql<boolean>`${id} = ${idOrKey}::uuid`;
  const key = idOrKey.toUpperCase();
  if (!TEAM_KEY.test(key)) return undefined;
  return sql<boolean>`${id} = (select tk.team_id from team_keys tk where tk.key = ${key})`;
}

// Team ids never change, teams are never deleted, and a key (current or
// former) never passes to another team, so a lookup that found a team stays
// true: lists filtered by team skip a statement per request. (Kept per database
// handle; misses always ask the database.)
const knownTeamIds = new WeakMap<Db, Map<string, string>>();
const KNOWN_TEAMS_MAX = 10_000;

/** The id of the team an id or key (current or former) names, or undefined. */
export async function resolveTeamId(db: Db, idOrKey: string): Promise<string | undefined> {
  const lookup = isUuid(idOrKey) ? idOrKey.toLowerCase() : idOrKey.toUpperCase();
  let known = knownTeamIds.get(db);
  const hit = known?.get(lookup);
  if (hit) return hit;
  const team = await findTeamByIdOrKey(db, idOrKey);
  if (!team) return undefined;
  if (!known) {
    known = new Map();
    knownTeamIds.set(db, known);
  }
  if (known.size < KNOWN_TEAMS_MAX) known.set(lookup, team.id);
  return team.id;
}

/** The default team of new issues: the oldest one. */
/** The id of an unarchived team, undefined when there is none with this id. */
export async function liveTeamId(db: Db, id: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('teams')
    .select('id')
    .where('id', '=', id)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  return row?.id;
}

export function firstTeam(db: Db): Promise<TeamRow | undefined> {
  return db
    .selectFrom('teams')
    .selectAll()
    .where('archived_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

export type TeamColumns = Pick<
  Insertable<TeamsTable>,
  | 'key'
  | 'name'
  | 'description'
  | 'color'
  | 'icon'
  | 'private'
  | 'timezone'
  | 'cycles_enabled'
  | 'triage_enabled'
>;
/** The cycle settings' columns (cycles/settings.ts). */
export type TeamCycleColumns = Pick<
  Insertable<TeamsTable>,
  | 'cycles_automatic'
  | 'cycle_duration'
  | 'cycle_cooldown'
  | 'cycle_start_day'
  | 'upcoming_cycle_count'
  | 'cycle_rollover'
>;
export type TeamColumnsPatch = Partial<TeamColumns>;

export function insertTeam(db: Db, team: TeamColumns): Promise<TeamRow> {
  return db.insertInto('teams').values(team).returningAll().executeTakeFirstOrThrow();
}

/** The team, its row locked until the transaction ends (issue numbering waits on it). */
export function lockTeam(db: Db, id: string): Promise<TeamRow | undefined> {
  if (!isUuid(id)) return Promise.resolve(undefined);
  return db.selectFrom('teams').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export function updateTeamRow(
  db: Db,
  id: string,
  set: TeamColumnsPatch & Partial<TeamCycleColumns> & { archived_at?: Date | null },
): Promise<TeamRow> {
  return db
    .updateTable('teams')
    .set({ ...set, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Live teams other than this one. */
export async function countOtherLiveTeams(db: Db, id: string): Promise<number> {
  const row = await db
    .selectFrom('teams')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('archived_at', 'is', null)
    .where('id', '<>', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * After a key change: every issue of the team takes the new key in its
 * identifier, and the new identifiers join the ones it had, which keep resolving.
 */
export async function reidentifyIssues(db: Db, teamId: string, key: string): Promise<void> {
  await db
    .updateTable('issues')
    .set({ identifier: sql<string>`${key} || '-' || number` })
    .where('team_id', '=', teamId)
    .execute();
  await db
    .insertInto('issue_identifiers')
    .columns(['identifier', 'issue_id'])
    .expression((eb) => eb.selectFrom('issues').select(['identifier', 'id']).where('team_id', '=', teamId))
    .onConflict((oc) => oc.column('identifier').doNothing())
    .execute();
}

/**
 * Takes the team's next issue number. The UPDATE locks the team row until the
 * transaction ends, so concurrent creations queue here and numbers stay gap-free.
 */
export async function takeIssueNumber(db: Db, teamId: string): Promise<{ number: number; key: string }> {
  const row = await db
    .updateTable('teams')
    .set({ issue_count: sql<number>`issue_count + 1` })
    .where('id', '=', teamId)
    .returning(['issue_count', 'key'])
    .executeTakeFirstOrThrow();
  return { number: row.issue_count, key: row.key };
}

/**
 * The ids of the teams a user sees, by the one rule (platform/access.ts
 * `userSeesTeam`) with the role the request carries.
 */
export async function visibleTeamIds(db: Db, user: { id: string; role: Role }): Promise<string[]> {
  const rule = userSeesTeam({ id: sql`${user.id}::uuid`, role: sql`${user.role}::text` }, 't');
  const rows = await db
    .selectFrom('teams as t')
    .select('t.id')
    .where(rule as Expression<SqlBool>)
    .execute();
  return rows.map((r) => r.id);
}

/** Every team the caller sees (archived ones too), oldest first, with its member count. */
export function listTeamRows(db: Db, list: ListRequest) {
  return restList<TeamRow & { member_count: number }>(db, {
    ...list,
    entity: teamEntity,
    from: sql`teams as t`,
    columns: sql`t.*, (select count(*) from team_memberships m where m.team_id = t.id)::int as member_count`,
    archivable: false,
    sort: timeKey('createdAt', 'asc'),
  });
}

export type MembershipRow = Selectable<TeamMembershipsTable>;

/** A user joins every live public team (memberships.ts decides who). */
export async function addToOpenTeams(db: Db, userId: string): Promise<void> {
  await db
    .insertInto('team_memberships')
    .columns(['team_id', 'user_id'])
    .expression((eb) =>
      eb
        .selectFrom('teams')
        .select((e) => ['id', e.val(userId).as('user_id')])
        .where('private', '=', false)
        .where('archived_at', 'is', null),
    )
    .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
    .execute();
}

/**
 * Every active account that joins automatically joins a new public team:
 * memberships.ts `joinsAutomatically` as SQL (every role but guest).
 */
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

/** Live memberships of some users. */
export function liveMembershipsOfUsers(db: Db, userIds: readonly string[]): Promise<MembershipRow[]> {
  if (!userIds.length) return Promise.resolve([]);
  return db
    .selectFrom('team_memberships')
    .selectAll()
    .where('user_id', 'in', [...userIds])
    .where('archived_at', 'is', null)
    .execute();
}

// SQL for teams. Every function takes the connection or transaction it runs in.
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { TeamRow } from '../../platform/db/tables.js';
import { isUuid, TEAM_KEY } from './ids.js';

export function listTeams(db: Db): Promise<TeamRow[]> {
  return db.selectFrom('teams').selectAll().orderBy('created_at').orderBy('id').execute();
}

export function findTeamById(db: Db, id: string): Promise<TeamRow | undefined> {
  if (!isUuid(id)) return Promise.resolve(undefined);
  return db.selectFrom('teams').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A team by id or by key (keys are upper case; "eng" finds ENG). */
export function findTeamByIdOrKey(db: Db, idOrKey: string): Promise<TeamRow | undefined> {
  if (isUuid(idOrKey)) return findTeamById(db, idOrKey);
  const key = idOrKey.toUpperCase();
  if (!TEAM_KEY.test(key)) return Promise.resolve(undefined);
  return db.selectFrom('teams').selectAll().where('key', '=', key).executeTakeFirst();
}

// Team ids and keys never change and teams are never deleted, so a lookup that
// found a team stays true: lists filtered by team skip a statement per request.
// (Kept per database handle; misses always ask the database.) A future team
// rename or delete must clear this.
const knownTeamIds = new WeakMap<Db, Map<string, string>>();
const KNOWN_TEAMS_MAX = 10_000;

/** The id of the team an id or key names, or undefined. */
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

export function insertTeam(
  db: Db,
  team: { key: string; name: string; description: string | null; color: string | null },
): Promise<TeamRow> {
  return db
    .insertInto('teams')
    .values({ ...team, icon: null })
    .returningAll()
    .executeTakeFirstOrThrow();
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

/** Every active account joins a new team. */
export async function addActiveUsers(db: Db, teamId: string): Promise<void> {
  await db
    .insertInto('team_memberships')
    .columns(['team_id', 'user_id'])
    .expression((eb) =>
      eb
        .selectFrom('users')
        .select((e) => [e.val(teamId).as('team_id'), 'id'])
        .where('deleted_at', 'is', null)
        .where('status', '=', 'active'),
    )
    .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
    .execute();
}

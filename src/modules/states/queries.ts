// SQL for workflow states.

import { sql } from 'kysely';
import { DEFAULT_STATES } from '../../first-start.js';
import type { Db } from '../../platform/db/database.js';
import type { StateRow, StateType } from '../../platform/db/tables.js';
import { workflowStateEntity } from '../../platform/list/entities.js';
import { fixedKey } from '../../platform/list/order.js';
import { type ListRequest, restList } from '../../platform/list/query.js';
import { isUuid } from '../teams/ids.js';

export function findStateById(db: Db, id: string): Promise<StateRow | undefined> {
  if (!isUuid(id)) return Promise.resolve(undefined);
  return db.selectFrom('workflow_states').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A state (archived or not), share-locked until the transaction ends: archiving it waits. */
export function lockStateShared(db: Db, id: string): Promise<StateRow | undefined> {
  if (!isUuid(id)) return Promise.resolve(undefined);
  return db.selectFrom('workflow_states').selectAll().where('id', '=', id).forShare().executeTakeFirst();
}

/** The first live state of a type in a team (lowest position). */
export function firstStateOfType(db: Db, teamId: string, type: StateType): Promise<StateRow | undefined> {
  return db
    .selectFrom('workflow_states')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('type', '=', type)
    .where('archived_at', 'is', null)
    .orderBy('position')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Where an issue marked as a duplicate goes (docs/rest-issues.md, "Relations"):
 * the team's live canceled state named "Duplicate" (any case), else its first
 * live canceled state by position.
 */
export async function duplicateState(db: Db, teamId: string): Promise<StateRow | undefined> {
  const named = await db
    .selectFrom('workflow_states')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('type', '=', 'canceled')
    .where('archived_at', 'is', null)
    .where(sql<boolean>`lower(name) = 'duplicate'`)
    .orderBy('position')
    .limit(1)
    .executeTakeFirst();
  return named ?? firstStateOfType(db, teamId, 'canceled');
}

/** Where new issues land: the first backlog state, else the first unstarted one, else the first. */
export async function defaultState(db: Db, teamId: string): Promise<StateRow | undefined> {
  return (
    (await firstStateOfType(db, teamId, 'backlog')) ??
    (await firstStateOfType(db, teamId, 'unstarted')) ??
    (await db
      .selectFrom('workflow_states')
      .selectAll()
      .where('team_id', '=', teamId)
      .where('archived_at', 'is', null)
      .orderBy('position')
      .limit(1)
      .executeTakeFirst())
  );
}

/**
 * The team's triage state, created before its first state when it has no live
 * one (turning triage on, docs/triage.md).
 */
export async function ensureTriageState(db: Db, teamId: string): Promise<StateRow> {
  const found = await firstStateOfType(db, teamId, 'triage');
  if (found) return found;
  const row = await db
    .selectFrom('workflow_states')
    .select((eb) => eb.fn.min<number | null>('position').as('min'))
    .where('team_id', '=', teamId)
    .executeTakeFirst();
  const position = row?.min == null ? 0 : Math.floor(Number(row.min)) - 1;
  return insertState(db, {
    team_id: teamId,
    name: 'Triage',
    type: 'triage',
    color: '#fc7840',
    description: 'Issues from outside the team wait here to be accepted or declined',
    position,
  });
}

/** After the team's last state. */
export async function nextPosition(db: Db, teamId: string): Promise<number> {
  const row = await db
    .selectFrom('workflow_states')
    .select((eb) => eb.fn.max<number | null>('position').as('max'))
    .where('team_id', '=', teamId)
    .executeTakeFirst();
  return row?.max == null ? 0 : Math.floor(Number(row.max)) + 1;
}

export function insertState(
  db: Db,
  s: Pick<StateRow, 'team_id' | 'name' | 'type' | 'color' | 'description' | 'position'>,
): Promise<StateRow> {
  return db.insertInto('workflow_states').values(s).returningAll().executeTakeFirstOrThrow();
}

/** A new team's workflow: the default states in their order. */
export async function insertDefaultStates(db: Db, teamId: string): Promise<void> {
  await db
    .insertInto('workflow_states')
    .values(DEFAULT_STATES.map((s, i) => ({ ...s, team_id: teamId, position: i, description: null })))
    .execute();
}

export function updateState(
  db: Db,
  id: string,
  set: Partial<Pick<StateRow, 'name' | 'color' | 'description' | 'position' | 'archived_at'>>,
): Promise<StateRow> {
  return db
    .updateTable('workflow_states')
    .set({ ...set, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The team's live states, locked (in id order) until the transaction ends. */
export function lockLiveStates(db: Db, teamId: string): Promise<StateRow[]> {
  return db
    .selectFrom('workflow_states')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('archived_at', 'is', null)
    .orderBy('id')
    .forUpdate()
    .execute();
}

/** Issues in the state, archived ones included. */
export async function countIssuesInState(db: Db, stateId: string): Promise<number> {
  const row = await db
    .selectFrom('issues')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('state_id', '=', stateId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** By team (oldest team first), then the team's manual order (position). */
const STATE_ORDER = fixedKey('position', 'o', [
  { sql: sql`o.created_at`, type: 'timestamptz', dir: 'asc' },
  { sql: sql`o.id`, type: 'uuid', dir: 'asc' },
  { sql: sql`t.position`, type: 'float', dir: 'asc' },
  { sql: sql`t.id`, type: 'uuid', dir: 'asc' },
]);

/** Every workflow state the caller sees: by team (oldest team first), then position. */
export function listStateRows(db: Db, list: ListRequest) {
  return restList<StateRow>(db, {
    ...list,
    entity: workflowStateEntity,
    from: sql`workflow_states as t join teams as o on o.id = t.team_id`,
    archivable: true,
    sort: STATE_ORDER,
  });
}

/** Live workflow states of some teams, in each team's order. */
export function liveStatesOfTeams(db: Db, teamIds: readonly string[]): Promise<StateRow[]> {
  if (!teamIds.length) return Promise.resolve([]);
  return db
    .selectFrom('workflow_states')
    .selectAll()
    .where('team_id', 'in', [...teamIds])
    .where('archived_at', 'is', null)
    .orderBy('position')
    .execute();
}

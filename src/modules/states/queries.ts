// SQL for workflow states.
import type { Db } from '../../platform/db/database.js';
import type { StateRow, StateType } from '../../platform/db/tables.js';
import { isUuid } from '../teams/ids.js';

/** States ordered by team (oldest team first) then position. */
export function listStates(db: Db, teamId?: string): Promise<StateRow[]> {
  let query = db
    .selectFrom('workflow_states as s')
    .innerJoin('teams as t', 't.id', 's.team_id')
    .selectAll('s')
    .where('s.archived_at', 'is', null);
  if (teamId !== undefined) query = query.where('s.team_id', '=', teamId);
  return query.orderBy('t.created_at').orderBy('t.id').orderBy('s.position').orderBy('s.id').execute();
}

export function findStateById(db: Db, id: string): Promise<StateRow | undefined> {
  if (!isUuid(id)) return Promise.resolve(undefined);
  return db.selectFrom('workflow_states').selectAll().where('id', '=', id).executeTakeFirst();
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

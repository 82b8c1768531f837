// SQL for cycles. Every function takes the connection or transaction it runs in.
import { type Insertable, sql, type Updateable } from 'kysely';
import { type TeamAccess, visibility, visibleIn } from '../../platform/access.js';
import type { Db } from '../../platform/db/database.js';
import type { CycleRow, CyclesTable } from '../../platform/db/tables.js';
import { cycleEntity } from '../../platform/list/entities.js';
import { fixedKey } from '../../platform/list/order.js';
import { type ListRequest, restList } from '../../platform/list/query.js';
import { emptyProgress } from '../projects/progress.js';
import { progressBy } from '../projects/queries.js';
import type { CycleRecord } from './present.js';

/** A cycle of a team the caller may see. */
export function findCycleRow(
  db: Db,
  id: string,
  access: TeamAccess,
  lock = false,
): Promise<CycleRow | undefined> {
  const q = db
    .selectFrom('cycles')
    .selectAll()
    .where('id', '=', id)
    .where(visibleIn(visibility.cycle, 'cycles', access));
  return (lock ? q.forUpdate() : q).executeTakeFirst();
}

/** Takes the team's next cycle number under the team row's lock. */
export async function nextCycleNumber(db: Db, teamId: string): Promise<number> {
  const row = await db
    .updateTable('teams')
    .set({ cycle_count: sql<number>`cycle_count + 1` })
    .where('id', '=', teamId)
    .returning('cycle_count')
    .executeTakeFirstOrThrow();
  return row.cycle_count;
}

export function insertCycle(db: Db, values: Insertable<CyclesTable>): Promise<CycleRow> {
  return db.insertInto('cycles').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateCycleRow(db: Db, id: string, patch: Updateable<CyclesTable>) {
  return db
    .updateTable('cycles')
    .set({ ...patch, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteCycleRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom('cycles').where('id', '=', id).execute();
}

/** Progress for a page of cycles in one grouped query. */
export async function loadCycleRecords(
  db: Db,
  rows: readonly CycleRow[],
  access: TeamAccess,
): Promise<CycleRecord[]> {
  if (rows.length === 0) return [];
  const progress = await progressBy(
    db,
    'cycle_id',
    rows.map((r) => r.id),
    access,
  );
  return rows.map((r) => ({ ...r, progress: progress.get(r.id) ?? emptyProgress() }));
}

/** By team, then newest number first: (team_id, number) is unique. */
const CYCLE_ORDER = fixedKey('number', 'n', [
  { sql: sql`t.team_id`, type: 'uuid', dir: 'asc' },
  { sql: sql`t.number`, type: 'int', dir: 'desc' },
]);

/** A page of the cycles the caller sees: by team, then newest number first (the unique (team_id, number) index serves it). */
export function listCycleRows(db: Db, list: ListRequest) {
  return restList<CycleRow>(db, {
    ...list,
    entity: cycleEntity,
    from: sql`cycles as t`,
    archivable: true,
    sort: CYCLE_ORDER,
  });
}

/** Live cycles of some teams (id, team, start, end): enough to tell which is active, next or previous. */
export function liveCyclesOfTeams(db: Db, teamIds: readonly string[]) {
  if (!teamIds.length) return Promise.resolve([]);
  return db
    .selectFrom('cycles')
    .select(['id', 'team_id', 'starts_at', 'ends_at'])
    .where('team_id', 'in', [...teamIds])
    .where('archived_at', 'is', null)
    .execute();
}

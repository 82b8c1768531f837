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

/**
 * Teams whose automatic cycles need work at `now`: fewer upcoming cycles than
 * planned, or a cycle that has ended and is not completed yet. At most `limit`.
 */
export async function teamsDueForCycles(db: Db, now: Date, limit: number): Promise<string[]> {
  if (limit <= 0) return [];
  const rows = await db
    .selectFrom('teams as t')
    .select('t.id')
    .where('t.cycles_automatic', '=', true)
    .where('t.cycles_enabled', '=', true)
    .where('t.archived_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb(
          eb
            .selectFrom('cycles as c')
            .select(sql<number>`count(*)::int`.as('n'))
            .whereRef('c.team_id', '=', 't.id')
            .where('c.archived_at', 'is', null)
            .where('c.completed_at', 'is', null)
            .where('c.starts_at', '>', now),
          '<',
          eb.ref('t.upcoming_cycle_count'),
        ),
        eb.exists(
          eb
            .selectFrom('cycles as c')
            .select('c.id')
            .whereRef('c.team_id', '=', 't.id')
            .where('c.archived_at', 'is', null)
            .where('c.completed_at', 'is', null)
            .where('c.ends_at', '<=', now),
        ),
      ]),
    )
    .orderBy('t.id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** The end of the team's last live cycle, and how many live ones have not started at `now`. */
export async function cycleHorizon(
  db: Db,
  teamId: string,
  now: Date,
): Promise<{ lastEnd: Date | null; upcoming: number }> {
  const row = await db
    .selectFrom('cycles')
    .select([
      sql<Date | null>`max(ends_at)`.as('last_end'),
      sql<number>`(count(*) filter (where starts_at > ${now} and completed_at is null))::int`.as('upcoming'),
    ])
    .where('team_id', '=', teamId)
    .where('archived_at', 'is', null)
    .executeTakeFirstOrThrow();
  return { lastEnd: row.last_end === null ? null : new Date(row.last_end), upcoming: row.upcoming };
}

/** The team's live cycles that have ended at `now` but are not completed, oldest first. */
export function endedOpenCycles(db: Db, teamId: string, now: Date) {
  return db
    .selectFrom('cycles')
    .select(['id', 'ends_at'])
    .where('team_id', '=', teamId)
    .where('archived_at', 'is', null)
    .where('completed_at', 'is', null)
    .where('ends_at', '<=', now)
    .orderBy('ends_at')
    .execute();
}

/** Where an ended cycle's issues go: the team's first open cycle starting at or after `from` and not over at `now`. */
export function nextOpenCycle(db: Db, teamId: string, from: Date, now: Date) {
  return db
    .selectFrom('cycles')
    .select('id')
    .where('team_id', '=', teamId)
    .where('archived_at', 'is', null)
    .where('completed_at', 'is', null)
    .where('starts_at', '>=', from)
    .where('ends_at', '>', now)
    .orderBy('starts_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

/** A cycle's live issues whose state is neither completed nor canceled. */
export async function unfinishedIssueIds(db: Db, cycleId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('issues as i')
    .innerJoin('workflow_states as s', 's.id', 'i.state_id')
    .select('i.id')
    .where('i.cycle_id', '=', cycleId)
    .where('i.archived_at', 'is', null)
    .where('s.type', 'not in', ['completed', 'canceled'])
    .orderBy('i.id')
    .execute();
  return rows.map((r) => r.id);
}

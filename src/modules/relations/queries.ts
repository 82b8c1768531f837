// SQL for issue relations. Every read applies the relation's visibility rule
// (both issues visible, platform/access.ts); issues themselves are resolved by
// the issues module's one lookup (issues/queries.ts resolveIssueId).
import { type Insertable, sql, type Updateable } from 'kysely';
import { inVisibleTeam, type TeamAccess, visibility, visibleIn } from '../../platform/access.js';
import type { Db } from '../../platform/db/database.js';
import type { IssueRelationRow, IssueRelationsTable } from '../../platform/db/tables.js';
import { timeKey } from '../../platform/list/order.js';
import { offsetPage } from '../../platform/list/runner.js';
import { type PageRequest, windowOf } from '../../platform/list/window.js';
import type { ListedRelation, OtherIssue, RelationType } from './present.js';

/** A relation the caller may see (both of its issues). */
export function findRelation(
  db: Db,
  id: string,
  access: TeamAccess,
  lock = false,
): Promise<IssueRelationRow | undefined> {
  const q = db
    .selectFrom('issue_relations')
    .selectAll()
    .where('id', '=', id)
    .where(visibleIn(visibility.issueRelation, 'issue_relations', access));
  return (lock ? q.forUpdate() : q).executeTakeFirst();
}

/**
 * A relation of `type` between the two issues in either direction (other than
 * `except`): a pair is linked at most once per type, whichever end is the source.
 */
export function findPair(
  db: Db,
  a: string,
  b: string,
  type: RelationType,
  except?: string,
): Promise<Pick<IssueRelationRow, 'id' | 'issue_id'> | undefined> {
  let q = db
    .selectFrom('issue_relations')
    .select(['id', 'issue_id'])
    .where('type', '=', type)
    .where((eb) =>
      eb.or([
        eb.and([eb('issue_id', '=', a), eb('related_issue_id', '=', b)]),
        eb.and([eb('issue_id', '=', b), eb('related_issue_id', '=', a)]),
      ]),
    );
  if (except) q = q.where('id', '<>', except);
  return q.executeTakeFirst();
}

const visibleOther = (access: TeamAccess) => inVisibleTeam(sql.ref('o.team_id'), access);

/**
 * The relations of one issue in both directions whose other issue the caller
 * sees, oldest first, each with that other issue and its state. Served by the
 * indexes on issue_id and related_issue_id (migration 0011).
 */
export async function listForIssue(
  db: Db,
  issueId: string,
  access: TeamAccess,
  page: PageRequest,
): Promise<{ rows: ListedRelation[]; total: number }> {
  const order = timeKey('createdAt', 'asc');
  const { rows, total } = await offsetPage<IssueRelationRow & { o: OtherIssue }>(
    db,
    {
      from: sql`issue_relations t
        join issues o on o.id = case when t.issue_id = ${issueId}::uuid then t.related_issue_id else t.issue_id end
        join workflow_states s on s.id = o.state_id`,
      columns: sql`t.*, json_build_object('id', o.id, 'identifier', o.identifier, 'title', o.title,
        'team_id', o.team_id, 'state_id', o.state_id, 'state_name', s.name, 'state_type', s.type) as o`,
      where: [
        sql`(t.issue_id = ${issueId}::uuid or t.related_issue_id = ${issueId}::uuid)`,
        visibleOther(access),
      ],
      archivable: false,
    },
    order,
    windowOf(page, order),
  );
  return { rows: rows.map(({ o, ...r }) => ({ ...r, other: o })), total };
}

export function insertRelation(db: Db, values: Insertable<IssueRelationsTable>): Promise<IssueRelationRow> {
  return db.insertInto('issue_relations').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateRelationRow(
  db: Db,
  id: string,
  patch: Updateable<IssueRelationsTable>,
): Promise<IssueRelationRow> {
  return db
    .updateTable('issue_relations')
    .set({ ...patch, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteRelationRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom('issue_relations').where('id', '=', id).execute();
}

/** The team of an issue (relation events are routed by their source issue's team). */
export async function teamOfIssue(db: Db, issueId: string): Promise<string | null> {
  const row = await db.selectFrom('issues').select('team_id').where('id', '=', issueId).executeTakeFirst();
  return row?.team_id ?? null;
}

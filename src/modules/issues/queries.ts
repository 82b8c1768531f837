// SQL for issues. Every function takes the connection or transaction it runs in.
// Related tables owned by other domains (projects, cycles, users) are read here
// directly, only to check that a referenced row exists.
import { type AliasedRawBuilder, type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';
import {
  inVisibleTeam,
  type TeamAccess,
  type Visibility,
  visibility,
  visibleIn,
} from '../../platform/access.js';
import type { Db } from '../../platform/db/database.js';
import { type CycleRow, ISSUE_COLUMNS, type IssueRow } from '../../platform/db/tables.js';
import {
  columnKey,
  encodeCursor,
  orderSql,
  type Position,
  partText,
  pastSql,
  type SortKey,
  timeKey,
} from '../../platform/list/order.js';
import {
  commentsMatchSearch,
  matchesSearch,
  rankedMatches,
  rankedOrder,
} from '../../platform/list/search.js';
import { pageBound } from '../../platform/list/window.js';
import { rowJson } from '../../platform/read/compile.js';
import { issue as readIssue } from '../../platform/read/entities.js';
import type { ReadContext } from '../../platform/read/model.js';
import type { RestView } from '../../platform/read/rest.js';
import { isUuid } from '../teams/ids.js';
import { teamRefCondition } from '../teams/queries.js';
import {
  branchOwnerSql,
  type ChildProgress,
  childProgressOf,
  childProgressSql,
  labelIdsSql,
} from './fields.js';
import { ISSUE_VIEW, type IssueRecord } from './present.js';

const COLUMNS = ISSUE_COLUMNS.map((c) => `issues.${c}` as const);
/** The columns that need no check: parent, project and milestone may be out of the caller's sight. */
const HIDEABLE = new Set(['issues.parent_id', 'issues.project_id', 'issues.project_milestone_id']);
const SCOPED_COLUMNS = COLUMNS.filter((c) => !HIDEABLE.has(c));
/** For a guest the assignee and creator may be out of sight too (members see the whole directory). */
const PEOPLE = new Set(['issues.assignee_id', 'issues.creator_id']);
const GUEST_COLUMNS = SCOPED_COLUMNS.filter((c) => !PEOPLE.has(c));

export type IssueColumns = IssueRow;

/**
 * Issues as records, in one statement: the computed fields of fields.ts
 * (branch owner's name, label ids, child progress) come along. With the caller's access, what they may not see reads
 * as none, exactly as GraphQL's loaders answer it: a parent, project or
 * milestone out of sight, a guest's unseen assignee or creator (and so the
 * name in branchName), sub-issues out of sight in childProgress.
 */
export function selectIssues(db: Db, access?: TeamAccess) {
  const scoped = access !== undefined && !access.all ? access : undefined;
  const guest = scoped?.guest === true ? scoped : undefined;
  const userSeen = (alias: string) => (guest ? sql`and ${visibility.user(alias, guest)}` : sql``);
  return (
    db
      .selectFrom('issues')
      // A person out of the caller's sight joins as none (GraphQL's user loader answers null).
      .leftJoin('users as a', (j) =>
        j.onRef('a.id', '=', 'issues.assignee_id').on(sql<SqlBool>`true ${userSeen('a')}`),
      )
      .leftJoin('users as c', (j) =>
        j.onRef('c.id', '=', 'issues.creator_id').on(sql<SqlBool>`true ${userSeen('c')}`),
      )
      .select(guest ? GUEST_COLUMNS : scoped ? SCOPED_COLUMNS : COLUMNS)
      .$if(guest !== undefined, (qb) =>
        qb.select([sql<string | null>`a.id`.as('assignee_id'), sql<string | null>`c.id`.as('creator_id')]),
      )
      .$if(scoped !== undefined, (qb) =>
        qb.select([
          // A parent or project the caller may not see reads as none.
          sql<string | null>`(select p.id from issues p where p.id = issues.parent_id
          and ${visibility.issue('p', scoped!)})`.as('parent_id'),
          sql<string | null>`(select p.id from projects p where p.id = issues.project_id
          and ${visibility.project('p', scoped!)})`.as('project_id'),
          // A milestone is visible with its project.
          sql<
            string | null
          >`(select issues.project_milestone_id from projects p where p.id = issues.project_id
          and ${visibility.project('p', scoped!)})`.as('project_milestone_id'),
        ]),
      )
      // The computed fields, as every door reads them (fields.ts), with the caller's access.
      .select([
        branchOwnerSql(sql.ref('issues'), access).as('branch_user'),
        childProgressSql(sql.ref('issues'), access).as('child_progress'),
        labelIdsSql(sql.ref('issues')).as('label_ids'),
      ])
  );
}

type SelectedIssue = IssueColumns & {
  branch_user: string | null;
  label_ids: string[];
  child_progress: ChildProgress;
};

const toRecord = ({ branch_user, label_ids, child_progress, ...row }: SelectedIssue): IssueRecord => ({
  ...row,
  labelIds: label_ids,
  branchUser: branch_user,
  childProgress: childProgressOf(child_progress),
});

/** Records for these ids, in the order given (missing ids are skipped). */
export async function loadIssueRecords(db: Db, ids: readonly string[]): Promise<IssueRecord[]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return [];
  const rows = await selectIssues(db).where('issues.id', 'in', valid).execute();
  const records = new Map(rows.map((r) => [r.id, toRecord(r)]));
  return valid.map((id) => records.get(id)).filter((r): r is IssueRecord => r !== undefined);
}

export async function loadIssueRecord(db: Db, id: string): Promise<IssueRecord | undefined> {
  return (await loadIssueRecords(db, [id]))[0];
}

/** `eng-12` -> `ENG-12`; undefined when the text cannot be an identifier. */
function normalIdentifier(text: string): string | undefined {
  const m = /^([A-Za-z][A-Za-z0-9]{0,6})-(\d{1,9})$/.exec(text.trim());
  return m ? `${m[1]!.toUpperCase()}-${Number(m[2])}` : undefined;
}

/**
 * The id of the issue an id or identifier names, if the caller may see it.
 * Identifiers resolve through issue_identifiers, so one from before a team
 * move still works (only where the caller sees the team that gave it); the key
 * part is case-insensitive ("eng-12" finds ENG-12).
 */
export async function resolveIssueId(
  db: Db,
  idOrIdentifier: string,
  access: TeamAccess,
): Promise<string | undefined> {
  const visible = visibleIn(visibility.issue, 'issues', access);
  if (isUuid(idOrIdentifier)) {
    const row = await db
      .selectFrom('issues')
      .select('id')
      .where('id', '=', idOrIdentifier)
      .where(visible)
      .executeTakeFirst();
    return row?.id;
  }
  const identifier = normalIdentifier(idOrIdentifier);
  if (!identifier) return undefined;
  // A former identifier given by a team out of sight finds nothing: answering would confirm it.
  const row = await db
    .selectFrom('issue_identifiers')
    .innerJoin('issues', 'issues.id', 'issue_identifiers.issue_id')
    .select('issue_identifiers.issue_id')
    .where('issue_identifiers.identifier', '=', identifier)
    .where(visible)
    .where(visibleIn(visibility.issueIdentifier, 'issue_identifiers', access))
    .executeTakeFirst();
  return row?.issue_id;
}

/** The record an id or identifier (current or former) names, in one statement, if the caller may see it. */
export async function findIssueRecord(
  db: Db,
  idOrIdentifier: string,
  access: TeamAccess,
): Promise<IssueRecord | undefined> {
  const query = selectIssues(db, access).where(visibleIn(visibility.issue, 'issues', access));
  if (isUuid(idOrIdentifier)) {
    const row = await query.where('issues.id', '=', idOrIdentifier).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }
  const identifier = normalIdentifier(idOrIdentifier);
  if (!identifier) return undefined;
  const row = await query
    .where('issues.id', '=', (eb) =>
      eb
        .selectFrom('issue_identifiers')
        .select('issue_id')
        .where('identifier', '=', identifier)
        .where(visibleIn(visibility.issueIdentifier, 'issue_identifiers', access)),
    )
    .executeTakeFirst();
  return row ? toRecord(row) : undefined;
}

/**
 * The condition that picks the issue an id or identifier names (current or
 * former, as resolveIssueId), over the issue row `alias`; undefined when the
 * text cannot name one. The caller adds the issue's own visibility.
 */
export function issueRefCondition(alias: string, idOrIdentifier: string, access: TeamAccess) {
  const id = sql.ref(`${alias}.id`);
  if (isUuid(idOrIdentifier)) return sql`${id} = ${idOrIdentifier}::uuid`;
  const identifier = normalIdentifier(idOrIdentifier);
  if (!identifier) return undefined;
  return sql`${id} = (select ii.issue_id from issue_identifiers ii where ii.identifier = ${identifier}
    and ${visibility.issueIdentifier('ii', access)})`;
}

/**
 * The same read as JSON text built by PostgreSQL from the read model's issue
 * (platform/read): `{"issue":{...}}` as REST sends it, fields in the schema's order.
 */
export async function findIssueJson(
  db: Db,
  idOrIdentifier: string,
  read: ReadContext,
  view: RestView = ISSUE_VIEW,
): Promise<string | undefined> {
  const match = issueRefCondition('r', idOrIdentifier, read.access);
  if (!match) return undefined;
  const { rows } = await sql<{
    json: string;
  }>`select '{"issue":' || ${rowJson(readIssue, 'r', view.select, read)} || '}' as json
    from issues r where ${match} and ${visibility.issue('r', read.access)}`.execute(db);
  return rows[0]?.json;
}

/** Locks the issue row for this transaction (not its key: child inserts may still reference it). */
export function lockIssue(db: Db, id: string): Promise<IssueColumns | undefined> {
  return db.selectFrom('issues').select(COLUMNS).where('id', '=', id).forNoKeyUpdate().executeTakeFirst();
}

/** Ids of the issues in a state (archived ones included), locked, oldest first. */
export async function lockIssuesInState(db: Db, stateId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('issues')
    .select('id')
    .where('state_id', '=', stateId)
    .orderBy('created_at')
    .orderBy('id')
    .forNoKeyUpdate()
    .execute();
  return rows.map((r) => r.id);
}

export function insertIssue(
  db: Db,
  row: Omit<
    IssueColumns,
    'id' | 'created_at' | 'updated_at' | 'archived_at' | 'snoozed_until_at' | 'snoozed_by_id'
  > & { id?: string },
): Promise<{ id: string }> {
  return db.insertInto('issues').values(row).returning('id').executeTakeFirstOrThrow();
}

export async function updateIssueRow(db: Db, id: string, patch: Partial<IssueColumns>): Promise<void> {
  await db
    .updateTable('issues')
    .set({ ...patch, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .execute();
}

export async function deleteIssueRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom('issues').where('id', '=', id).execute();
}

export async function addIdentifier(db: Db, issueId: string, identifier: string): Promise<void> {
  await db
    .insertInto('issue_identifiers')
    .values({ identifier, issue_id: issueId })
    .onConflict((oc) => oc.column('identifier').doUpdateSet({ issue_id: issueId }))
    .execute();
}

export async function setLabels(db: Db, issueId: string, labelIds: readonly string[]): Promise<void> {
  await db.deleteFrom('issue_labels').where('issue_id', '=', issueId).execute();
  if (labelIds.length === 0) return;
  await db
    .insertInto('issue_labels')
    .values(labelIds.map((label_id) => ({ issue_id: issueId, label_id })))
    .execute();
}

export async function subscribe(db: Db, issueId: string, userIds: readonly (string | null)[]): Promise<void> {
  const ids = [...new Set(userIds.filter((u): u is string => u !== null))];
  if (ids.length === 0) return;
  await db
    .insertInto('issue_subscribers')
    .values(ids.map((user_id) => ({ issue_id: issueId, user_id })))
    .onConflict((oc) => oc.columns(['issue_id', 'user_id']).doNothing())
    .execute();
}

export async function insertHistory(
  db: Db,
  issueId: string,
  actorId: string | null,
  changes: Record<string, { from: unknown; to: unknown }>,
): Promise<void> {
  await db
    .insertInto('issue_history')
    .values({ issue_id: issueId, actor_id: actorId, changes: JSON.stringify(changes) })
    .execute();
}

export function historyOf(db: Db, issueId: string) {
  return db
    .selectFrom('issue_history')
    .selectAll()
    .where('issue_id', '=', issueId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

// --- Referenced rows (existence checks) ---

export async function liveUserExists(db: Db, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    // An app's own user (actor=app) is never assigned: it acts only through its app.
    .where('status', '<>', 'app')
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether a project the caller may see has this id. */
export async function projectExists(db: Db, id: string, access: TeamAccess): Promise<boolean> {
  if (!isUuid(id)) return false;
  const row = await db
    .selectFrom('projects')
    .select('id')
    .where('id', '=', id)
    .where(visibleIn(visibility.project, 'projects', access))
    .executeTakeFirst();
  return row !== undefined;
}

export function findCycle(db: Db, id: string): Promise<Pick<CycleRow, 'id' | 'team_id'> | undefined> {
  if (!isUuid(id)) return Promise.resolve(undefined);
  return db.selectFrom('cycles').select(['id', 'team_id']).where('id', '=', id).executeTakeFirst();
}

/** Whether `candidate` is `issueId` itself or one of its descendants (walks up from candidate). */
export async function wouldCycle(db: Db, issueId: string, candidate: string): Promise<boolean> {
  const row = await sql<{ found: boolean }>`
    with recursive up(id, parent_id, depth) as (
      select id, parent_id, 0 from issues where id = ${candidate}
      union all
      select i.id, i.parent_id, up.depth + 1 from issues i join up on i.id = up.parent_id where up.depth < 1000
    )
    select exists(select 1 from up where id = ${issueId}) as found`.execute(db);
  return row.rows[0]?.found === true;
}

// --- Lists ---

export type IssueSort = 'createdAt' | 'updatedAt' | 'priority' | 'dueDate';

export interface ListQuery {
  where: Expression<SqlBool>;
  /** A tsquery expression; when set and no keyset order is given, rank orders the page. */
  search: Expression<unknown> | null;
  limit: number;
  offset: number;
  /** The order cursors page by (issueOrder); none for a ranked search. */
  keyset: SortKey<IssueSort> | undefined;
  /** Keyset position: rows strictly after it in `keyset`. */
  after?: Position | undefined;
  /** The caller's access; `where` must already hold its rule, this hides out-of-sight references. */
  access: TeamAccess;
  /** SQL of the number of matches when it need not count them (keptTotal); default: count `where`. */
  total?: Expression<unknown> | undefined;
}

/**
 * The order a list is paged by when it can be paged by cursor: every explicit
 * sort, and the default newest-first order (the list runner's sort keys,
 * platform/list/order.ts). Only lists ranked by search (q without a sort)
 * page by offset alone.
 */
export function issueOrder(query: {
  sort: IssueSort | undefined;
  order: 'asc' | 'desc';
  search: unknown;
}): SortKey<IssueSort> | undefined {
  const dir = query.sort ? query.order : 'desc';
  switch (query.sort ?? (query.search ? undefined : 'createdAt')) {
    case 'createdAt':
      return timeKey('createdAt', dir, 'issues');
    case 'updatedAt':
      return timeKey('updatedAt', dir, 'issues');
    case 'priority':
      return columnKey('priority', 'p', sql.ref('issues.priority'), 'int', dir, 'issues');
    case 'dueDate':
      return columnKey('dueDate', 'd', sql.ref('issues.due_date'), 'date', dir, 'issues');
    default:
      return undefined;
  }
}

type PageId = { id: string; total: string };

/** The page's ids (narrow and index-friendly: a deep offset skips index entries, not whole rows) and its order. */
function pageOf(db: Db, query: ListQuery) {
  const key = query.keyset;
  const after = key && query.after ? query.after : undefined;
  // Ranked by search: the page and its total come from one scan of the matches.
  const ranked = !key && query.search ? query.search : null;
  const order = key ? orderSql(key) : rankedOrder('page');
  const page = ranked
    ? sql<PageId>`(${rankedMatches(query.where, ranked, query.limit, query.offset)})`.as('page')
    : (db
        .selectFrom('issues')
        .select('issues.id')
        .where(() => query.where)
        .$if(after !== undefined, (qb) => qb.where(pastSql(key!, after!)))
        .orderBy(order)
        // One row more than the page tells whether a next page exists.
        .limit(pageBound(key ? query.limit + 1 : query.limit))
        .$if(query.offset > 0, (qb) => qb.offset(query.offset))
        .as('page') as unknown as AliasedRawBuilder<PageId, 'page'>);
  const extra = [
    ranked ? sql<string>`page.total`.as('total') : sql<string>`${totalOf(query)}`.as('total'),
    // The row's position in the order, part by part, for the cursor after the page.
    ...(key?.parts ?? []).map((p, i) => sql<string | null>`${partText(p)}`.as(`__c${i}`)),
  ] as const;
  return { key, after, order, page, extra };
}

type Positioned = { id: string; total: string } & Record<string, unknown>;

/** The rows kept for the page, the cursor after it, and the number of all matches. */
async function finishPage<R extends Positioned>(
  db: Db,
  query: ListQuery,
  { key, after }: ReturnType<typeof pageOf>,
  rows: R[],
): Promise<{ kept: R[]; total: number; nextCursor: string | null }> {
  const more = key !== undefined && rows.length > query.limit;
  const kept = more ? rows.slice(0, query.limit) : rows;
  const last = kept[kept.length - 1];
  const nextCursor =
    more && key && last
      ? encodeCursor(
          key,
          key.parts.map((_, i) => last[`__c${i}`] as string | null),
        )
      : null;
  // An empty page says nothing about the total past the first page.
  const total =
    rows.length > 0
      ? Number(rows[0]!.total)
      : query.offset > 0 || after
        ? Number((await sql<{ n: string }>`select ${totalOf(query)} as n`.execute(db)).rows[0]!.n)
        : 0;
  return { kept, total, nextCursor };
}

/**
 * A page of the list and the number of all matches, in one statement: the
 * page's ids are picked first, then each row is read as JSON text built by
 * PostgreSQL from the read model (findIssueJson's shape).
 */
export async function listIssueJsonPage(
  db: Db,
  query: ListQuery,
  read: ReadContext,
  view: RestView = ISSUE_VIEW,
): Promise<{ issues: string[]; total: number; nextCursor: string | null }> {
  const p = pageOf(db, query);
  const rows = await db
    .selectFrom('issues')
    .innerJoin(p.page, 'page.id', 'issues.id')
    .select(['issues.id', rowJson(readIssue, 'issues', view.select, read).$castTo<string>().as('json')])
    .select(p.extra)
    .orderBy(p.order)
    .execute();
  const { kept, total, nextCursor } = await finishPage(db, query, p, rows);
  return { issues: kept.map((r) => r.json), total, nextCursor };
}

const totalOf = (query: ListQuery) => query.total ?? sql`(select count(*) from issues where ${query.where})`;

/**
 * The number of the caller's issues (of one team, when given) from the counts
 * the triggers of migration 0023 keep: a sum over one row per team, where a
 * count would read every issue. Right only for lists with no other condition.
 */
/** The REST list's conditions: the filters, archived rows unless asked for, and the caller's visibility. */
export function issueListWhere(
  filters: readonly RawBuilder<unknown>[],
  includeArchived: boolean,
  access: TeamAccess,
) {
  const conditions = [
    ...filters,
    ...(includeArchived ? [] : [sql`issues.archived_at is null`]),
    ...(access.all ? [] : [visibility.issue('issues', access)]),
  ];
  return sql<SqlBool>`(${sql.join(conditions, sql` and `)})`;
}

/**
 * How many issues each of `wheres` matches, in one statement: a count per
 * condition, each as the list's own total is counted (totalOf), so the two
 * cannot differ.
 */
export async function countEach(db: Db, wheres: RawBuilder<SqlBool>[]): Promise<number[]> {
  const { rows } = await sql<Record<string, string>>`select ${sql.join(
    wheres.map((w, i) => sql`(select count(*) from issues where ${w}) as ${sql.ref(`c${i}`)}`),
  )}`.execute(db);
  return wheres.map((_, i) => Number(rows[0]![`c${i}`]));
}

export function keptTotal(
  access: TeamAccess,
  teamId: string | undefined,
  includeArchived: boolean,
  stateId?: string,
) {
  const counted = includeArchived ? sql`c.live + c.archived` : sql`c.live`;
  const ofTeam = teamId === undefined ? sql`` : sql`and c.team_id = ${teamId}::uuid`;
  // One state (a board column): the counts by team and state (migration 0067).
  if (stateId !== undefined)
    return sql`(select coalesce(sum(${counted}), 0) from state_issue_counts c
      where ${visibility.issue('c', access)} and c.state_id = ${stateId}::uuid ${ofTeam})`;
  return sql`(select coalesce(sum(${counted}), 0) from team_issue_counts c
    where ${visibility.issue('c', access)} ${ofTeam})`;
}

/** The ids among `ids` (rows of `table`) that the caller sees by `rule`. */
export async function visibleIdsIn(
  db: Db,
  table: string,
  rule: Visibility,
  ids: string[],
  access: TeamAccess,
): Promise<Set<string>> {
  const rows = await sql<{ id: string }>`select t.id::text as id from ${sql.table(table)} as t
    where t.id in (${sql.join(ids.map((id) => sql`${id}::uuid`))}) and ${rule('t', access)}`.execute(db);
  return new Set(rows.rows.map((r) => r.id));
}

/** The team keys (of identifiers `KEY-N`, current or former) whose team the caller sees. */
export async function visibleTeamKeys(db: Db, keys: string[], access: TeamAccess): Promise<Set<string>> {
  const rows = await sql<{ key: string }>`select k.key from team_keys k
    where k.key in (${sql.join(keys)}) and ${inVisibleTeam(sql.ref('k.team_id'), access)}`.execute(db);
  return new Set(rows.rows.map((r) => r.key));
}

/**
 * searchIssues' conditions over the issue `t`: the one search over title and
 * description, or over its comments too, and the team when one is named.
 */
export function issueSearchConditions(
  query: Expression<unknown>,
  includeComments: boolean,
  teamId: string | undefined,
) {
  const matches = includeComments
    ? sql`(${matchesSearch('t', query)} or ${commentsMatchSearch('t', query)})`
    : matchesSearch('t', query);
  return teamId === undefined ? [matches] : [matches, sql`t.team_id = ${teamId}::uuid`];
}

/**
 * searchIssues' conditions as its compiled read asks them in one statement:
 * the team named by id or key (as the resolver's lookup matches it) is a
 * subquery, and `teamSeen` says whether the caller sees it (the resolver
 * answers "not found" where not). Undefined when the text names no team.
 */
export function issueSearchByTeamRef(
  query: Expression<unknown>,
  includeComments: boolean,
  teamRef: string | undefined,
  access: TeamAccess,
): { where: RawBuilder<unknown>[]; teamSeen?: RawBuilder<unknown> } | undefined {
  const matches = issueSearchConditions(query, includeComments, undefined);
  if (teamRef === undefined) return { where: matches };
  const named = teamRefCondition('st', teamRef);
  if (!named) return undefined;
  return {
    where: [...matches, sql`t.team_id = (select st.id from teams st where ${named})`],
    teamSeen: sql`exists (select 1 from teams st where ${named} and ${inVisibleTeam(sql.ref('st.id'), access)})`,
  };
}

/** Every issue the caller sees, archived ones too: summed from the kept per-team counts. */
export async function countVisibleIssues(db: Db, access: TeamAccess): Promise<number> {
  const { rows } = await sql<{ n: string }>`select ${keptTotal(access, undefined, true)} as n`.execute(db);
  return Number(rows[0]!.n);
}

/** Each issue's labelIds, by the one definition and order (fields.ts), as REST reads them. */
export async function labelIdsOf(db: Db, ids: readonly string[]): Promise<Map<string, string[]>> {
  if (!ids.length) return new Map();
  const { rows } = await sql<{ id: string; label_ids: string[] }>`
    select t.id::text, ${labelIdsSql(sql.ref('t'))} as label_ids from issues t
    where t.id in (${sql.join(ids.map((id) => sql`${id}::uuid`))})`.execute(db);
  return new Map(rows.map((r) => [r.id, r.label_ids]));
}

/** Former identifiers of issues, only those given by teams the caller sees (visibility.issueIdentifier). */
export async function previousIdentifiersOf(db: Db, ids: readonly string[], access: TeamAccess) {
  if (!ids.length) return [];
  return db
    .selectFrom('issue_identifiers as ii')
    .innerJoin('issues as i', 'i.id', 'ii.issue_id')
    .select(['ii.issue_id', 'ii.identifier'])
    .where('ii.issue_id', 'in', [...ids])
    .whereRef('ii.identifier', '<>', 'i.identifier')
    .where(visibility.issueIdentifier('ii', access) as Expression<SqlBool>)
    .orderBy('ii.identifier')
    .execute();
}

/** Issue counts per team, live and all (archived too), from the issues themselves. */
export async function issueCountsByTeam(
  db: Db,
  teamIds: readonly string[],
): Promise<Map<string, { live: number; all: number }>> {
  if (!teamIds.length) return new Map();
  const { rows } = await sql<{ team_id: string; live: number; total: number }>`
    select team_id::text, count(*) filter (where archived_at is null)::int as live, count(*)::int as total
    from issues where team_id in (${sql.join(teamIds.map((id) => sql`${id}::uuid`))}) group by team_id`.execute(
    db,
  );
  return new Map(rows.map((r) => [r.team_id, { live: Number(r.live), all: Number(r.total) }]));
}

/** How many issues each user created, among those the caller sees. */
export async function createdIssueCounts(
  db: Db,
  userIds: readonly string[],
  access: TeamAccess,
): Promise<Map<string, number>> {
  if (!userIds.length) return new Map();
  const { rows } = await sql<{ creator_id: string; n: number }>`
    select t.creator_id::text, count(*)::int as n from issues t
    where t.creator_id in (${sql.join(userIds.map((id) => sql`${id}::uuid`))})
    and ${visibility.issue('t', access)} group by t.creator_id`.execute(db);
  return new Map(rows.map((r) => [r.creator_id, Number(r.n)]));
}

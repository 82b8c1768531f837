// Per-request DataLoaders: every by-id load and every nested connection is
// batched into one statement per kind per tick, so a page of 50 issues costs
// the same number of statements as a page of 5.
import DataLoader from 'dataloader';
import type { Expression, Selectable, SqlBool } from 'kysely';
import { type RawBuilder, sql } from 'kysely';
import { labelIdsSql } from '../modules/issues/fields.js';
import { type MilestoneState, milestoneStates } from '../modules/milestones/status.js';
import { emptyProgress, type Progress, progressBy } from '../modules/projects/progress.js';
import { type TeamAccess, type Visibility, visibility } from '../platform/access.js';
import type { Db } from '../platform/db/database.js';
import {
  type AttachmentRow,
  type CommentRow,
  type CustomViewRow,
  type CycleRow,
  ISSUE_COLUMNS,
  type IssueRelationRow,
  type IssueRow,
  type LabelRow,
  type MilestoneRow,
  type ProjectRow,
  type StateRow,
  type TeamMembershipsTable,
  type TeamRow,
  type UserRow,
} from '../platform/db/tables.js';
import { isUuid } from '../platform/ids.js';
import type { Page } from '../platform/list/runner.js';
import type { PageArgs } from '../platform/list/window.js';

type TeamMembershipRow = Selectable<TeamMembershipsTable>;

export { isUuid };

export type Table =
  | 'users'
  | 'teams'
  | 'workflow_states'
  | 'projects'
  | 'cycles'
  | 'labels'
  | 'issues'
  | 'comments'
  | 'attachments'
  | 'issue_relations'
  | 'project_milestones'
  | 'custom_views';

const VISIBLE: Record<Table, Visibility> = {
  users: visibility.user,
  teams: visibility.team,
  workflow_states: visibility.workflowState,
  projects: visibility.project,
  cycles: visibility.cycle,
  labels: visibility.label,
  issues: visibility.issue,
  comments: visibility.comment,
  attachments: visibility.attachment,
  issue_relations: visibility.issueRelation,
  project_milestones: visibility.projectMilestone,
  custom_views: visibility.customView,
};

const ISSUE_SELECT = sql.raw(ISSUE_COLUMNS.map((c) => `t.${c}`).join(', '));

/** The one by-id read of a table: its columns and the caller's visibility rule, for the rows whose id is `id` (SQL). */
function visibleById(table: Table, id: RawBuilder<unknown>, access: TeamAccess) {
  return sql`select ${table === 'issues' ? ISSUE_SELECT : sql`t.*`} from ${sql.table(table)} as t
    where t.id ${id} and ${VISIBLE[table]('t', access)}`;
}

/** Rows by id that the caller may see; the others load as null, like unknown ids. */
function byId<R extends { id: string }>(db: Db, table: Table, access: () => Promise<TeamAccess>) {
  return new DataLoader<string, R | null>(async (ids) => {
    const valid = ids.filter(isUuid);
    const rows = valid.length
      ? (
          await sql<R>`${visibleById(table, sql`in (${sql.join(valid.map((id) => sql`${id}::uuid`))})`, await access())}`.execute(
            db,
          )
        ).rows
      : [];
    const map = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => map.get(id) ?? null);
  });
}

/** The table behind each by-id loader. */
const BY_ID_TABLE = {
  user: 'users',
  team: 'teams',
  state: 'workflow_states',
  project: 'projects',
  cycle: 'cycles',
  label: 'labels',
  issue: 'issues',
  comment: 'comments',
  attachment: 'attachments',
  issueRelation: 'issue_relations',
  projectMilestone: 'project_milestones',
  customView: 'custom_views',
} as const satisfies Record<string, Table>;

export type ByIdLoader = keyof typeof BY_ID_TABLE;

function grouped<V>(load: (ids: string[]) => Promise<{ key: string; value: V }[]>) {
  return new DataLoader<string, V[]>(async (ids) => {
    const rows = await load([...ids]);
    const map = new Map<string, V[]>();
    for (const r of rows) map.set(r.key, [...(map.get(r.key) ?? []), r.value]);
    return ids.map((id) => map.get(id) ?? []);
  });
}

export function createLoaders(db: Db, access: () => Promise<TeamAccess>) {
  const pageLoaders = new Map<string, DataLoader<string, Page<unknown>>>();
  return {
    user: byId<UserRow>(db, BY_ID_TABLE.user, access),
    team: byId<TeamRow>(db, BY_ID_TABLE.team, access),
    state: byId<StateRow>(db, BY_ID_TABLE.state, access),
    project: byId<ProjectRow>(db, BY_ID_TABLE.project, access),
    cycle: byId<CycleRow>(db, BY_ID_TABLE.cycle, access),
    label: byId<LabelRow>(db, BY_ID_TABLE.label, access),
    issue: byId<IssueRow>(db, BY_ID_TABLE.issue, access),
    comment: byId<CommentRow>(db, BY_ID_TABLE.comment, access),
    attachment: byId<AttachmentRow>(db, BY_ID_TABLE.attachment, access),
    issueRelation: byId<IssueRelationRow>(db, BY_ID_TABLE.issueRelation, access),
    projectMilestone: byId<MilestoneRow>(db, BY_ID_TABLE.projectMilestone, access),
    customView: byId<CustomViewRow>(db, BY_ID_TABLE.customView, access),
    /**
     * Users by id whoever may see them: a saved view names its owner and
     * creator to everyone it is shared with (CustomView.owner is non-null),
     * even a guest who would not otherwise see that user.
     */
    viewPeople: new DataLoader<string, UserRow | null>(async (ids) => {
      const rows = await db
        .selectFrom('users')
        .selectAll()
        .where('id', 'in', [...ids])
        .execute();
      const map = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => map.get(id) ?? null);
    }),
    /** Progress and status of every milestone of a project (status depends on the siblings). */
    projectMilestoneStates: new DataLoader<string, Map<string, MilestoneState>>(async (projectIds) => {
      const states = await milestoneStates(db, projectIds, await access(), new Date());
      return projectIds.map(() => states);
    }),
    // The one definition of labelIds and its order (modules/issues/fields.ts), as REST reads it.
    issueLabelIds: new DataLoader<string, string[]>(async (ids) => {
      const rows = await sql<{ id: string; label_ids: string[] }>`
        select t.id::text, ${labelIdsSql(sql.ref('t'))} as label_ids from issues t
        where t.id in (${sql.join(ids.map((id) => sql`${id}::uuid`))})`.execute(db);
      const map = new Map(rows.rows.map((r) => [r.id, r.label_ids]));
      return ids.map((id) => map.get(id) ?? []);
    }),
    previousIdentifiers: grouped<string>(async (ids) => {
      const seen = visibility.issueIdentifier('ii', await access()) as Expression<SqlBool>;
      return (
        await db
          .selectFrom('issue_identifiers as ii')
          .innerJoin('issues as i', 'i.id', 'ii.issue_id')
          .select(['ii.issue_id', 'ii.identifier'])
          .where('ii.issue_id', 'in', ids)
          .whereRef('ii.identifier', '<>', 'i.identifier')
          .where(seen)
          .orderBy('ii.identifier')
          .execute()
      ).map((r) => ({ key: r.issue_id, value: r.identifier }));
    }),
    /** Live issue counts per team: [all, including archived]. Only visible teams are loaded, so all their issues count. */
    teamIssueCounts: new DataLoader<string, { live: number; all: number }>(async (ids) => {
      const rows = await sql<{ team_id: string; live: number; total: number }>`
        select team_id::text, count(*) filter (where archived_at is null)::int as live, count(*)::int as total
        from issues where team_id in (${sql.join(ids.map((id) => sql`${id}::uuid`))}) group by team_id`.execute(
        db,
      );
      const map = new Map(rows.rows.map((r) => [r.team_id, { live: Number(r.live), all: Number(r.total) }]));
      return ids.map((id) => map.get(id) ?? { live: 0, all: 0 });
    }),
    /** Issues each user created, among those the caller sees. */
    createdIssueCounts: new DataLoader<string, number>(async (ids) => {
      const rows = await sql<{ creator_id: string; n: number }>`
        select t.creator_id::text, count(*)::int as n from issues t
        where t.creator_id in (${sql.join(ids.map((id) => sql`${id}::uuid`))})
        and ${visibility.issue('t', await access())} group by t.creator_id`.execute(db);
      const map = new Map(rows.rows.map((r) => [r.creator_id, Number(r.n)]));
      return ids.map((id) => map.get(id) ?? 0);
    }),
    /** Issue progress of projects and cycles, one grouped query per page. */
    projectProgress: new DataLoader<string, Progress>(async (ids) => {
      const map = await progressBy(db, 'project_id', ids, await access());
      return ids.map((id) => map.get(id) ?? emptyProgress());
    }),
    cycleProgress: new DataLoader<string, Progress>(async (ids) => {
      const map = await progressBy(db, 'cycle_id', ids, await access());
      return ids.map((id) => map.get(id) ?? emptyProgress());
    }),
    /** Team cycles (id, starts, ends), to tell which one is next, previous, active. */
    teamCycles: grouped<{ id: string; starts_at: Date; ends_at: Date }>(async (ids) =>
      (
        await db
          .selectFrom('cycles')
          .select(['id', 'team_id', 'starts_at', 'ends_at'])
          .where('team_id', 'in', ids)
          .where('archived_at', 'is', null)
          .execute()
      ).map((r) => ({ key: r.team_id, value: r })),
    ),
    teamStates: grouped<StateRow>(async (ids) =>
      (
        await db
          .selectFrom('workflow_states')
          .selectAll()
          .where('team_id', 'in', ids)
          .where('archived_at', 'is', null)
          .orderBy('position')
          .execute()
      ).map((r) => ({ key: r.team_id, value: r })),
    ),
    /** Live team memberships, by user. */
    memberships: grouped<TeamMembershipRow>(async (ids) =>
      (
        await db
          .selectFrom('team_memberships')
          .selectAll()
          .where('user_id', 'in', ids)
          .where('archived_at', 'is', null)
          .execute()
      ).map((r) => ({ key: r.user_id, value: r })),
    ),
    /**
     * A page per parent for one relation and one set of arguments. `key`
     * names the relation; loading with the same key and args batches.
     */
    pages<R>(
      key: string,
      args: PageArgs & { filter?: unknown },
      load: (ids: readonly string[]) => Promise<Map<string, Page<R>>>,
    ) {
      const cacheKey = `${key}:${JSON.stringify(args)}`;
      let loader = pageLoaders.get(cacheKey);
      if (!loader) {
        loader = new DataLoader<string, Page<unknown>>(async (ids) => {
          const pages = await load(ids);
          return ids.map((id) => pages.get(id) as Page<unknown>);
        });
        pageLoaders.set(cacheKey, loader);
      }
      return loader as unknown as DataLoader<string, Page<R>>;
    },
  };
}

export type Loaders = ReturnType<typeof createLoaders>;

// Per-request DataLoaders, the resolver fallback's one way to read a relation:
// every by-id load and every nested connection is batched into one statement
// per kind per tick, so a page of 50 issues costs the same number of
// statements as a page of 5. The statements live with their domains
// (modules/*/queries.ts) and the list plumbing (platform/list/).
import DataLoader from 'dataloader';
import { liveCyclesOfTeams } from '../modules/cycles/queries.js';
import type { PullRequestMarker } from '../modules/git/fields.js';
import { pullRequestMarkersOf } from '../modules/git/queries.js';
import {
  createdIssueCounts,
  issueCountsByTeam,
  labelIdsOf,
  previousIdentifiersOf,
} from '../modules/issues/queries.js';
import { type MilestoneState, milestoneStates } from '../modules/milestones/status.js';
import { lastUpdatesOf } from '../modules/project-updates/queries.js';
import { emptyProgress } from '../modules/projects/progress.js';
import { progressBy } from '../modules/projects/queries.js';
import type { ReactionTarget } from '../modules/reactions/fields.js';
import { reactionDataOf, reactionsOf } from '../modules/reactions/queries.js';
import { liveStatesOfTeams } from '../modules/states/queries.js';
import { liveMembershipsOfUsers } from '../modules/teams/queries.js';
import { findUsersByIds } from '../modules/users/queries.js';
import type { TeamAccess } from '../platform/access.js';
import type { Db } from '../platform/db/database.js';
import type {
  AttachmentRow,
  CommentRow,
  CustomViewRow,
  CycleRow,
  IssueRelationRow,
  IssueRow,
  LabelRow,
  MilestoneRow,
  ProjectRow,
  ProjectUpdateRow,
  ReactionRow,
  StateRow,
  TeamMembershipRow,
  TeamRow,
  UserRow,
} from '../platform/db/tables.js';
import { type ByIdTable, visibleRowsById } from '../platform/list/by-id.js';
import type { Page } from '../platform/list/runner.js';
import type { PageArgs } from '../platform/list/window.js';

/** Rows by id that the caller may see; the others load as null, like unknown ids. */
function byId<R extends { id: string }>(db: Db, table: ByIdTable, access: () => Promise<TeamAccess>) {
  return new DataLoader<string, R | null>(async (ids) => {
    const rows = await visibleRowsById<R>(db, table, ids, await access());
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
  projectUpdate: 'project_updates',
  customView: 'custom_views',
} as const satisfies Record<string, ByIdTable>;

export type ByIdLoader = keyof typeof BY_ID_TABLE;

/** A loader of values per key from one read for all keys (`key` names each row's parent). */
function grouped<V>(load: (ids: string[]) => Promise<{ key: string; value: V }[]>) {
  return new DataLoader<string, V[]>(async (ids) => {
    const rows = await load([...ids]);
    const map = new Map<string, V[]>();
    for (const r of rows) map.set(r.key, [...(map.get(r.key) ?? []), r.value]);
    return ids.map((id) => map.get(id) ?? []);
  });
}

/** A loader of one value per key from a map read for all keys; `empty` for a key the map lacks. */
function mapped<V>(load: (ids: readonly string[]) => Promise<Map<string, V>>, empty: () => V) {
  return new DataLoader<string, V>(async (ids) => {
    const map = await load(ids);
    return ids.map((id) => map.get(id) ?? empty());
  });
}

export function createLoaders(db: Db, access: () => Promise<TeamAccess>) {
  const pageLoaders = new Map<string, DataLoader<string, Page<unknown>>>();
  // The reactions of the parents of a page (seen with them: a reaction's rule is its issue's).
  const reactions = (target: ReactionTarget) =>
    grouped<ReactionRow>(async (ids) =>
      (await reactionsOf(db, target, ids)).map((r) => ({
        key: target === 'comment' ? r.comment_id! : r.issue_id,
        value: r,
      })),
    );
  const reactionData = (target: ReactionTarget) =>
    mapped(
      async (ids) => reactionDataOf(db, target, ids, await access()),
      (): unknown => [],
    );
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
    projectUpdate: byId<ProjectUpdateRow>(db, BY_ID_TABLE.projectUpdate, access),
    customView: byId<CustomViewRow>(db, BY_ID_TABLE.customView, access),
    /**
     * Users by id whoever may see them: a saved view names its owner and
     * creator to everyone it is shared with (CustomView.owner is non-null),
     * even a guest who would not otherwise see that user.
     */
    viewPeople: new DataLoader<string, UserRow | null>(async (ids) => {
      const map = new Map((await findUsersByIds(db, ids)).map((r) => [r.id, r]));
      return ids.map((id) => map.get(id) ?? null);
    }),
    /** Progress and status of every milestone of a project (status depends on the siblings). */
    projectMilestoneStates: new DataLoader<string, Map<string, MilestoneState>>(async (projectIds) => {
      const states = await milestoneStates(db, projectIds, await access(), new Date());
      return projectIds.map(() => states);
    }),
    /** Each project's newest live update (Project.lastUpdate), among projects the caller sees. */
    lastProjectUpdates: mapped(
      (ids) => lastUpdatesOf(db, ids),
      (): ProjectUpdateRow | null => null,
    ),
    issueReactions: reactions('issue'),
    commentReactions: reactions('comment'),
    issueReactionData: reactionData('issue'),
    commentReactionData: reactionData('comment'),
    issueLabelIds: mapped(
      (ids) => labelIdsOf(db, ids),
      () => [],
    ),
    pullRequestMarkers: mapped(
      (ids) => pullRequestMarkersOf(db, ids),
      (): PullRequestMarker | null => null,
    ),
    previousIdentifiers: grouped<string>(async (ids) =>
      (await previousIdentifiersOf(db, ids, await access())).map((r) => ({
        key: r.issue_id,
        value: r.identifier,
      })),
    ),
    /** Issue counts per team: live and all. Only visible teams are loaded, so all their issues count. */
    teamIssueCounts: mapped(
      (ids) => issueCountsByTeam(db, ids),
      () => ({ live: 0, all: 0 }),
    ),
    /** Issues each user created, among those the caller sees. */
    createdIssueCounts: mapped(
      async (ids) => createdIssueCounts(db, ids, await access()),
      () => 0,
    ),
    /** Issue progress of projects and cycles, one grouped query per page. */
    projectProgress: mapped(async (ids) => progressBy(db, 'project_id', ids, await access()), emptyProgress),
    cycleProgress: mapped(async (ids) => progressBy(db, 'cycle_id', ids, await access()), emptyProgress),
    /** Team cycles (id, starts, ends), to tell which one is next, previous, active. */
    teamCycles: grouped<{ id: string; starts_at: Date; ends_at: Date }>(async (ids) =>
      (await liveCyclesOfTeams(db, ids)).map((r) => ({ key: r.team_id, value: r })),
    ),
    teamStates: grouped<StateRow>(async (ids) =>
      (await liveStatesOfTeams(db, ids)).map((r) => ({ key: r.team_id, value: r })),
    ),
    /** Live team memberships, by user. */
    memberships: grouped<TeamMembershipRow>(async (ids) =>
      (await liveMembershipsOfUsers(db, ids)).map((r) => ({ key: r.user_id, value: r })),
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

// One declaration per entity: its fields under the API's names, each as SQL
// over the entity's row, and its relations. The visibility rule comes with
// the entity's filter spec (platform/list/entities.ts, written once in
// platform/access.ts) and is applied by the compiler at every level.
// Computed fields are written here once, with the caller's visibility
// (branchName reads the name of a user only when the caller sees that user).
import { sql } from 'kysely';
import { clockSql, cyclePhaseSql } from '../../modules/cycles/fields.js';
import type { FlagKey } from '../../modules/flags/catalog.js';
import { pullRequestMarkerSql } from '../../modules/git/fields.js';
import { branchNameSql, childProgressSql, labelIdsSql } from '../../modules/issues/fields.js';
import { PRIORITIES, PRIORITY_LABELS } from '../../modules/issues/priorities.js';
import { todayUtc } from '../../modules/milestones/status.js';
import { MAIL_LINE, NOTIFICATION_CATEGORY, REPLY_LINE } from '../../modules/notifications/notify.js';
import {
  DEFAULT_STATUS_COLOR,
  INDEFINITE_STATUSES,
  lastProjectUpdateSql,
  milestoneStatusSql,
  PROJECT_STATUS_COLORS,
  type ProgressOwner,
  progressRatioSql,
  progressScopeSql,
  progressSql,
} from '../../modules/projects/fields.js';
import { type ReactionTarget, reactionDataSql, reactionIdsSql } from '../../modules/reactions/fields.js';
import { GRAPHQL_RESOURCE_NAMES } from '../../modules/webhooks/resources.js';
import { inVisibleTeam, visibility } from '../access.js';
import { ISSUE_COLUMNS, PROJECT_STATUSES } from '../db/tables.js';
import {
  attachmentEntity,
  commentEntity,
  customViewEntity,
  cycleEntity,
  fileEntity,
  historyEntity,
  issueEntity,
  issueRelationEntity,
  labelEntity,
  membershipEntity,
  notificationEntity,
  projectEntity,
  projectMilestoneEntity,
  projectUpdateEntity,
  reactionEntity,
  teamEntity,
  userEntity,
  webhookAttemptEntity,
  webhookDeliveryEntity,
  webhookEntity,
  workflowStateEntity,
} from '../list/entities.js';
import { mayHide, visibleRule } from './compile.js';
import { constant, integer, json, literal, projectSlug, type Sql, timestamp, uuid } from './json.js';
import type { Embedded, Entity, Field, ReadContext } from './model.js';

const at = (row: Sql, column: string) => sql`${row}.${sql.ref(column)}`;

/** A column as stored. */
const col = (column: string): Field => ({ kind: 'value', json: (row) => json(at(row, column)) });
/** A uuid column (an id or a reference by id). */
const key = (column: string): Field => ({ kind: 'value', json: (row) => uuid(at(row, column)) });
/** An integer column. */
const int = (column: string): Field => ({ kind: 'value', json: (row) => integer(at(row, column)) });
/** A timestamptz column, in the API's format. */
const stamp = (column: string): Field => ({ kind: 'value', json: (row) => timestamp(at(row, column)) });
/** Any other value over the row. */
const value = (f: (row: Sql, c: ReadContext) => Sql): Field => ({
  kind: 'value',
  json: (row, c) => json(f(row, c)),
});
const fixed = (v: unknown): Field => ({ kind: 'value', json: () => constant(v) });
const one = (to: () => Entity, key: string, sameTeam = false): Field => ({ kind: 'one', to, key, sameTeam });
/** The rows of `to` whose column `column` holds the parent's id. */
const many = (to: () => Entity, column: string): Field => ({
  kind: 'many',
  to,
  via: { parentKey: sql.ref(`t.${column}`) },
});
/**
 * The rows of `to` (table `table`) joined through the link table `link`, whose
 * `toColumn` names the row and `parentColumn` the parent (issue labels, project members).
 */
const through = (
  to: () => Entity,
  table: string,
  link: { table: string; toColumn: string; parentColumn: string; live?: boolean },
): Field => ({
  kind: 'many',
  to,
  via: {
    from: sql`${sql.table(table)} as t join ${sql.table(link.table)} as l on l.${sql.ref(link.toColumn)} = t.id${
      link.live ? sql` and l.archived_at is null` : sql``
    }`,
    parentKey: sql.ref(`l.${link.parentColumn}`),
  },
});
/** A connection refused while `feature` is off, as its resolver refuses it. */
const gated = (feature: FlagKey, field: Field): Field => {
  if (field.kind !== 'many' || 'plain' in field) throw new Error('only a connection is behind a feature');
  return { ...field, feature };
};
/** Team memberships as a link between users and teams: the live ones (an archived membership links nothing). */
const membership = (toColumn: string, parentColumn: string) => ({
  table: 'team_memberships',
  toColumn,
  parentColumn,
  live: true,
});
/** A key column, null when the row it names is out of the caller's sight. */
const seenId = (column: string, to: () => Entity): Field => ({
  kind: 'value',
  json: (row, c) => {
    const target = to();
    if (!mayHide(target, c)) return uuid(at(row, column));
    const alias = sql.raw(`seen_${column}`);
    return json(
      sql`(select ${alias}.id from ${sql.table(target.table)} as ${alias} where ${alias}.id = ${at(row, column)} and ${target.spec.visible!(`seen_${column}`, c.access)})`,
    );
  },
});
const stamps = { id: key('id'), createdAt: stamp('created_at'), updatedAt: stamp('updated_at') };

/** A target's reactions (a plain list, first given first) and their summary by emoji (reactions/fields.ts). */
const reactionFields = (target: ReactionTarget): Record<string, Field> => ({
  reactions: {
    kind: 'many',
    plain: true,
    to: () => reaction,
    ids: (row) => reactionIdsSql(target, at(row, 'id')),
    present: () => sql`true`,
  },
  reactionData: value((row, c) => reactionDataSql(target, at(row, 'id'), c.access)),
});

/**
 * REST's progress of the live issues the caller sees whose `column` is the
 * row's id (projects/progress.ts counts a page the same way): canceled ones
 * out of scope, progress = completed / in scope, 0 when none.
 */
/** REST's progress object: issueCount, completedIssueCount, startedIssueCount, progress (projects/fields.ts). */
const progressCounts = (column: ProgressOwner): Field =>
  value((row, c) => progressSql(column, at(row, 'id'), c.access));

/** A cycle's status from its dates and completion: past, current or upcoming. */
const priorityLabel = (priority: Sql) =>
  sql`(case ${priority} ${sql.join(
    PRIORITY_LABELS.map((label, i) => sql`when ${sql.lit(i)} then ${literal(label)}`),
    sql` `,
  )} else ${literal(PRIORITIES[0].label)} end)`;

/** An issue's link: the identifier, then its title's slug as kept with the row (migration 0031). */
const issueUrl = (row: Sql, c: ReadContext) =>
  sql`${c.publicUrl} || '/issue/' || ${at(row, 'identifier')} || coalesce('/' || nullif(${at(row, 'title_slug')}, ''), '')`;

export const issue: Entity = {
  name: 'Issue',
  table: 'issues',
  columns: [...ISSUE_COLUMNS, 'title_slug'],
  spec: issueEntity,
  archivable: true,
  fields: {
    ...stamps,
    identifier: col('identifier'),
    title: col('title'),
    description: col('description'),
    number: int('number'),
    priority: int('priority'),
    estimate: col('estimate'),
    dueDate: col('due_date'),
    sortOrder: col('sort_order'),
    boardOrder: col('sort_order'),
    archivedAt: stamp('archived_at'),
    startedAt: stamp('started_at'),
    completedAt: stamp('completed_at'),
    canceledAt: stamp('canceled_at'),
    snoozedUntilAt: stamp('snoozed_until_at'),
    priorityLabel: value((row) => priorityLabel(at(row, 'priority'))),
    prioritySortOrder: value(
      (row) => sql`(case when ${at(row, 'priority')} = 0 then 5 else ${at(row, 'priority')} end)`,
    ),
    // The slugs are kept with the rows (migration 0031): title_slug, and users.name_slug
    // (branchOwnerSql); `sep || nullif(slug, '')` is null when the slug is empty.
    url: value((row, c) => issueUrl(row, c)),
    // The workspace's format filled in SQL (issues/fields.ts, the twin of its branchName).
    branchName: value((row, c) => branchNameSql(row, c.access)),
    // By label id, as every door orders them (issues/fields.ts).
    labelIds: value((row) => labelIdsSql(row)),
    /** Former identifiers, only those given by teams the caller sees (visibility.issueIdentifier). */
    previousIdentifiers: value(
      (row, c) => sql`array(select ii.identifier from issue_identifiers ii
        where ii.issue_id = ${at(row, 'id')} and ii.identifier <> ${at(row, 'identifier')}
        and ${visibility.issueIdentifier('ii', c.access)} order by ii.identifier)`,
    ),
    // The references by id, as REST names them: one the caller may not see reads as null,
    // as the relation would (a member sees every user, a guest only those of their teams).
    teamId: key('team_id'),
    stateId: key('state_id'),
    assigneeId: seenId('assignee_id', () => user),
    snoozedById: seenId('snoozed_by_id', () => user),
    creatorId: seenId('creator_id', () => user),
    projectId: seenId('project_id', () => project),
    // A milestone is seen with its project.
    projectMilestoneId: value((row, c) =>
      mayHide(project, c)
        ? sql`(select ${at(row, 'project_milestone_id')} from projects pm where pm.id = ${at(row, 'project_id')} and ${project.spec.visible!('pm', c.access)})`
        : at(row, 'project_milestone_id'),
    ),
    cycleId: key('cycle_id'),
    parentId: seenId('parent_id', () => issue),
    /** The compact pull request marker of lists and boards (git/fields.ts); null without one. */
    pullRequestMarker: value((row) => pullRequestMarkerSql(row)),
    /** Live sub-issues the caller sees: all, completed, canceled (issues/fields.ts). */
    childProgress: value((row, c) => childProgressSql(row, c.access)),
    team: one(() => team, 'team_id', true),
    state: one(() => workflowState, 'state_id', true),
    assignee: one(() => user, 'assignee_id'),
    snoozedBy: one(() => user, 'snoozed_by_id'),
    creator: one(() => user, 'creator_id'),
    botActor: one(() => actorBot, 'creator_id'),
    project: one(() => project, 'project_id'),
    cycle: one(() => cycle, 'cycle_id', true),
    projectMilestone: one(() => milestone, 'project_milestone_id'),
    parent: one(() => issue, 'parent_id'),
    comments: many(() => comment, 'issue_id'),
    children: many(() => issue, 'parent_id'),
    labels: through(() => label, 'labels', {
      table: 'issue_labels',
      toColumn: 'label_id',
      parentColumn: 'issue_id',
    }),
    subscribers: through(() => user, 'users', {
      table: 'issue_subscribers',
      toColumn: 'user_id',
      parentColumn: 'issue_id',
    }),
    attachments: many(() => attachment, 'issue_id'),
    // Both ends must be seen: the list's rule (visibility.issueRelation) hides a relation to an unseen issue.
    relations: many(() => issueRelation, 'issue_id'),
    inverseRelations: many(() => issueRelation, 'related_issue_id'),
    history: many(() => issueHistory, 'issue_id'),
    ...reactionFields('issue'),
  },
};

export const user: Entity = {
  name: 'User',
  table: 'users',
  spec: userEntity,
  seenByMembers: true,
  archivable: false,
  // Deleted accounts and apps' own users are never listed; suspended accounts only with includeDisabled.
  scope: (args) => [
    sql`t.deleted_at is null`,
    args.includeDisabled ? sql`t.status <> 'app'` : sql`t.status = 'active'`,
  ],
  fields: (() => {
    const usable = value(
      (row) => sql`(${at(row, 'deleted_at')} is null and ${at(row, 'status')} = 'active')`,
    );
    return {
      ...stamps,
      name: col('name'),
      displayName: col('display_name'),
      email: col('email'),
      avatarUrl: col('avatar_url'),
      // REST's account role and status, which GraphQL tells as admin, guest and active.
      role: col('role'),
      status: col('status'),
      archivedAt: stamp('deleted_at'),
      active: usable,
      isAssignable: usable,
      isMentionable: usable,
      admin: value((row) => sql`(${at(row, 'role')} = 'admin')`),
      guest: value((row) => sql`(${at(row, 'role')} = 'guest')`),
      canAccessAnyPublicTeam: value((row) => sql`(${at(row, 'role')} <> 'guest')`),
      isMe: value((row, c) => sql`(${at(row, 'id')} = ${c.viewerId}::uuid)`),
      // An OAuth app's own user (actor=app, migration 0053).
      app: value((row) => sql`(${at(row, 'status')} = 'app')`),
      disableReason: value((row) => sql`(case when ${at(row, 'status')} = 'suspended' then 'suspended' end)`),
      url: value((row, c) => sql`${c.publicUrl} || '/users/' || ${at(row, 'id')}::text`),
      // Kept with the row (migration 0032), which the resolvers' node reads too.
      initials: col('initials'),
      avatarBackgroundColor: col('avatar_color'),
      assignedIssues: many(() => issue, 'assignee_id'),
      createdIssues: many(() => issue, 'creator_id'),
      teamMemberships: many(() => teamMembership, 'user_id'),
      teams: through(() => team, 'teams', membership('team_id', 'user_id')),
    } satisfies Record<string, Field>;
  })(),
};

/**
 * The app that wrote a record under its own name (actor=app, docs/agents.md
 * "Apps as actors"): the app's own user, named by its OAuth client. A
 * record's botActor is null when a person wrote it (graphql/resolvers/bot-actor.ts
 * answers the same where a read is not compiled).
 */
export const actorBot: Entity = {
  name: 'ActorBot',
  table: 'users',
  spec: userEntity,
  seenByMembers: true,
  archivable: false,
  only: (row) => sql`${at(row, 'status')} = 'app'`,
  fields: {
    id: col('app_client_id'),
    name: col('name'),
    type: fixed('oauthClient'),
    subType: fixed(null),
    avatarUrl: col('avatar_url'),
    userDisplayName: fixed(null),
  },
};

export const team: Entity = {
  name: 'Team',
  table: 'teams',
  spec: teamEntity,
  archivable: true,
  fields: {
    ...stamps,
    key: col('key'),
    name: col('name'),
    displayName: col('name'),
    description: col('description'),
    color: col('color'),
    icon: col('icon'),
    private: col('private'),
    archivedAt: stamp('archived_at'),
    cyclesEnabled: col('cycles_enabled'),
    triageEnabled: col('triage_enabled'),
    timezone: col('timezone'),
    // Cycle settings (modules/cycles/settings.ts); durations in weeks, the start day 0 (Sunday) .. 6.
    cycleDuration: int('cycle_duration'),
    cycleCooldownTime: int('cycle_cooldown'),
    cycleStartDay: int('cycle_start_day'),
    upcomingCycleCount: int('upcoming_cycle_count'),
    // REST's: whether the cycle worker plans cycles, and rolls unfinished issues over.
    cyclesAutomatic: col('cycles_automatic'),
    cycleRollover: col('cycle_rollover'),
    visibility: value((row) => sql`(case when ${at(row, 'private')} then 'private' else 'public' end)`),
    allMembersCanJoin: value((row) => sql`(not ${at(row, 'private')})`),
    // REST's: the last issue number taken, and (in its list) the number of memberships.
    lastIssueNumber: col('issue_count'),
    memberCount: value(
      (row) => sql`(select count(*)::int from team_memberships m where m.team_id = ${at(row, 'id')})`,
    ),
    issueEstimationType: fixed('notUsed'),
    setIssueSortOrderOnStateChange: fixed('none'),
    states: many(() => workflowState, 'team_id'),
    memberships: many(() => teamMembership, 'team_id'),
    members: through(() => user, 'users', membership('user_id', 'team_id')),
    issues: many(() => issue, 'team_id'),
    // A team's labels are its own and the workspace's (no team).
    labels: {
      kind: 'many',
      to: () => label,
      via: {
        from: sql`labels as t join teams as o on (t.team_id = o.id or t.team_id is null)`,
        parentKey: sql.ref('o.id'),
      },
    },
    // Admins' alone (the webhook declaration's adminOnly).
    webhooks: many(() => webhook, 'team_id'),
    cycles: gated(
      'cycles',
      many(() => cycle, 'team_id'),
    ),
    // A project is on every team it links.
    projects: gated(
      'projects',
      through(() => project, 'projects', {
        table: 'project_teams',
        toColumn: 'project_id',
        parentColumn: 'team_id',
      }),
    ),
  },
};

/**
 * A user's place in a team. Seen with its team; its user is seen then too (a
 * guest sees the people of their teams), so REST's userId is the column.
 */
export const teamMembership: Entity = {
  name: 'TeamMembership',
  table: 'team_memberships',
  spec: membershipEntity,
  archivable: true,
  fields: {
    ...stamps,
    owner: col('owner'),
    sortOrder: col('sort_order'),
    archivedAt: stamp('archived_at'),
    team: one(() => team, 'team_id'),
    user: one(() => user, 'user_id'),
    teamId: key('team_id'),
    userId: key('user_id'),
  },
};

export const workflowState: Entity = {
  name: 'WorkflowState',
  table: 'workflow_states',
  spec: workflowStateEntity,
  archivable: true,
  fields: {
    ...stamps,
    name: col('name'),
    type: col('type'),
    color: col('color'),
    description: col('description'),
    position: col('position'),
    archivedAt: stamp('archived_at'),
    teamId: key('team_id'),
    team: one(() => team, 'team_id', true),
    issues: many(() => issue, 'state_id'),
  },
};

export const label: Entity = {
  name: 'IssueLabel',
  table: 'labels',
  spec: labelEntity,
  archivable: true,
  fields: {
    ...stamps,
    name: col('name'),
    description: col('description'),
    color: col('color'),
    isGroup: col('is_group'),
    archivedAt: stamp('archived_at'),
    // REST's references by id (a group is in the label's team or the workspace's).
    teamId: key('team_id'),
    parentId: key('parent_id'),
    creatorId: seenId('creator_id', () => user),
    // A workspace label has no team.
    team: one(() => team, 'team_id', true),
    parent: one(() => label, 'parent_id'),
    creator: one(() => user, 'creator_id'),
    children: many(() => label, 'parent_id'),
    issues: through(() => issue, 'issues', {
      table: 'issue_labels',
      toColumn: 'issue_id',
      parentColumn: 'label_id',
    }),
  },
};

export const comment: Entity = {
  name: 'Comment',
  table: 'comments',
  spec: commentEntity,
  archivable: true,
  fields: {
    ...stamps,
    body: col('body'),
    issueId: key('issue_id'),
    parentId: key('parent_id'),
    // REST's author id; REST has deletedAt where GraphQL folds it into archivedAt.
    userId: seenId('user_id', () => user),
    deletedAt: stamp('deleted_at'),
    editedAt: stamp('edited_at'),
    resolvedAt: stamp('resolved_at'),
    // No deletedAt in the schema: a deleted comment kept for its replies shows as archived at its deletion.
    archivedAt: {
      kind: 'value',
      json: (row) => timestamp(sql`coalesce(${at(row, 'deleted_at')}, ${at(row, 'archived_at')})`),
    },
    user: one(() => user, 'user_id'),
    botActor: one(() => actorBot, 'user_id'),
    issue: one(() => issue, 'issue_id', true),
    parent: one(() => comment, 'parent_id', true),
    children: many(() => comment, 'parent_id'),
    ...reactionFields('comment'),
  },
};

/**
 * An emoji reaction on an issue or on one of its comments, seen with its
 * issue. `issue` is the issue reacted to (none for a comment's reaction, as
 * the schema has one target per reaction); REST's issueId is always the issue.
 */
export const reaction: Entity = {
  name: 'Reaction',
  table: 'reactions',
  spec: reactionEntity,
  archivable: false,
  fields: {
    ...stamps,
    emoji: col('emoji'),
    // Removing a reaction deletes it.
    archivedAt: fixed(null),
    user: one(() => user, 'user_id'),
    issue: {
      kind: 'one',
      to: () => issue,
      key: 'issue_id',
      keyOf: (row) => sql`(case when ${at(row, 'comment_id')} is null then ${at(row, 'issue_id')} end)`,
      sameTeam: true,
    },
    comment: one(() => comment, 'comment_id', true),
    // REST's references by id (the user null when out of the reader's sight, as GraphQL's user).
    issueId: key('issue_id'),
    commentId: key('comment_id'),
    userId: seenId('user_id', () => user),
  },
};

/** `case <value> when key then 'text' ... else 'otherwise' end`, from a table of constants. */
const lookup = (value: Sql, table: [string, unknown][], otherwise: unknown) => {
  const lit = (v: unknown) =>
    typeof v === 'string' ? literal(v) : v instanceof Object ? (v as Sql) : sql.lit(v);
  return sql`(case ${value} ${sql.join(
    table.map(([k, v]) => sql`when ${literal(k)} then ${lit(v)}`),
    sql` `,
  )} else ${lit(otherwise)} end)`;
};

/** A project's status as a ProjectStatus, over the project's row (projects/fields.ts projectStatusOf). */
const projectStatus: Embedded = {
  name: 'ProjectStatus',
  fields: {
    id: col('status'),
    type: col('status'),
    name: value((row) => sql`upper(left(${at(row, 'status')}, 1)) || substr(${at(row, 'status')}, 2)`),
    color: value((row) =>
      lookup(at(row, 'status'), Object.entries(PROJECT_STATUS_COLORS), DEFAULT_STATUS_COLOR),
    ),
    position: value((row) =>
      lookup(
        at(row, 'status'),
        PROJECT_STATUSES.map((s, i) => [s, i]),
        -1,
      ),
    ),
    indefinite: value(
      (row) => sql`(${at(row, 'status')} in (${sql.join(INDEFINITE_STATUSES.map(literal))}))`,
    ),
    createdAt: stamp('created_at'),
    updatedAt: stamp('created_at'),
  },
};

export const project: Entity = {
  name: 'Project',
  table: 'projects',
  spec: projectEntity,
  archivable: true,
  fields: {
    ...stamps,
    name: col('name'),
    description: col('description'),
    content: col('content'),
    slugId: col('slug_id'),
    color: col('color'),
    icon: col('icon'),
    state: col('status'),
    health: col('health'),
    healthUpdatedAt: stamp('health_updated_at'),
    startDate: col('start_date'),
    targetDate: col('target_date'),
    startedAt: stamp('started_at'),
    completedAt: stamp('completed_at'),
    canceledAt: stamp('canceled_at'),
    archivedAt: stamp('archived_at'),
    sortOrder: col('sort_order'),
    priorityLabel: fixed(PRIORITIES[0].label),
    frequencyResolution: fixed('weekly'),
    status: { kind: 'object', of: () => projectStatus },
    // Over the issues the caller sees (projects/fields.ts); scope is counted in issues.
    progress: value((row, c) => progressRatioSql('project_id', at(row, 'id'), c.access)),
    scope: value((row, c) => progressScopeSql('project_id', at(row, 'id'), c.access)),
    lead: one(() => user, 'lead_id'),
    creator: one(() => user, 'creator_id'),
    issues: many(() => issue, 'project_id'),
    members: through(() => user, 'users', {
      table: 'project_members',
      toColumn: 'user_id',
      parentColumn: 'project_id',
    }),
    teams: through(() => team, 'teams', {
      table: 'project_teams',
      toColumn: 'team_id',
      parentColumn: 'project_id',
    }),
    projectUpdates: many(() => projectUpdate, 'project_id'),
    projectMilestones: gated(
      'projects',
      many(() => milestone, 'project_id'),
    ),
    // Its newest update that is not archived (projects/fields.ts).
    lastUpdate: {
      kind: 'one',
      to: () => projectUpdate,
      key: 'id',
      keyOf: (row) => lastProjectUpdateSql(at(row, 'id')),
      sameTeam: true,
    },
    // REST's: references by id (members by id, teams the caller sees, by id) and progress counts.
    leadId: key('lead_id'),
    creatorId: key('creator_id'),
    memberIds: value(
      (row) =>
        sql`array(select pm.user_id from project_members pm where pm.project_id = ${at(row, 'id')} order by pm.user_id)`,
    ),
    teamIds: value(
      (row, c) => sql`array(select pt.team_id from project_teams pt where pt.project_id = ${at(row, 'id')}
        and ${inVisibleTeam(sql.ref('pt.team_id'), c.access)} order by pt.team_id)`,
    ),
    progressCounts: progressCounts('project_id'),
    url: value(
      (row, c) =>
        sql`${c.publicUrl} || '/project/' || ${projectSlug(at(row, 'name'))} || '-' || ${at(row, 'slug_id')}`,
    ),
  },
};

/** An update's link: its project's page, at the update (over the update's row). */
const projectUpdateUrl = (row: Sql, c: ReadContext) =>
  sql`(select ${c.publicUrl} || '/project/' || ${projectSlug(sql.ref('pu_p.name'))} || '-' || pu_p.slug_id || '#update-' || ${at(row, 'slug_id')}
    from projects pu_p where pu_p.id = ${at(row, 'project_id')})`;

/** How many characters of an update's body its preview keeps. */
const PREVIEW_CHARS = 200;

/**
 * A written status of a project with its health, seen with its project. Its
 * link is the project's page, at the update.
 */
export const projectUpdate: Entity = {
  name: 'ProjectUpdate',
  table: 'project_updates',
  spec: projectUpdateEntity,
  archivable: true,
  fields: {
    ...stamps,
    body: col('body'),
    health: col('health'),
    slugId: col('slug_id'),
    editedAt: stamp('edited_at'),
    archivedAt: stamp('archived_at'),
    // We keep no diff of the project between updates.
    isDiffHidden: fixed(true),
    isStale: fixed(false),
    url: value((row, c) => projectUpdateUrl(row, c)),
    // The start of its Markdown on one line, for a list that shows many (the inbox's rows).
    bodyPreview: value(
      (row) =>
        sql`btrim(left(regexp_replace(left(${at(row, 'body')}, ${sql.lit(PREVIEW_CHARS * 2)}), '[[:space:]]+', ' ', 'g'), ${sql.lit(PREVIEW_CHARS)}))`,
    ),
    user: one(() => user, 'user_id'),
    project: one(() => project, 'project_id', true),
    // REST's references by id (the author null when out of the reader's sight).
    projectId: key('project_id'),
    userId: seenId('user_id', () => user),
  },
};

/** Whether the cycle is live, on `side` of now by `column`, and no other live cycle of its team is nearer now. */
const nearestCycle = (row: Sql, c: ReadContext, column: string, side: '>' | '<=', nearer: '<' | '>') => {
  const now = sql`${c.now.toISOString()}::timestamptz`;
  const op = sql.raw(side);
  return sql`(${at(row, 'archived_at')} is null and ${at(row, column)} ${op} ${now} and not exists (
    select 1 from cycles nc where nc.team_id = ${at(row, 'team_id')} and nc.archived_at is null
    and ${sql.ref(`nc.${column}`)} ${op} ${now}
    and (${sql.ref(`nc.${column}`)}, nc.id) ${sql.raw(nearer)} (${at(row, column)}, ${at(row, 'id')})))`;
};

export const cycle: Entity = {
  name: 'Cycle',
  table: 'cycles',
  spec: cycleEntity,
  archivable: true,
  fields: {
    ...stamps,
    number: int('number'),
    name: col('name'),
    description: col('description'),
    startsAt: stamp('starts_at'),
    endsAt: stamp('ends_at'),
    completedAt: stamp('completed_at'),
    archivedAt: stamp('archived_at'),
    // One phase for both APIs (cycles/fields.ts): a completed cycle is past.
    status: value((row, c) => cyclePhaseSql(row, clockSql(c.now))),
    isActive: value((row, c) => sql`(${cyclePhaseSql(row, clockSql(c.now))} = 'current')`),
    isFuture: value((row, c) => sql`(${cyclePhaseSql(row, clockSql(c.now))} = 'upcoming')`),
    isPast: value((row, c) => sql`(${cyclePhaseSql(row, clockSql(c.now))} = 'past')`),
    progress: value((row, c) => progressRatioSql('cycle_id', at(row, 'id'), c.access)),
    // The live cycle of its team that starts first among those to come, or ended last among
    // those past (resolvers/reads.ts; equal times are told apart by id).
    isNext: value((row, c) => nearestCycle(row, c, 'starts_at', '>', '<')),
    isPrevious: value((row, c) => nearestCycle(row, c, 'ends_at', '<=', '>')),
    team: one(() => team, 'team_id', true),
    issues: many(() => issue, 'cycle_id'),
    // REST's: its team by id and its progress counts.
    teamId: key('team_id'),
    progressCounts: progressCounts('cycle_id'),
  },
};

export const milestone: Entity = {
  name: 'ProjectMilestone',
  table: 'project_milestones',
  spec: projectMilestoneEntity,
  archivable: false,
  fields: {
    ...stamps,
    name: col('name'),
    description: col('description'),
    targetDate: col('target_date'),
    sortOrder: col('sort_order'),
    progress: value((row, c) => progressRatioSql('project_milestone_id', at(row, 'id'), c.access)),
    // Depends on its siblings, as of the request's day (UTC).
    status: value((row, c) => milestoneStatusSql(row, c.access, todayUtc(c.now))),
    project: one(() => project, 'project_id'),
    issues: many(() => issue, 'project_milestone_id'),
    // REST's: references by id and progress counts.
    projectId: key('project_id'),
    creatorId: key('creator_id'),
    progressCounts: progressCounts('project_milestone_id'),
  },
};

export const customView: Entity = {
  name: 'CustomView',
  table: 'custom_views',
  spec: customViewEntity,
  archivable: true,
  fields: {
    ...stamps,
    archivedAt: stamp('archived_at'),
    name: col('name'),
    description: col('description'),
    icon: col('icon'),
    color: col('color'),
    filterData: col('filter_data'),
    filters: col('filter_data'),
    shared: col('shared'),
    slugId: col('slug_id'),
    // Every view we hold lists issues.
    modelName: fixed('Issue'),
    // REST's: the web UI's display settings, and references by id (owner and creator are
    // seen by whoever sees the view, as the relations below; the team as stored).
    display: col('display'),
    ownerId: key('owner_id'),
    creatorId: key('creator_id'),
    teamId: key('team_id'),
    // Whoever sees the view sees who made it, even a guest who would not see that person otherwise.
    owner: { kind: 'one', to: () => user, key: 'owner_id', open: true },
    creator: { kind: 'one', to: () => user, key: 'creator_id', open: true },
    team: one(() => team, 'team_id'),
  },
};

export const issueRelation: Entity = {
  name: 'IssueRelation',
  table: 'issue_relations',
  spec: issueRelationEntity,
  archivable: false,
  fields: {
    ...stamps,
    type: col('type'),
    // Removing a relation deletes it; there is no archived state to report.
    archivedAt: fixed(null),
    // REST's references by id: both issues are seen (the rule), the creator may not be.
    issueId: key('issue_id'),
    relatedIssueId: key('related_issue_id'),
    creatorId: seenId('creator_id', () => user),
    issue: one(() => issue, 'issue_id'),
    relatedIssue: one(() => issue, 'related_issue_id'),
  },
};

export const attachment: Entity = {
  name: 'Attachment',
  table: 'attachments',
  spec: attachmentEntity,
  archivable: true,
  fields: {
    ...stamps,
    title: col('title'),
    subtitle: col('subtitle'),
    url: col('url'),
    sourceType: col('source_type'),
    groupBySource: col('group_by_source'),
    archivedAt: stamp('archived_at'),
    metadata: value((row) => sql`coalesce(${at(row, 'metadata')}, '{}'::jsonb)`),
    // REST's references by id (the creator null when out of the reader's sight, as GraphQL's creator).
    issueId: key('issue_id'),
    creatorId: seenId('creator_id', () => user),
    issue: one(() => issue, 'issue_id', true),
    creator: one(() => user, 'creator_id'),
  },
};

/** A column of the notification's actor, null when there is none or the caller may not see them. */
const actorColumn = (row: Sql, c: ReadContext, column: Sql) => {
  const rule = mayHide(user, c) ? sql`and ${user.spec.visible!('na', c.access)}` : sql``;
  return sql`(select ${column} from users na where na.id = ${at(row, 'actor_id')} ${rule})`;
};

/** A notification's project update, by its key: `column` of it (null when it has none). */
const updateOf = (row: Sql, column: Sql) =>
  sql`(select ${column} from project_updates nu where nu.id = ${at(row, 'project_update_id')})`;

/**
 * A notification: about an issue (an IssueNotification) or, for a new
 * project update, about a project (a ProjectNotification); the fields of
 * either kind are declared here, null on a row of the other. Its issue or
 * project, comments, update and recipient need no rule of their own: a
 * notification is seen only by its recipient while they see its issue or
 * project (visibility.notification).
 */
export const notification: Entity = {
  name: 'Notification',
  kinds: [
    { name: 'ProjectNotification', is: (row) => sql`${at(row, 'project_id')} is not null` },
    { name: 'IssueNotification', is: () => sql`true` },
  ],
  table: 'notifications',
  spec: notificationEntity,
  archivable: true,
  fields: {
    ...stamps,
    type: col('type'),
    category: value((row) => lookup(at(row, 'type'), Object.entries(NOTIFICATION_CATEGORY), 'system')),
    readAt: stamp('read_at'),
    archivedAt: stamp('archived_at'),
    snoozedUntilAt: stamp('snoozed_until_at'),
    issueId: key('issue_id'),
    commentId: key('comment_id'),
    parentCommentId: key('parent_comment_id'),
    issueStatusType: col('issue_status_type'),
    projectId: key('project_id'),
    projectUpdateId: key('project_update_id'),
    projectUpdateHealth: value((row) => updateOf(row, sql`nu.health`)),
    // The inbox shows one entry per issue or project, and the batch mutations act on it.
    groupingKey: value(
      (row) =>
        sql`(case when ${at(row, 'project_id')} is not null then 'project/' || ${at(row, 'project_id')}::text
          else 'issue/' || ${at(row, 'issue_id')}::text end)`,
    ),
    // notify.ts notificationLine, from its constants.
    subtitle: value(
      (
        row,
      ) => sql`(case when ${at(row, 'type')} = 'issueNewComment' and ${at(row, 'parent_comment_id')} is not null
        then ${literal(REPLY_LINE)} else ${lookup(at(row, 'type'), Object.entries(MAIL_LINE), sql`${at(row, 'type')}`)} end)`,
    ),
    // The issue's identifier and title, or the project's name.
    title: value(
      (row) =>
        sql`coalesce((select ni.identifier || ' ' || ni.title from issues ni where ni.id = ${at(row, 'issue_id')}),
          (select np.name from projects np where np.id = ${at(row, 'project_id')}), '')`,
    ),
    // The issue's link, or the update's (its project's page, at the update).
    url: value(
      (row, c) =>
        sql`coalesce((select ${issueUrl(sql`ni`, c)} from issues ni where ni.id = ${at(row, 'issue_id')}),
          (select ${projectUpdateUrl(sql`nu`, c)} from project_updates nu where nu.id = ${at(row, 'project_update_id')}), '')`,
    ),
    issue: one(() => issue, 'issue_id', true),
    comment: one(() => comment, 'comment_id', true),
    parentComment: one(() => comment, 'parent_comment_id', true),
    project: one(() => project, 'project_id', true),
    projectUpdate: one(() => projectUpdate, 'project_update_id', true),
    user: one(() => user, 'user_id', true),
    actor: one(() => user, 'actor_id'),
    actorAvatarUrl: value((row, c) => actorColumn(row, c, sql`na.avatar_url`)),
    actorInitials: value((row, c) => actorColumn(row, c, sql`na.initials`)),
    // '' without an actor, or one the caller may not see (resolvers/notification-node.ts).
    actorAvatarColor: value((row, c) => sql`coalesce(${actorColumn(row, c, sql`na.avatar_color`)}, '')`),
    actorInactive: value(
      (row, c) =>
        sql`coalesce(${actorColumn(row, c, sql`not (na.deleted_at is null and na.status = 'active')`)}, false)`,
    ),
  },
};

// --- Issue history (resolvers/reads.ts IssueHistory, nodes.ts historyNode) ---

/** One side of a recorded change, as JSON (`changes` holds { field: { from, to } } under REST's names). */
const changed = (row: Sql, field: string, side?: 'from' | 'to') =>
  side
    ? sql`(${at(row, 'changes')} -> ${literal(field)} -> ${literal(side)})`
    : sql`(${at(row, 'changes')} -> ${literal(field)})`;

/** Whether a JSON value is truthy in JavaScript (absent, null, false, 0 and "" are not). */
const truthy = (v: Sql) => sql`(${v} is not null and ${v} not in ('null', 'false', '0', '""'))`;

/** A recorded id as a uuid: the loaders find a row only by its id as PostgreSQL prints it (lower case). */
const uuidOf = (text: Sql) =>
  sql`(case when (${text}) ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then (${text})::uuid end)`;

/** A recorded value as it was stored (fromTitle, toPriority, ...): null when the change is not recorded. */
const recorded = (field: string, side: 'from' | 'to'): Field => ({
  kind: 'value',
  json: (row) => sql`coalesce(${changed(row, field, side)}::text, 'null')`,
});

/** The row a recorded id names, null when there is none or the caller may not see it (belongsTo). */
const recordedRow = (to: () => Entity, field: string, side: 'from' | 'to'): Field => ({
  kind: 'one',
  to,
  key: field,
  keyOf: (row) => uuidOf(sql`${changed(row, field)} ->> ${literal(side)}`),
});

/** A recorded id, null when it names no row the caller sees (resolvers/reads.ts historyRelation). */
const recordedId = (to: () => Entity, field: string, side: 'from' | 'to'): Field => ({
  kind: 'value',
  json: (row, c) => {
    const target = to();
    const id = sql`(${changed(row, field)} ->> ${literal(side)})`;
    const where = [sql`seen.id = ${uuidOf(id)}`, ...visibleRule(target, 'seen', c)];
    return json(
      sql`(case when exists (select 1 from ${sql.table(target.table)} as seen where ${sql.join(where, sql` and `)}) then ${id} end)`,
    );
  },
});

/** Both sides of a recorded relation: fromX, toX, fromXId, toXId. */
const recordedRelation = (name: string, to: () => Entity, field: string): Record<string, Field> => ({
  [`from${name}`]: recordedRow(to, field, 'from'),
  [`to${name}`]: recordedRow(to, field, 'to'),
  [`from${name}Id`]: recordedId(to, field, 'from'),
  [`to${name}Id`]: recordedId(to, field, 'to'),
});

/**
 * The label ids a change added (in `to`, not in `from`) or removed, once each
 * in their recorded order, as rows (id, ord); historyNode compares the lists.
 */
const labelChange = (row: Sql, side: 'from' | 'to') => {
  const other: 'from' | 'to' = side === 'to' ? 'from' : 'to';
  // A side that is no list (null, absent) lists nothing, as historyNode reads it.
  const list = (s: 'from' | 'to') => {
    const ids = changed(row, 'labelIds', s);
    return sql`(case when jsonb_typeof(${ids}) = 'array' then ${ids} else '[]'::jsonb end)`;
  };
  return sql`select ${uuidOf(sql`e.v`)} as id, min(e.n) as ord
    from jsonb_array_elements_text(${list(side)}) with ordinality as e(v, n)
    where not exists (select 1 from jsonb_array_elements_text(${list(other)}) as o(v) where o.v = e.v)
    group by e.v`;
};
const labelsChanged = (side: 'from' | 'to'): Field => ({
  kind: 'many',
  plain: true,
  to: () => label,
  ids: (row) => labelChange(row, side),
  present: (row) => truthy(changed(row, 'labelIds')),
});
/** The ids of labelsChanged's rows: the labels the caller sees. */
const labelIdsChanged = (side: 'from' | 'to'): Field => ({
  kind: 'value',
  json: (row, c) => {
    const where = [sql`l.id = k.id`, ...visibleRule(label, 'l', c)];
    return json(
      sql`(case when ${truthy(changed(row, 'labelIds'))} then array(select l.id from (${labelChange(row, side)}) as k
        join labels as l on ${sql.join(where, sql` and `)} order by k.ord) end)`,
    );
  },
});

/**
 * An entry of an issue's history: what one update changed. Seen with its
 * issue; each recorded reference reads as its relation does (null when it
 * names a row the caller may not see, or none), recorded values as stored.
 */
export const issueHistory: Entity = {
  name: 'IssueHistory',
  table: 'issue_history',
  spec: historyEntity,
  archivable: false,
  fields: {
    ...stamps,
    actorId: key('actor_id'),
    actor: one(() => user, 'actor_id'),
    botActor: one(() => actorBot, 'actor_id'),
    issue: one(() => issue, 'issue_id', true),
    archived: value((row) => {
      const to = changed(row, 'archivedAt', 'to');
      return sql`(case when ${truthy(changed(row, 'archivedAt'))} then (${to} is not null and ${to} <> 'null'::jsonb) end)`;
    }),
    fromTitle: recorded('title', 'from'),
    toTitle: recorded('title', 'to'),
    fromPriority: recorded('priority', 'from'),
    toPriority: recorded('priority', 'to'),
    fromEstimate: recorded('estimate', 'from'),
    toEstimate: recorded('estimate', 'to'),
    fromDueDate: recorded('dueDate', 'from'),
    toDueDate: recorded('dueDate', 'to'),
    ...recordedRelation('State', () => workflowState, 'stateId'),
    ...recordedRelation('Assignee', () => user, 'assigneeId'),
    ...recordedRelation('Team', () => team, 'teamId'),
    ...recordedRelation('Project', () => project, 'projectId'),
    ...recordedRelation('Cycle', () => cycle, 'cycleId'),
    ...recordedRelation('Parent', () => issue, 'parentId'),
    fromProjectMilestone: recordedRow(() => milestone, 'projectMilestoneId', 'from'),
    toProjectMilestone: recordedRow(() => milestone, 'projectMilestoneId', 'to'),
    addedLabels: labelsChanged('to'),
    removedLabels: labelsChanged('from'),
    addedLabelIds: labelIdsChanged('to'),
    removedLabelIds: labelIdsChanged('from'),
  },
};

/**
 * A match of searchIssues: an issue, with match metadata (we record none).
 * Fields the schema does not hold on it (relations) answer empty.
 */
export const issueSearchResult: Entity = {
  ...issue,
  name: 'IssueSearchResult',
  fields: { ...issue.fields, metadata: fixed({}) },
};

// --- Webhooks: admins' endpoints and their delivery log (REST: webhooks/present.ts) ---

/** A column of the delivery's event (webhook_events), by its key. */
const eventOf = (row: Sql, column: Sql) =>
  sql`(select ${column} from webhook_events ev where ev.id = ${at(row, 'event_id')})`;

/**
 * An endpoint. Its signing secret is never read here: the create and rotate
 * answers add the one they made, and GraphQL's secret is null otherwise.
 * REST's kinds are ours as stored (resourceKinds); GraphQL's resourceTypes
 * are the third-party type names, in the stored order.
 */
export const webhook: Entity = {
  name: 'Webhook',
  table: 'webhooks',
  spec: webhookEntity,
  adminOnly: true,
  archivable: true,
  fields: {
    ...stamps,
    url: col('url'),
    label: col('label'),
    enabled: col('enabled'),
    allPublicTeams: col('all_public_teams'),
    archivedAt: stamp('archived_at'),
    resourceKinds: col('resource_types'),
    resourceTypes: value(
      (row) =>
        sql`array(select ${lookup(sql`k.kind`, Object.entries(GRAPHQL_RESOURCE_NAMES), sql`k.kind`)}
          from unnest(${at(row, 'resource_types')}) with ordinality as k(kind, n) order by k.n)`,
    ),
    secret: fixed(null),
    teamId: key('team_id'),
    creatorId: key('creator_id'),
    failingSince: stamp('failing_since'),
    disabledReason: col('disabled_reason'),
    team: one(() => team, 'team_id'),
    creator: one(() => user, 'creator_id'),
  },
};

/** One attempt at a delivery: when, how long, and what the endpoint answered. */
export const webhookAttempt: Entity = {
  name: 'WebhookAttempt',
  table: 'webhook_attempts',
  spec: webhookAttemptEntity,
  adminOnly: true,
  archivable: false,
  fields: {
    id: key('id'),
    startedAt: stamp('started_at'),
    durationMs: int('duration_ms'),
    statusCode: int('status_code'),
    error: col('error'),
    responseBody: col('response_body'),
  },
};

/** An endpoint's delivery of one event: the event's kind and time, its state, and its attempts in order. */
export const webhookDelivery: Entity = {
  name: 'WebhookDelivery',
  table: 'webhook_deliveries',
  spec: webhookDeliveryEntity,
  adminOnly: true,
  archivable: false,
  fields: {
    ...stamps,
    webhookId: key('webhook_id'),
    // A bigint, as text: JavaScript numbers stop being exact below its range's end.
    eventId: value((row) => sql`${at(row, 'event_id')}::text`),
    eventType: value((row) => eventOf(row, sql`ev.type`)),
    action: value((row) => eventOf(row, sql`ev.action`)),
    event: value((row) => eventOf(row, sql`ev.type || '.' || ev.action`)),
    eventCreatedAt: { kind: 'value', json: (row) => timestamp(eventOf(row, sql`ev.created_at`)) },
    status: col('status'),
    attemptCount: int('attempts'),
    // A finished delivery is due never again.
    nextAttemptAt: {
      kind: 'value',
      json: (row) =>
        timestamp(
          sql`(case when ${at(row, 'status')} in ('succeeded', 'failed') then null else ${at(row, 'next_attempt_at')} end)`,
        ),
    },
    lastError: col('last_error'),
    attempts: {
      kind: 'many',
      plain: true,
      to: () => webhookAttempt,
      ids: (row) => sql`select wa.id, row_number() over (order by wa.started_at, wa.id) as ord
        from webhook_attempts wa where wa.delivery_id = ${at(row, 'id')}`,
      present: () => sql`true`,
    },
  },
};

// --- Uploaded files (REST: files/present.ts) ---

/** An uploaded file: its name, type and size, and its download address (files/present.ts fileUrl). */
export const file: Entity = {
  name: 'File',
  table: 'files',
  spec: fileEntity,
  archivable: false,
  fields: {
    id: key('id'),
    url: value((row, c) => sql`${c.publicUrl} || '/api/files/' || ${at(row, 'id')}::text`),
    filename: col('filename'),
    contentType: col('content_type'),
    size: int('size'),
    createdAt: stamp('created_at'),
  },
};

/** Every declaration by the API's type name. */
export const entities: Record<string, Entity> = {
  Issue: issue,
  User: user,
  Team: team,
  TeamMembership: teamMembership,
  WorkflowState: workflowState,
  IssueLabel: label,
  Comment: comment,
  Project: project,
  Cycle: cycle,
  ProjectMilestone: milestone,
  ProjectUpdate: projectUpdate,
  CustomView: customView,
  IssueRelation: issueRelation,
  Attachment: attachment,
  Reaction: reaction,
  Notification: notification,
  IssueHistory: issueHistory,
  IssueSearchResult: issueSearchResult,
  Webhook: webhook,
};

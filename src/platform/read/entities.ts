// One declaration per entity: its fields under the API's names, each as SQL
// over the entity's row, and its relations. The visibility rule comes with
// the entity's filter spec (platform/list/entities.ts, written once in
// platform/access.ts) and is applied by the compiler at every level.
// Computed fields are written here once, with the caller's visibility
// (branchName reads the name of a user only when the caller sees that user).
import { sql } from 'kysely';
import { branchOwnerSql, childProgressSql, labelIdsSql } from '../../modules/issues/fields.js';
import { PRIORITIES, PRIORITY_LABELS } from '../../modules/issues/priorities.js';
import { inVisibleTeam, visibility } from '../access.js';
import { ISSUE_COLUMNS } from '../db/tables.js';
import {
  commentEntity,
  cycleEntity,
  issueEntity,
  labelEntity,
  projectEntity,
  projectMilestoneEntity,
  teamEntity,
  userEntity,
  workflowStateEntity,
} from '../list/entities.js';
import { mayHide } from './compile.js';
import { constant, json, literal, object, projectSlug, type Sql, timestamp } from './json.js';
import type { Entity, Field, ReadContext } from './model.js';

const at = (row: Sql, column: string) => sql`${row}.${sql.ref(column)}`;

/** A column as stored. */
const col = (column: string): Field => ({ kind: 'value', json: (row) => json(at(row, column)) });
/** A timestamptz column, in the API's format. */
const stamp = (column: string): Field => ({ kind: 'value', json: (row) => timestamp(at(row, column)) });
/** Any other value over the row. */
const value = (f: (row: Sql, c: ReadContext) => Sql): Field => ({
  kind: 'value',
  json: (row, c) => json(f(row, c)),
});
const fixed = (v: unknown): Field => ({ kind: 'value', json: () => constant(v) });
const one = (to: () => Entity, key: string, sameTeam = false): Field => ({ kind: 'one', to, key, sameTeam });
/** A key column, null when the row it names is out of the caller's sight. */
const seenId = (column: string, to: () => Entity): Field => ({
  kind: 'value',
  json: (row, c) => {
    const target = to();
    if (!mayHide(target, c)) return json(at(row, column));
    const alias = sql.raw(`seen_${column}`);
    return json(
      sql`(select ${alias}.id from ${sql.table(target.table)} as ${alias} where ${alias}.id = ${at(row, column)} and ${target.spec.visible!(`seen_${column}`, c.access)})`,
    );
  },
});
const stamps = { id: col('id'), createdAt: stamp('created_at'), updatedAt: stamp('updated_at') };

/**
 * REST's progress of the live issues the caller sees whose `column` is the
 * row's id (projects/progress.ts counts a page the same way): canceled ones
 * out of scope, progress = completed / in scope, 0 when none.
 */
const progressCounts = (column: string): Field => ({
  kind: 'value',
  json: (row, c) => {
    const n = (type: string) => sql`count(*) filter (where prog_s.type = ${literal(type)})`;
    const total = sql`count(*) filter (where prog_s.type <> 'canceled')`;
    return sql`(select ${object([
      ['issueCount', json(total)],
      ['completedIssueCount', json(n('completed'))],
      ['startedIssueCount', json(n('started'))],
      ['progress', json(sql`(case when ${total} = 0 then 0 else ${n('completed')}::float8 / ${total} end)`)],
    ])} from issues prog_i join workflow_states prog_s on prog_s.id = prog_i.state_id
      where prog_i.${sql.raw(column)} = ${at(row, 'id')} and prog_i.archived_at is null
      and ${visibility.issue('prog_i', c.access)})`;
  },
});

/** A cycle's status from its dates and completion: past, current or upcoming. */
const cycleStatus = (row: Sql, c: ReadContext) => {
  const now = sql`${c.now.toISOString()}::timestamptz`;
  return sql`(case when ${at(row, 'completed_at')} is not null or ${at(row, 'ends_at')} <= ${now} then 'past'
    when ${at(row, 'starts_at')} > ${now} then 'upcoming' else 'current' end)`;
};

/** Whether milestone `m` has live issues in scope that the caller sees, all completed. */
const milestoneDone = (m: Sql, c: ReadContext) => {
  const issuesOf = (
    types: Sql,
  ) => sql`exists (select 1 from issues md_i join workflow_states md_s on md_s.id = md_i.state_id
    where md_i.project_milestone_id = ${m}.id and md_i.archived_at is null
    and ${visibility.issue('md_i', c.access)} and md_s.type ${types})`;
  return sql`(${issuesOf(sql`<> 'canceled'`)} and not ${issuesOf(sql`not in ('canceled', 'completed')`)})`;
};

/**
 * A milestone's status as milestones/status.ts derives it: done, else overdue
 * (target date before today, UTC), else next when no milestone before it in
 * its project's order (sort order, then oldest) is neither, else unstarted.
 */
const milestoneStatus = (row: Sql, c: ReadContext) => {
  const today = sql`${c.now.toISOString().slice(0, 10)}::date`;
  const o = sql.raw('ms_o');
  return sql`(case when ${milestoneDone(row, c)} then 'done'
    when ${at(row, 'target_date')} < ${today} then 'overdue'
    when not exists (select 1 from project_milestones ${o} where ${o}.project_id = ${at(row, 'project_id')}
      and (${o}.sort_order, ${o}.created_at, ${o}.id) < (${at(row, 'sort_order')}, ${at(row, 'created_at')}, ${at(row, 'id')})
      and not ${milestoneDone(o, c)} and not coalesce(${o}.target_date < ${today}, false)) then 'next'
    else 'unstarted' end)`;
};

const priorityLabel = (priority: Sql) =>
  sql`(case ${priority} ${sql.join(
    PRIORITY_LABELS.map((label, i) => sql`when ${sql.lit(i)} then ${literal(label)}`),
    sql` `,
  )} else ${literal(PRIORITIES[0].label)} end)`;

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
    number: col('number'),
    priority: col('priority'),
    estimate: col('estimate'),
    dueDate: col('due_date'),
    sortOrder: col('sort_order'),
    boardOrder: col('sort_order'),
    archivedAt: stamp('archived_at'),
    startedAt: stamp('started_at'),
    completedAt: stamp('completed_at'),
    canceledAt: stamp('canceled_at'),
    priorityLabel: value((row) => priorityLabel(at(row, 'priority'))),
    prioritySortOrder: value(
      (row) => sql`(case when ${at(row, 'priority')} = 0 then 5 else ${at(row, 'priority')} end)`,
    ),
    // The slugs are kept with the rows (migration 0031): title_slug, and users.name_slug
    // (branchOwnerSql); `sep || nullif(slug, '')` is null when the slug is empty.
    url: value(
      (row, c) =>
        sql`${c.publicUrl} || '/issue/' || ${at(row, 'identifier')} || coalesce('/' || nullif(${at(row, 'title_slug')}, ''), '')`,
    ),
    branchName: value((row, c) => {
      const user = sql`coalesce(nullif(${branchOwnerSql(row, c.access, 'name_slug')}, ''), 'user')`;
      return sql`${user} || '/' || lower(${at(row, 'identifier')}) || coalesce('-' || nullif(${at(row, 'title_slug')}, ''), '')`;
    }),
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
    teamId: col('team_id'),
    stateId: col('state_id'),
    assigneeId: seenId('assignee_id', () => user),
    creatorId: seenId('creator_id', () => user),
    projectId: seenId('project_id', () => project),
    // A milestone is seen with its project.
    projectMilestoneId: value((row, c) =>
      mayHide(project, c)
        ? sql`(select ${at(row, 'project_milestone_id')} from projects pm where pm.id = ${at(row, 'project_id')} and ${project.spec.visible!('pm', c.access)})`
        : at(row, 'project_milestone_id'),
    ),
    cycleId: col('cycle_id'),
    parentId: seenId('parent_id', () => issue),
    /** Live sub-issues the caller sees: all, completed, canceled (issues/fields.ts). */
    childProgress: value((row, c) => childProgressSql(row, c.access)),
    team: one(() => team, 'team_id', true),
    state: one(() => workflowState, 'state_id', true),
    assignee: one(() => user, 'assignee_id'),
    creator: one(() => user, 'creator_id'),
    project: one(() => project, 'project_id'),
    cycle: one(() => cycle, 'cycle_id', true),
    projectMilestone: one(() => milestone, 'project_milestone_id'),
    parent: one(() => issue, 'parent_id'),
    comments: { kind: 'many', to: () => comment, via: { parentKey: sql.ref('t.issue_id') } },
    children: { kind: 'many', to: () => issue, via: { parentKey: sql.ref('t.parent_id') } },
    labels: {
      kind: 'many',
      to: () => label,
      via: {
        from: sql`labels as t join issue_labels as il on il.label_id = t.id`,
        parentKey: sql.ref('il.issue_id'),
      },
    },
    subscribers: {
      kind: 'many',
      to: () => user,
      via: {
        from: sql`users as t join issue_subscribers as s on s.user_id = t.id`,
        parentKey: sql.ref('s.issue_id'),
      },
    },
  },
};

export const user: Entity = {
  name: 'User',
  table: 'users',
  spec: userEntity,
  seenByMembers: true,
  archivable: false,
  // Deleted accounts are never listed; suspended ones only with includeDisabled.
  scope: (args) => [sql`t.deleted_at is null`, ...(args.includeDisabled ? [] : [sql`t.status = 'active'`])],
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
      archivedAt: stamp('deleted_at'),
      active: usable,
      isAssignable: usable,
      isMentionable: usable,
      admin: value((row) => sql`(${at(row, 'role')} = 'admin')`),
      guest: value((row) => sql`(${at(row, 'role')} = 'guest')`),
      canAccessAnyPublicTeam: value((row) => sql`(${at(row, 'role')} <> 'guest')`),
      isMe: value((row, c) => sql`(${at(row, 'id')} = ${c.viewerId}::uuid)`),
      disableReason: value((row) => sql`(case when ${at(row, 'status')} = 'suspended' then 'suspended' end)`),
      url: value((row, c) => sql`${c.publicUrl} || '/users/' || ${at(row, 'id')}::text`),
      assignedIssues: { kind: 'many', to: () => issue, via: { parentKey: sql.ref('t.assignee_id') } },
      createdIssues: { kind: 'many', to: () => issue, via: { parentKey: sql.ref('t.creator_id') } },
    } satisfies Record<string, Field>;
  })(),
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
    timezone: col('timezone'),
    visibility: value((row) => sql`(case when ${at(row, 'private')} then 'private' else 'public' end)`),
    allMembersCanJoin: value((row) => sql`(not ${at(row, 'private')})`),
    // REST's: the last issue number taken, and (in its list) the number of memberships.
    lastIssueNumber: col('issue_count'),
    memberCount: value(
      (row) => sql`(select count(*)::int from team_memberships m where m.team_id = ${at(row, 'id')})`,
    ),
    issueEstimationType: fixed('notUsed'),
    setIssueSortOrderOnStateChange: fixed('none'),
    states: { kind: 'many', to: () => workflowState, via: { parentKey: sql.ref('t.team_id') } },
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
    teamId: col('team_id'),
    team: one(() => team, 'team_id', true),
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
    teamId: col('team_id'),
    parentId: col('parent_id'),
    creatorId: seenId('creator_id', () => user),
    // A workspace label has no team.
    team: one(() => team, 'team_id', true),
    parent: one(() => label, 'parent_id'),
    creator: one(() => user, 'creator_id'),
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
    issueId: col('issue_id'),
    parentId: col('parent_id'),
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
    issue: one(() => issue, 'issue_id', true),
    parent: one(() => comment, 'parent_id', true),
    children: { kind: 'many', to: () => comment, via: { parentKey: sql.ref('t.parent_id') } },
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
    startDate: col('start_date'),
    targetDate: col('target_date'),
    startedAt: stamp('started_at'),
    completedAt: stamp('completed_at'),
    canceledAt: stamp('canceled_at'),
    archivedAt: stamp('archived_at'),
    sortOrder: col('sort_order'),
    priorityLabel: fixed(PRIORITIES[0].label),
    frequencyResolution: fixed('weekly'),
    lead: one(() => user, 'lead_id'),
    creator: one(() => user, 'creator_id'),
    // REST's: references by id (members by id, teams the caller sees, by id) and progress counts.
    leadId: col('lead_id'),
    creatorId: col('creator_id'),
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

export const cycle: Entity = {
  name: 'Cycle',
  table: 'cycles',
  spec: cycleEntity,
  archivable: true,
  fields: {
    ...stamps,
    number: col('number'),
    name: col('name'),
    description: col('description'),
    startsAt: stamp('starts_at'),
    endsAt: stamp('ends_at'),
    completedAt: stamp('completed_at'),
    archivedAt: stamp('archived_at'),
    isActive: value(
      (row, c) =>
        sql`(${at(row, 'starts_at')} <= ${c.now.toISOString()}::timestamptz and ${at(row, 'ends_at')} > ${c.now.toISOString()}::timestamptz)`,
    ),
    isFuture: value((row, c) => sql`(${at(row, 'starts_at')} > ${c.now.toISOString()}::timestamptz)`),
    isPast: value((row, c) => sql`(${at(row, 'ends_at')} <= ${c.now.toISOString()}::timestamptz)`),
    team: one(() => team, 'team_id', true),
    // REST's: its team by id, its progress counts, and its status, where a completed
    // cycle is past whatever its dates say (GraphQL's isActive/isPast/isFuture read
    // the dates alone); REST's isActive, isPast, isFuture are this status's.
    teamId: col('team_id'),
    progressCounts: progressCounts('cycle_id'),
    status: value((row, c) => cycleStatus(row, c)),
    statusIsActive: value((row, c) => sql`(${cycleStatus(row, c)} = 'current')`),
    statusIsPast: value((row, c) => sql`(${cycleStatus(row, c)} = 'past')`),
    statusIsFuture: value((row, c) => sql`(${cycleStatus(row, c)} = 'upcoming')`),
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
    project: one(() => project, 'project_id'),
    // REST's: references by id, progress counts, and the derived status (milestones/status.ts).
    projectId: col('project_id'),
    creatorId: col('creator_id'),
    progressCounts: progressCounts('project_milestone_id'),
    status: value((row, c) => milestoneStatus(row, c)),
  },
};

/** Every declaration by the API's type name (IssueSearchResult is an issue with match metadata). */
export const entities: Record<string, Entity> = {
  Issue: issue,
  User: user,
  Team: team,
  WorkflowState: workflowState,
  IssueLabel: label,
  Comment: comment,
  Project: project,
  Cycle: cycle,
  ProjectMilestone: milestone,
};

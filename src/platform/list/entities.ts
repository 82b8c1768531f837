// Field maps of every entity the filter grammar reaches: which SQL each filter
// field means. Fields not listed here are concepts we do not hold (see
// absentField in filter.ts).
import { type RawBuilder, sql } from 'kysely';
import { cyclePhaseSql } from '../../modules/cycles/fields.js';
import { visibility } from '../access.js';
import type { EntitySpec, FieldSpec, FilterContext, ScalarType } from './filter.js';
import { matchesSearch, searchQuery } from './search.js';

type Sql = RawBuilder<unknown>;
const col = (column: string, type: ScalarType): FieldSpec => ({
  kind: 'scalar',
  type,
  expr: (a) => sql.ref(`${a}.${column}`),
});
/**
 * A long text column (comment bodies, descriptions): compared only through its
 * trigram index (filter.ts, compileLongText), and priced as read whole (price.ts).
 */
const longText = (table: string, column: string): FieldSpec => ({
  kind: 'scalar',
  type: 'string',
  expr: (a) => sql.ref(`${a}.${column}`),
  longText: { table, column },
  long: true,
});
const expr = (type: ScalarType, f: (a: string, ctx: FilterContext) => Sql): FieldSpec => ({
  kind: 'scalar',
  type,
  expr: f,
});
const constant = (type: ScalarType, value: string | number | boolean | null): FieldSpec => ({
  kind: 'constant',
  type,
  value,
});
const t = (table: string, alias: string) => sql`${sql.table(table)} as ${sql.raw(alias)}`;
const ref = (a: string, c: string) => sql.ref(`${a}.${c}`);

/**
 * Many-to-one through a foreign key on the outer row. `sameTeam`: the related
 * row is in the outer row's team (an issue's state), so it needs no check of
 * its own when compared by id.
 */
const belongsTo = (entity: () => EntitySpec, table: string, fk: string, sameTeam = false): FieldSpec => ({
  kind: 'relation',
  entity,
  join: (outer, inner) => ({ from: t(table, inner), on: sql`${ref(inner, 'id')} = ${ref(outer, fk)}` }),
  isNull: (outer) => sql`(${ref(outer, fk)} is null)`,
  fk: (outer) => ref(outer, fk),
  sameTeam,
});
/** One-to-many through a foreign key on the inner rows. */
const hasMany = (entity: () => EntitySpec, table: string, fk: string): FieldSpec => ({
  kind: 'collection',
  entity,
  join: (outer, inner) => ({ from: t(table, inner), on: sql`${ref(inner, fk)} = ${ref(outer, 'id')}` }),
});
/**
 * Many-to-many through a link table (link.outerKey -> outer.id, link.innerKey -> inner.id);
 * `extra` is a further condition where $l names the link row.
 */
const through = (
  entity: () => EntitySpec,
  table: string,
  link: string,
  outerKey: string,
  innerKey: string,
  extra?: string,
): FieldSpec => ({
  kind: 'collection',
  entity,
  join: (outer, inner) => ({
    from: sql`${t(table, inner)} join ${sql.table(link)} as ${sql.raw(`${inner}_l`)} on ${ref(`${inner}_l`, innerKey)} = ${ref(inner, 'id')}`,
    on: sql`${ref(`${inner}_l`, outerKey)} = ${ref(outer, 'id')}${extra ? sql.raw(` and ${extra.replaceAll('$l', `${inner}_l`)}`) : sql``}`,
  }),
});

/**
 * Whether the issue under `outer` has a relation of `type` seen from `end`
 * (`issue_id`: the issue is the relation's source, e.g. it blocks another;
 * `related_issue_id`: its target, e.g. it is blocked). A relation whose other
 * issue the caller may not see does not count, as in every read. Served by
 * the unique (issue_id, related_issue_id, type) and the (related_issue_id,
 * type) indexes of migration 0011.
 */
function relationFrom(end: 'issue_id' | 'related_issue_id', type: string) {
  const other = end === 'issue_id' ? 'related_issue_id' : 'issue_id';
  return (outer: string, inner: string, ctx: FilterContext): Sql => {
    const r = sql.raw(inner);
    const base = sql`${ref(inner, end)} = ${ref(outer, 'id')} and ${ref(inner, 'type')} = ${type}`;
    if (!ctx.access || ctx.access.all) return sql`exists (select 1 from issue_relations ${r} where ${base})`;
    const o = `${inner}_o`;
    return sql`exists (select 1 from issue_relations ${r} join issues ${sql.raw(o)} on ${ref(o, 'id')} = ${ref(inner, other)} where ${base} and ${visibility.issue(o, ctx.access)})`;
  };
}
/** A relation type read from one end (`blocks` from its target is "blocked by"). */
const relationExists = (end: 'issue_id' | 'related_issue_id', type: string): FieldSpec => ({
  kind: 'exists',
  exists: relationFrom(end, type),
});
/** Types without a direction worth filtering on (related; duplicate either way). */
const relationEitherWay = (type: string): FieldSpec => ({
  kind: 'exists',
  exists: (outer, inner, ctx) =>
    sql`(${relationFrom('issue_id', type)(outer, `${inner}a`, ctx)} or ${relationFrom('related_issue_id', type)(outer, `${inner}b`, ctx)})`,
});

const stamps = {
  id: col('id', 'id'),
  createdAt: col('created_at', 'date'),
  updatedAt: col('updated_at', 'date'),
};

export const issueEntity: EntitySpec = {
  name: 'Issue',
  visible: visibility.issue,
  fields: {
    ...stamps,
    title: col('title', 'string'),
    description: longText('issues', 'description'),
    number: col('number', 'number'),
    priority: col('priority', 'number'),
    estimate: col('estimate', 'number'),
    dueDate: col('due_date', 'timelessDate'),
    archivedAt: col('archived_at', 'date'),
    startedAt: col('started_at', 'date'),
    completedAt: col('completed_at', 'date'),
    canceledAt: col('canceled_at', 'date'),
    snoozedUntilAt: col('snoozed_until_at', 'date'),
    searchableContent: {
      kind: 'search',
      match: (a, term) => {
        const query = searchQuery(term);
        return query ? matchesSearch(a, query) : null;
      },
    },
    state: belongsTo(() => workflowStateEntity, 'workflow_states', 'state_id', true),
    team: belongsTo(() => teamEntity, 'teams', 'team_id', true),
    assignee: belongsTo(() => userEntity, 'users', 'assignee_id'),
    creator: belongsTo(() => userEntity, 'users', 'creator_id'),
    snoozedBy: belongsTo(() => userEntity, 'users', 'snoozed_by_id'),
    project: belongsTo(() => projectEntity, 'projects', 'project_id'),
    projectMilestone: belongsTo(() => projectMilestoneEntity, 'project_milestones', 'project_milestone_id'),
    cycle: belongsTo(() => cycleEntity, 'cycles', 'cycle_id', true),
    parent: belongsTo(() => issueEntity, 'issues', 'parent_id'),
    children: hasMany(() => issueEntity, 'issues', 'parent_id'),
    comments: hasMany(() => commentEntity, 'comments', 'issue_id'),
    attachments: hasMany(() => attachmentEntity, 'attachments', 'issue_id'),
    labels: through(() => labelEntity, 'labels', 'issue_labels', 'issue_id', 'label_id'),
    subscribers: through(() => userEntity, 'users', 'issue_subscribers', 'issue_id', 'user_id'),
    hasBlockingRelations: relationExists('issue_id', 'blocks'),
    hasBlockedByRelations: relationExists('related_issue_id', 'blocks'),
    hasDuplicateRelations: relationEitherWay('duplicate'),
    hasRelatedRelations: relationEitherWay('related'),
  },
};

/** Issue relations (GraphQL issueRelations and Issue.relations / inverseRelations). */
export const issueRelationEntity: EntitySpec = {
  name: 'IssueRelation',
  visible: visibility.issueRelation,
  fields: {
    ...stamps,
    type: col('type', 'string'),
    issue: belongsTo(() => issueEntity, 'issues', 'issue_id'),
    relatedIssue: belongsTo(() => issueEntity, 'issues', 'related_issue_id'),
  },
};

export const workflowStateEntity: EntitySpec = {
  name: 'WorkflowState',
  visible: visibility.workflowState,
  fields: {
    ...stamps,
    name: col('name', 'string'),
    type: col('type', 'string'),
    description: col('description', 'string'),
    position: col('position', 'number'),
    team: belongsTo(() => teamEntity, 'teams', 'team_id', true),
    issues: hasMany(() => issueEntity, 'issues', 'state_id'),
  },
};

export const userEntity: EntitySpec = {
  name: 'User',
  visible: visibility.user,
  fields: {
    ...stamps,
    name: col('name', 'string'),
    displayName: col('display_name', 'string'),
    email: col('email', 'string'),
    active: expr('boolean', (a) => sql`(${ref(a, 'status')} = 'active' and ${ref(a, 'deleted_at')} is null)`),
    admin: expr('boolean', (a) => sql`(${ref(a, 'role')} = 'admin')`),
    isMe: expr('boolean', (a, ctx) =>
      ctx.actorId ? sql`(${ref(a, 'id')} = ${ctx.actorId}::uuid)` : sql`false`,
    ),
    owner: constant('boolean', false),
    app: constant('boolean', false),
    invited: constant('boolean', false),
    isInvited: constant('boolean', false),
    assignedIssues: hasMany(() => issueEntity, 'issues', 'assignee_id'),
  },
};

export const teamEntity: EntitySpec = {
  name: 'Team',
  visible: visibility.team,
  fields: {
    ...stamps,
    key: col('key', 'string'),
    name: col('name', 'string'),
    description: col('description', 'string'),
    private: col('private', 'boolean'),
    visibility: expr('string', (a) => sql`(case when ${ref(a, 'private')} then 'private' else 'public' end)`),
    retiredAt: constant('date', null),
    issues: hasMany(() => issueEntity, 'issues', 'team_id'),
    members: through(() => userEntity, 'users', 'team_memberships', 'team_id', 'user_id'),
    users: through(() => userEntity, 'users', 'team_memberships', 'team_id', 'user_id'),
    owners: through(() => userEntity, 'users', 'team_memberships', 'team_id', 'user_id', '$l.owner'),
  },
};

export const labelEntity: EntitySpec = {
  name: 'IssueLabel',
  visible: visibility.label,
  fields: {
    ...stamps,
    name: col('name', 'string'),
    isGroup: col('is_group', 'boolean'),
    creator: belongsTo(() => userEntity, 'users', 'creator_id'),
    parent: belongsTo(() => labelEntity, 'labels', 'parent_id'),
    team: belongsTo(() => teamEntity, 'teams', 'team_id', true),
  },
};

const projectStatusEntity: EntitySpec = {
  name: 'ProjectStatus',
  fields: {
    id: col('status', 'string'),
    type: col('status', 'string'),
    name: expr('string', (a) => sql`initcap(${ref(a, 'status')})`),
  },
};

export const projectEntity: EntitySpec = {
  name: 'Project',
  visible: visibility.project,
  fields: {
    ...stamps,
    name: col('name', 'string'),
    slugId: col('slug_id', 'string'),
    state: col('status', 'string'),
    health: col('health', 'string'),
    startDate: col('start_date', 'date'),
    targetDate: col('target_date', 'date'),
    startedAt: col('started_at', 'date'),
    completedAt: col('completed_at', 'date'),
    canceledAt: col('canceled_at', 'date'),
    priority: constant('number', 0),
    searchableContent: {
      kind: 'scalar',
      type: 'string',
      expr: (a) => sql`(${ref(a, 'name')} || ' ' || ${ref(a, 'description')})`,
      long: true,
    },
    status: { kind: 'self', entity: () => projectStatusEntity },
    lead: belongsTo(() => userEntity, 'users', 'lead_id'),
    creator: belongsTo(() => userEntity, 'users', 'creator_id'),
    issues: hasMany(() => issueEntity, 'issues', 'project_id'),
    projectMilestones: hasMany(() => projectMilestoneEntity, 'project_milestones', 'project_id'),
    members: through(() => userEntity, 'users', 'project_members', 'project_id', 'user_id'),
    accessibleTeams: through(() => teamEntity, 'teams', 'project_teams', 'project_id', 'team_id'),
  },
};

/** A project's updates (ProjectUpdateFilter), seen with their project. */
export const projectUpdateEntity: EntitySpec = {
  name: 'ProjectUpdate',
  visible: visibility.projectUpdate,
  fields: {
    ...stamps,
    health: col('health', 'string'),
    project: belongsTo(() => projectEntity, 'projects', 'project_id'),
    user: belongsTo(() => userEntity, 'users', 'user_id'),
  },
};

export const projectMilestoneEntity: EntitySpec = {
  name: 'ProjectMilestone',
  visible: visibility.projectMilestone,
  fields: {
    ...stamps,
    name: col('name', 'string'),
    targetDate: col('target_date', 'date'),
    project: belongsTo(() => projectEntity, 'projects', 'project_id'),
    issues: hasMany(() => issueEntity, 'issues', 'project_milestone_id'),
  },
};

const cycleAt = (a: string, cond: string) => sql.raw(cond.replaceAll('$', a));
export const cycleEntity: EntitySpec = {
  name: 'Cycle',
  visible: visibility.cycle,
  fields: {
    ...stamps,
    name: col('name', 'string'),
    number: col('number', 'number'),
    startsAt: col('starts_at', 'date'),
    endsAt: col('ends_at', 'date'),
    completedAt: col('completed_at', 'date'),
    isActive: expr('boolean', (a) => sql`(${cyclePhaseSql(sql.raw(a), sql`now()`)} = 'current')`),
    isFuture: expr('boolean', (a) => sql`(${cyclePhaseSql(sql.raw(a), sql`now()`)} = 'upcoming')`),
    isPast: expr('boolean', (a) => sql`(${cyclePhaseSql(sql.raw(a), sql`now()`)} = 'past')`),
    isNext: expr('boolean', (a) =>
      cycleAt(
        a,
        '($.id = (select n.id from cycles n where n.team_id = $.team_id and n.starts_at > now() and n.archived_at is null order by n.starts_at limit 1))',
      ),
    ),
    isPrevious: expr('boolean', (a) =>
      cycleAt(
        a,
        '($.id = (select p.id from cycles p where p.team_id = $.team_id and p.ends_at <= now() and p.archived_at is null order by p.ends_at desc limit 1))',
      ),
    ),
    isInCooldown: constant('boolean', false),
    team: belongsTo(() => teamEntity, 'teams', 'team_id', true),
    issues: hasMany(() => issueEntity, 'issues', 'cycle_id'),
  },
};

export const commentEntity: EntitySpec = {
  name: 'Comment',
  visible: visibility.comment,
  fields: {
    ...stamps,
    body: longText('comments', 'body'),
    issue: belongsTo(() => issueEntity, 'issues', 'issue_id'),
    parent: belongsTo(() => commentEntity, 'comments', 'parent_id'),
    user: belongsTo(() => userEntity, 'users', 'user_id'),
  },
};

export const attachmentEntity: EntitySpec = {
  name: 'Attachment',
  visible: visibility.attachment,
  fields: {
    ...stamps,
    title: col('title', 'string'),
    subtitle: col('subtitle', 'string'),
    url: col('url', 'string'),
    sourceType: col('source_type', 'string'),
    creator: belongsTo(() => userEntity, 'users', 'creator_id'),
  },
};

/** Emoji reactions on issues and comments, seen with their issue (ReactionFilter). */
export const reactionEntity: EntitySpec = {
  name: 'Reaction',
  visible: visibility.reaction,
  fields: {
    ...stamps,
    emoji: col('emoji', 'string'),
    user: belongsTo(() => userEntity, 'users', 'user_id'),
    comment: belongsTo(() => commentEntity, 'comments', 'comment_id', true),
  },
};

/** Saved views (GraphQL customViews' CustomViewFilter, REST GET /api/views). */
export const customViewEntity: EntitySpec = {
  name: 'CustomView',
  visible: visibility.customView,
  bindsAdmins: true,
  fields: {
    ...stamps,
    name: col('name', 'string'),
    shared: col('shared', 'boolean'),
    // Every view we hold lists issues.
    modelName: constant('string', 'Issue'),
    hasFacet: constant('boolean', false),
    creator: belongsTo(() => userEntity, 'users', 'creator_id'),
    team: belongsTo(() => teamEntity, 'teams', 'team_id'),
  },
};

export const webhookEntity: EntitySpec = {
  name: 'Webhook',
  visible: visibility.webhook,
  fields: { ...stamps },
};
/** An endpoint's delivery of one event, and each attempt at it: admins', as their endpoint. */
export const webhookDeliveryEntity: EntitySpec = {
  name: 'WebhookDelivery',
  visible: visibility.webhook,
  fields: { ...stamps },
};
export const webhookAttemptEntity: EntitySpec = {
  name: 'WebhookAttempt',
  visible: visibility.webhook,
  fields: { id: stamps.id },
};
/** An uploaded file (visibility.file: its uploader's, and with an attachment that carries it). */
export const fileEntity: EntitySpec = {
  name: 'File',
  visible: visibility.file,
  fields: { id: stamps.id, createdAt: stamps.createdAt },
};
export const membershipEntity: EntitySpec = {
  name: 'TeamMembership',
  visible: visibility.teamMembership,
  fields: { ...stamps },
};
export const historyEntity: EntitySpec = {
  name: 'IssueHistory',
  visible: visibility.issueHistory,
  fields: { ...stamps },
};

/** The caller's notifications (GraphQL NotificationFilter); the rule binds admins: one's own rows only. */
export const notificationEntity: EntitySpec = {
  name: 'Notification',
  visible: visibility.notification,
  bindsAdmins: true,
  fields: {
    ...stamps,
    type: col('type', 'string'),
    archivedAt: col('archived_at', 'date'),
  },
};

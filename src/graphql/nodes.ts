// Rows -> GraphQL objects, in this file only: lists, lookups, relations and
// mutation payloads map a row with the functions here (`node` below gives
// each with what the request supplies). Each node keeps its row and computes
// a field only when a query asks for it (prototype getters, read by the default resolver),
// so a page of 50 issues does not build hundreds of unused values. Relations
// and computed lists are field resolvers in resolvers/*.ts that read `row`.
// Anything a node does not define answers its type's empty value (see
// build-schema.ts).
import { cyclePhase } from '../modules/cycles/fields.js';
import { issueUrl } from '../modules/issues/fields.js';
import { priorityLabel } from '../modules/issues/priorities.js';
import { projectStatusOf } from '../modules/projects/fields.js';
import { projectUrl } from '../modules/projects/present.js';
import { GRAPHQL_RESOURCE_NAMES } from '../modules/webhooks/resources.js';
import {
  type AttachmentRow,
  type CommentRow,
  type CustomViewRow,
  type CycleRow,
  type IssueRelationRow,
  type IssueRow,
  type LabelRow,
  type MilestoneRow,
  PROJECT_STATUSES,
  type ProjectRow,
  type ProjectUpdateRow,
  type ReactionRow,
  type StateRow,
  type TeamMembershipRow,
  type TeamRow,
  type UserRow,
  type WebhookRow,
} from '../platform/db/tables.js';

interface Stamped {
  id: string;
  created_at: Date;
  updated_at: Date;
}

/** id, createdAt, updatedAt and the row itself, shared by every node. */
abstract class RowNode<R extends Stamped> {
  constructor(readonly row: R) {}
  get id() {
    return this.row.id;
  }
  get createdAt() {
    return this.row.created_at;
  }
  get updatedAt() {
    return this.row.updated_at;
  }
}

/** Getters for the fields that are a column as stored: `{ field: column }`. */
function readsColumns<R extends Stamped>(
  node: abstract new (...args: never[]) => RowNode<R>,
  fields: Record<string, keyof R & string>,
): void {
  for (const [field, column] of Object.entries(fields)) {
    Object.defineProperty(node.prototype, field, {
      get(this: RowNode<R>) {
        return this.row[column];
      },
    });
  }
}

class IssueNode extends RowNode<IssueRow> {
  constructor(
    row: IssueRow,
    private readonly publicUrl: string,
  ) {
    super(row);
  }
  get priorityLabel() {
    return priorityLabel(this.row.priority);
  }
  get prioritySortOrder() {
    return this.row.priority === 0 ? 5 : this.row.priority;
  }
  get url() {
    return issueUrl(this.publicUrl, this.row.identifier, this.row.title);
  }
}
readsColumns(IssueNode, {
  identifier: 'identifier',
  title: 'title',
  description: 'description',
  number: 'number',
  priority: 'priority',
  estimate: 'estimate',
  dueDate: 'due_date',
  sortOrder: 'sort_order',
  boardOrder: 'sort_order',
  archivedAt: 'archived_at',
  startedAt: 'started_at',
  completedAt: 'completed_at',
  canceledAt: 'canceled_at',
  snoozedUntilAt: 'snoozed_until_at',
});

export const issueNode = (r: IssueRow, publicUrl: string) => new IssueNode(r, publicUrl);

class UserNode extends RowNode<UserRow> {
  constructor(
    row: UserRow,
    private readonly viewerId: string,
    private readonly publicUrl: string,
  ) {
    super(row);
  }
  private get usable() {
    return this.row.deleted_at === null && this.row.status === 'active';
  }
  get active() {
    return this.usable;
  }
  get admin() {
    return this.row.role === 'admin';
  }
  get guest() {
    return this.row.role === 'guest';
  }
  get isMe() {
    return this.row.id === this.viewerId;
  }
  get app() {
    return this.row.status === 'app';
  }
  get isAssignable() {
    return this.usable;
  }
  get isMentionable() {
    return this.usable;
  }
  get canAccessAnyPublicTeam() {
    return this.row.role !== 'guest';
  }
  get disableReason() {
    return this.row.status === 'suspended' ? 'suspended' : null;
  }
  get initials() {
    return this.row.initials;
  }
  get avatarBackgroundColor() {
    return this.row.avatar_color;
  }
  get url() {
    return `${this.publicUrl}/users/${this.row.id}`;
  }
}
readsColumns(UserNode, {
  name: 'name',
  displayName: 'display_name',
  email: 'email',
  avatarUrl: 'avatar_url',
  archivedAt: 'deleted_at',
});

export const userNode = (r: UserRow, viewerId: string, publicUrl: string) =>
  new UserNode(r, viewerId, publicUrl);

class TeamNode extends RowNode<TeamRow> {
  get visibility() {
    return this.row.private ? 'private' : 'public';
  }
  get allMembersCanJoin() {
    return !this.row.private;
  }
}
readsColumns(TeamNode, {
  key: 'key',
  name: 'name',
  displayName: 'name',
  description: 'description',
  color: 'color',
  icon: 'icon',
  private: 'private',
  archivedAt: 'archived_at',
  cyclesEnabled: 'cycles_enabled',
  triageEnabled: 'triage_enabled',
  timezone: 'timezone',
  cycleDuration: 'cycle_duration',
  cycleCooldownTime: 'cycle_cooldown',
  cycleStartDay: 'cycle_start_day',
  upcomingCycleCount: 'upcoming_cycle_count',
});
// Settings every team has here; fixed values rather than stored ones.
Object.defineProperties(TeamNode.prototype, {
  issueEstimationType: { value: 'notUsed' },
  setIssueSortOrderOnStateChange: { value: 'none' },
});

export const teamNode = (r: TeamRow) => new TeamNode(r);

class StateNode extends RowNode<StateRow> {}
readsColumns(StateNode, {
  name: 'name',
  type: 'type',
  color: 'color',
  description: 'description',
  position: 'position',
  archivedAt: 'archived_at',
});

export const stateNode = (r: StateRow) => new StateNode(r);

class LabelNode extends RowNode<LabelRow> {}
readsColumns(LabelNode, {
  name: 'name',
  description: 'description',
  color: 'color',
  isGroup: 'is_group',
  archivedAt: 'archived_at',
});

export const labelNode = (r: LabelRow) => new LabelNode(r);

export { PROJECT_STATUSES };

/** Project statuses are a fixed list here; each is presented as a ProjectStatus (projects/fields.ts). */
export const projectStatusNode = projectStatusOf;

class ProjectNode extends RowNode<ProjectRow> {
  constructor(
    row: ProjectRow,
    private readonly publicUrl: string,
  ) {
    super(row);
  }
  get url() {
    return projectUrl(this.publicUrl, this.row);
  }
  get status() {
    return projectStatusNode(this.row.status, this.row.created_at);
  }
}
readsColumns(ProjectNode, {
  name: 'name',
  description: 'description',
  content: 'content',
  slugId: 'slug_id',
  color: 'color',
  icon: 'icon',
  state: 'status',
  health: 'health',
  healthUpdatedAt: 'health_updated_at',
  startDate: 'start_date',
  targetDate: 'target_date',
  startedAt: 'started_at',
  completedAt: 'completed_at',
  canceledAt: 'canceled_at',
  archivedAt: 'archived_at',
  sortOrder: 'sort_order',
});
// Projects carry no priority or update cadence here.
Object.defineProperties(ProjectNode.prototype, {
  priorityLabel: { value: priorityLabel(0) },
  frequencyResolution: { value: 'weekly' },
});

export const projectNode = (r: ProjectRow, publicUrl: string) => new ProjectNode(r, publicUrl);

/**
 * A milestone carries only its row: every field it holds has an explicit
 * resolver (resolvers/milestones.ts), progress and status need its siblings.
 */
export const milestoneNode = (r: MilestoneRow) => ({ id: r.id, row: r });

/** A saved view, like a milestone: its fields have explicit resolvers (resolvers/views.ts). */
export const viewNode = (r: CustomViewRow) => ({ id: r.id, row: r });

class CycleNode extends RowNode<CycleRow> {
  constructor(
    row: CycleRow,
    private readonly now: Date,
  ) {
    super(row);
  }
  get isActive() {
    return cyclePhase(this.row, this.now) === 'current';
  }
  get isFuture() {
    return cyclePhase(this.row, this.now) === 'upcoming';
  }
  get isPast() {
    return cyclePhase(this.row, this.now) === 'past';
  }
}
readsColumns(CycleNode, {
  number: 'number',
  name: 'name',
  description: 'description',
  startsAt: 'starts_at',
  endsAt: 'ends_at',
  completedAt: 'completed_at',
  archivedAt: 'archived_at',
});

export const cycleNode = (r: CycleRow, now: Date) => new CycleNode(r, now);

class CommentNode extends RowNode<CommentRow> {
  // The schema has no deletedAt: a deleted comment kept for its replies shows
  // as archived at its deletion, with body "" and no user.
  get archivedAt() {
    return this.row.deleted_at ?? this.row.archived_at;
  }
}
readsColumns(CommentNode, {
  body: 'body',
  issueId: 'issue_id',
  parentId: 'parent_id',
  editedAt: 'edited_at',
  resolvedAt: 'resolved_at',
});

export const commentNode = (r: CommentRow) => new CommentNode(r);

class AttachmentNode extends RowNode<AttachmentRow> {
  get metadata() {
    return this.row.metadata ?? {};
  }
}
readsColumns(AttachmentNode, {
  title: 'title',
  subtitle: 'subtitle',
  url: 'url',
  sourceType: 'source_type',
  groupBySource: 'group_by_source',
  archivedAt: 'archived_at',
});

export const attachmentNode = (r: AttachmentRow) => new AttachmentNode(r);

class ReactionNode extends RowNode<ReactionRow> {
  // Removing a reaction deletes it.
  get archivedAt() {
    return null;
  }
}
readsColumns(ReactionNode, { emoji: 'emoji' });

const reactionNode = (r: ReactionRow) => new ReactionNode(r);

class ProjectUpdateNode extends RowNode<ProjectUpdateRow> {
  // We keep no diff of the project between updates.
  get isDiffHidden() {
    return true;
  }
  get isStale() {
    return false;
  }
}
readsColumns(ProjectUpdateNode, {
  body: 'body',
  health: 'health',
  slugId: 'slug_id',
  editedAt: 'edited_at',
  archivedAt: 'archived_at',
});

const projectUpdateNode = (r: ProjectUpdateRow) => new ProjectUpdateNode(r);

/** Relations keep only their row: every IssueRelation field has its own resolver (resolvers/relations.ts). */
export const issueRelationNode = (r: IssueRelationRow) => ({ id: r.id, row: r });

const stamps = (r: Stamped) => ({ id: r.id, createdAt: r.created_at, updatedAt: r.updated_at });

/**
 * A webhook as the resolver fallback and the mutations' payloads answer it
 * (compiled reads read the declaration, platform/read/entities.ts webhook).
 * The signing secret is shown once, at creation, never again.
 */
export const webhookNode = (r: WebhookRow, secret?: string) => ({
  ...stamps(r),
  row: r,
  label: r.label,
  url: r.url,
  enabled: r.enabled,
  resourceTypes: r.resource_types.map((t) => RESOURCE_OUT[t] ?? t),
  allPublicTeams: r.all_public_teams,
  archivedAt: r.archived_at,
  secret: secret ?? null,
});

// Webhook resource types: the third-party names on the wire, ours in storage (webhooks/resources.ts).
const RESOURCE_OUT: Record<string, string> = GRAPHQL_RESOURCE_NAMES;
const RESOURCE_IN = Object.fromEntries(Object.entries(RESOURCE_OUT).map(([k, v]) => [v, k]));
export const resourceTypesIn = (types: unknown) =>
  Array.isArray(types) ? types.map((t) => RESOURCE_IN[t as string] ?? String(t)) : undefined;

/** A team membership: the fields of its row; team and user are resolvers (resolvers/reads.ts). */
export const membershipNode = (r: TeamMembershipRow) => ({
  id: r.id,
  row: r,
  owner: r.owner,
  sortOrder: r.sort_order,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  archivedAt: r.archived_at,
});

/**
 * Issue history rows keep `changes` as { field: { from, to } } with REST field
 * names (stateId, title, labelIds, ...); the schema names them fromX/toX.
 */
export function historyNode(r: HistoryRow) {
  const node: Record<string, unknown> = {
    id: r.id,
    row: r,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    actorId: r.actor_id,
  };
  const changes = (r.changes ?? {}) as Record<string, { from?: unknown; to?: unknown } | undefined>;
  for (const [field, change] of Object.entries(changes)) {
    if (typeof change !== 'object' || change === null) continue;
    const name = field.charAt(0).toUpperCase() + field.slice(1);
    node[`from${name}`] = change.from ?? null;
    node[`to${name}`] = change.to ?? null;
  }
  const labels = changes.labelIds;
  if (labels) {
    const from = new Set((labels.from as string[] | undefined) ?? []);
    const to = new Set((labels.to as string[] | undefined) ?? []);
    node.addedLabelIds = [...to].filter((id) => !from.has(id));
    node.removedLabelIds = [...from].filter((id) => !to.has(id));
  }
  if (changes.archivedAt) node.archived = changes.archivedAt.to != null;
  return node;
}

export interface HistoryRow {
  id: string;
  created_at: Date;
  updated_at: Date;
  actor_id: string | null;
  issue_id: string;
  changes: unknown;
}

/** What a node needs of the request: the public URL for links, the viewer (isMe), the request's clock. */
export interface NodeScope {
  app: { config: { publicUrl: string } };
  actor: { id: string };
  /** Who isMe is (GqlContext.viewerId). */
  viewerId: string;
  now: Date;
}

/**
 * Each entity's row as its GraphQL node, with what the request supplies: the
 * one mapping that lists, lookups, relations and mutations use.
 */
export const node = {
  issue: (r: IssueRow, g: NodeScope) => issueNode(r, g.app.config.publicUrl),
  user: (r: UserRow, g: NodeScope) => userNode(r, g.viewerId, g.app.config.publicUrl),
  team: (r: TeamRow) => teamNode(r),
  state: (r: StateRow) => stateNode(r),
  label: (r: LabelRow) => labelNode(r),
  project: (r: ProjectRow, g: NodeScope) => projectNode(r, g.app.config.publicUrl),
  cycle: (r: CycleRow, g: NodeScope) => cycleNode(r, g.now),
  comment: (r: CommentRow) => commentNode(r),
  attachment: (r: AttachmentRow) => attachmentNode(r),
  reaction: (r: ReactionRow) => reactionNode(r),
  projectUpdate: (r: ProjectUpdateRow) => projectUpdateNode(r),
  milestone: (r: MilestoneRow) => milestoneNode(r),
  view: (r: CustomViewRow) => viewNode(r),
  issueRelation: (r: IssueRelationRow) => issueRelationNode(r),
  webhook: (r: WebhookRow) => webhookNode(r),
  membership: (r: TeamMembershipRow) => membershipNode(r),
  history: (r: HistoryRow) => historyNode(r),
};

/** The properties a node class answers: its getters and values, up the prototype chain. */
function answeredBy(node: abstract new (...args: never[]) => unknown): string[] {
  const names = new Set<string>();
  for (let p = node.prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const name of Object.getOwnPropertyNames(p))
      if (name !== 'constructor' && name !== 'row') names.add(name);
  }
  return [...names];
}

/**
 * The fields each GraphQL type's node answers from its row, for the schema's
 * held-field model (schema/held.ts). Derived from the classes above, so a
 * getter added here is held without being listed again.
 */
export const nodeFields: Record<string, string[]> = {
  Issue: answeredBy(IssueNode),
  IssueSearchResult: answeredBy(IssueNode),
  User: answeredBy(UserNode),
  Team: answeredBy(TeamNode),
  WorkflowState: answeredBy(StateNode),
  IssueLabel: answeredBy(LabelNode),
  Project: answeredBy(ProjectNode),
  Cycle: answeredBy(CycleNode),
  Comment: answeredBy(CommentNode),
  Attachment: answeredBy(AttachmentNode),
  Reaction: answeredBy(ReactionNode),
  ProjectUpdate: answeredBy(ProjectUpdateNode),
  ProjectStatus: Object.keys(projectStatusNode('backlog', new Date(0))),
  Webhook: Object.keys(webhookNode({ resource_types: [] } as unknown as WebhookRow)).filter(
    (k) => k !== 'row',
  ),
};

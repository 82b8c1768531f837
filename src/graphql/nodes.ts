// Rows -> GraphQL objects. Each node keeps its row and computes a field only
// when a query asks for it (prototype getters, read by the default resolver),
// so a page of 50 issues does not build hundreds of unused values. Relations
// and computed lists are field resolvers in resolvers/*.ts that read `row`.
// Anything a node does not define answers its type's empty value (see
// build-schema.ts).
import { issueUrl, PRIORITY_LABELS, slugify } from '../modules/issues/present.js';
import type {
  AttachmentRow,
  CommentRow,
  CycleRow,
  IssueRow,
  LabelRow,
  ProjectRow,
  StateRow,
  TeamRow,
  UserRow,
  WebhookRow,
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

class IssueNode extends RowNode<IssueRow> {
  constructor(
    row: IssueRow,
    private readonly publicUrl: string,
  ) {
    super(row);
  }
  get identifier() {
    return this.row.identifier;
  }
  get title() {
    return this.row.title;
  }
  get description() {
    return this.row.description;
  }
  get number() {
    return this.row.number;
  }
  get priority() {
    return this.row.priority;
  }
  get priorityLabel() {
    return PRIORITY_LABELS[this.row.priority] ?? 'No priority';
  }
  get estimate() {
    return this.row.estimate;
  }
  get dueDate() {
    return this.row.due_date;
  }
  get sortOrder() {
    return this.row.sort_order;
  }
  get boardOrder() {
    return this.row.sort_order;
  }
  get prioritySortOrder() {
    return this.row.priority === 0 ? 5 : this.row.priority;
  }
  get archivedAt() {
    return this.row.archived_at;
  }
  get startedAt() {
    return this.row.started_at;
  }
  get completedAt() {
    return this.row.completed_at;
  }
  get canceledAt() {
    return this.row.canceled_at;
  }
  get url() {
    return issueUrl(this.publicUrl, this.row.identifier, this.row.title);
  }
}

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
  get name() {
    return this.row.name;
  }
  get displayName() {
    return this.row.display_name;
  }
  get email() {
    return this.row.email;
  }
  get avatarUrl() {
    return this.row.avatar_url;
  }
  get archivedAt() {
    return this.row.deleted_at;
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
    return initials(this.row.name);
  }
  get avatarBackgroundColor() {
    return colorFor(this.row.id);
  }
  get url() {
    return `${this.publicUrl}/users/${this.row.id}`;
  }
}

export const userNode = (r: UserRow, viewerId: string, publicUrl: string) =>
  new UserNode(r, viewerId, publicUrl);

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');

/** A stable colour per user for avatars without a picture. */
function colorFor(id: string): string {
  let h = 0;
  for (let i = 0; i < id.length; i++) h = (h * 31 + id.charCodeAt(i)) % 360;
  return `hsl(${h}, 55%, 50%)`;
}

class TeamNode extends RowNode<TeamRow> {
  get key() {
    return this.row.key;
  }
  get name() {
    return this.row.name;
  }
  get displayName() {
    return this.row.name;
  }
  get description() {
    return this.row.description;
  }
  get color() {
    return this.row.color;
  }
  get icon() {
    return this.row.icon;
  }
  get private() {
    return this.row.private;
  }
  get visibility() {
    return this.row.private ? 'private' : 'public';
  }
  get archivedAt() {
    return this.row.archived_at;
  }
  get cyclesEnabled() {
    return this.row.cycles_enabled;
  }
  get allMembersCanJoin() {
    return !this.row.private;
  }
}
// Settings every team has here; fixed values rather than stored ones.
Object.defineProperties(TeamNode.prototype, {
  timezone: { value: 'UTC' },
  issueEstimationType: { value: 'notUsed' },
  setIssueSortOrderOnStateChange: { value: 'none' },
});

export const teamNode = (r: TeamRow) => new TeamNode(r);

class StateNode extends RowNode<StateRow> {
  get name() {
    return this.row.name;
  }
  get type() {
    return this.row.type;
  }
  get color() {
    return this.row.color;
  }
  get description() {
    return this.row.description;
  }
  get position() {
    return this.row.position;
  }
  get archivedAt() {
    return this.row.archived_at;
  }
}

export const stateNode = (r: StateRow) => new StateNode(r);

class LabelNode extends RowNode<LabelRow> {
  get name() {
    return this.row.name;
  }
  get description() {
    return this.row.description;
  }
  get color() {
    return this.row.color;
  }
  get isGroup() {
    return this.row.is_group;
  }
  get archivedAt() {
    return this.row.archived_at;
  }
}

export const labelNode = (r: LabelRow) => new LabelNode(r);

const STATUS_COLORS: Record<string, string> = {
  backlog: '#bec2c8',
  planned: '#e2e2e2',
  started: '#f2c94c',
  paused: '#0f783c',
  completed: '#5e6ad2',
  canceled: '#95a2b3',
};
export const PROJECT_STATUSES = ['backlog', 'planned', 'started', 'paused', 'completed', 'canceled'] as const;

/** Project statuses are a fixed list here; each is presented as a ProjectStatus. */
export const projectStatusNode = (type: string, since: Date) => ({
  id: type,
  type,
  name: type[0]!.toUpperCase() + type.slice(1),
  color: STATUS_COLORS[type] ?? '#bec2c8',
  position: PROJECT_STATUSES.indexOf(type as never),
  indefinite: type === 'backlog' || type === 'paused',
  createdAt: since,
  updatedAt: since,
});

class ProjectNode extends RowNode<ProjectRow> {
  constructor(
    row: ProjectRow,
    private readonly publicUrl: string,
  ) {
    super(row);
  }
  get name() {
    return this.row.name;
  }
  get description() {
    return this.row.description;
  }
  get content() {
    return this.row.content;
  }
  get slugId() {
    return this.row.slug_id;
  }
  get url() {
    return `${this.publicUrl}/project/${slugify(this.row.name)}-${this.row.slug_id}`;
  }
  get color() {
    return this.row.color;
  }
  get icon() {
    return this.row.icon;
  }
  get state() {
    return this.row.status;
  }
  get status() {
    return projectStatusNode(this.row.status, this.row.created_at);
  }
  get health() {
    return this.row.health;
  }
  get startDate() {
    return this.row.start_date;
  }
  get targetDate() {
    return this.row.target_date;
  }
  get startedAt() {
    return this.row.started_at;
  }
  get completedAt() {
    return this.row.completed_at;
  }
  get canceledAt() {
    return this.row.canceled_at;
  }
  get archivedAt() {
    return this.row.archived_at;
  }
  get sortOrder() {
    return this.row.sort_order;
  }
}
// Projects carry no priority or update cadence here.
Object.defineProperties(ProjectNode.prototype, {
  priorityLabel: { value: PRIORITY_LABELS[0] },
  frequencyResolution: { value: 'weekly' },
});

export const projectNode = (r: ProjectRow, publicUrl: string) => new ProjectNode(r, publicUrl);

class CycleNode extends RowNode<CycleRow> {
  constructor(
    row: CycleRow,
    private readonly now: Date,
  ) {
    super(row);
  }
  get number() {
    return this.row.number;
  }
  get name() {
    return this.row.name;
  }
  get description() {
    return this.row.description;
  }
  get startsAt() {
    return this.row.starts_at;
  }
  get endsAt() {
    return this.row.ends_at;
  }
  get completedAt() {
    return this.row.completed_at;
  }
  get archivedAt() {
    return this.row.archived_at;
  }
  get isActive() {
    return this.row.starts_at <= this.now && this.row.ends_at > this.now;
  }
  get isFuture() {
    return this.row.starts_at > this.now;
  }
  get isPast() {
    return this.row.ends_at <= this.now;
  }
}

export const cycleNode = (r: CycleRow, now: Date) => new CycleNode(r, now);

class CommentNode extends RowNode<CommentRow> {
  get body() {
    return this.row.body;
  }
  get issueId() {
    return this.row.issue_id;
  }
  get parentId() {
    return this.row.parent_id;
  }
  get editedAt() {
    return this.row.edited_at;
  }
  get resolvedAt() {
    return this.row.resolved_at;
  }
  get archivedAt() {
    return this.row.archived_at;
  }
}

export const commentNode = (r: CommentRow) => new CommentNode(r);

class AttachmentNode extends RowNode<AttachmentRow> {
  get title() {
    return this.row.title;
  }
  get subtitle() {
    return this.row.subtitle;
  }
  get url() {
    return this.row.url;
  }
  get metadata() {
    return this.row.metadata ?? {};
  }
  get sourceType() {
    return this.row.source_type;
  }
  get groupBySource() {
    return this.row.group_by_source;
  }
  get archivedAt() {
    return this.row.archived_at;
  }
}

export const attachmentNode = (r: AttachmentRow) => new AttachmentNode(r);

const stamps = (r: Stamped) => ({ id: r.id, createdAt: r.created_at, updatedAt: r.updated_at });

/** The signing secret is shown once, at creation, never again. */
export const webhookNode = (r: WebhookRow) => ({
  ...stamps(r),
  row: r,
  label: r.label,
  url: r.url,
  enabled: r.enabled,
  resourceTypes: r.resource_types,
  allPublicTeams: r.all_public_teams,
  archivedAt: r.archived_at,
  secret: null,
});

// Webhook resource types: the third-party names on the wire, ours in storage.
const RESOURCE_IN: Record<string, string> = {
  Issue: 'issue',
  Comment: 'comment',
  Project: 'project',
  Cycle: 'cycle',
  IssueLabel: 'label',
  Attachment: 'attachment',
};
const RESOURCE_OUT = Object.fromEntries(Object.entries(RESOURCE_IN).map(([k, v]) => [v, k]));
export const resourceTypesIn = (types: unknown) =>
  Array.isArray(types) ? types.map((t) => RESOURCE_IN[t as string] ?? String(t)) : undefined;
export const webhookOut = (row: WebhookRow, secret?: string) => ({
  ...webhookNode(row),
  resourceTypes: row.resource_types.map((t) => RESOURCE_OUT[t] ?? t),
  ...(secret ? { secret } : {}),
});

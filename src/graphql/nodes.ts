// Rows -> GraphQL objects. Plain values are set here; relations and computed
// lists are field resolvers in resolvers/*.ts that read the kept `row`.
// Anything not set answers its type's empty value (see build-schema.ts).
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

const stamps = (r: { id: string; created_at: Date; updated_at: Date }) => ({
  id: r.id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export const issueNode = (r: IssueRow, publicUrl: string) => ({
  ...stamps(r),
  row: r,
  identifier: r.identifier,
  title: r.title,
  description: r.description,
  number: r.number,
  priority: r.priority,
  priorityLabel: PRIORITY_LABELS[r.priority] ?? 'No priority',
  estimate: r.estimate,
  dueDate: r.due_date,
  sortOrder: r.sort_order,
  boardOrder: r.sort_order,
  prioritySortOrder: r.priority === 0 ? 5 : r.priority,
  archivedAt: r.archived_at,
  startedAt: r.started_at,
  completedAt: r.completed_at,
  canceledAt: r.canceled_at,
  url: issueUrl(publicUrl, r.identifier, r.title),
});

export const userNode = (r: UserRow, viewerId: string, publicUrl: string) => {
  const live = r.deleted_at === null;
  return {
    ...stamps(r),
    row: r,
    name: r.name,
    displayName: r.display_name,
    email: r.email,
    avatarUrl: r.avatar_url,
    archivedAt: r.deleted_at,
    active: live && r.status === 'active',
    admin: r.role === 'admin',
    guest: r.role === 'guest',
    isMe: r.id === viewerId,
    isAssignable: live && r.status === 'active',
    isMentionable: live && r.status === 'active',
    canAccessAnyPublicTeam: r.role !== 'guest',
    disableReason: r.status === 'suspended' ? 'suspended' : null,
    initials: initials(r.name),
    avatarBackgroundColor: colorFor(r.id),
    url: `${publicUrl}/users/${r.id}`,
  };
};

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
  for (const c of id) h = (h * 31 + c.charCodeAt(0)) % 360;
  return `hsl(${h}, 55%, 50%)`;
}

export const teamNode = (r: TeamRow) => ({
  ...stamps(r),
  row: r,
  key: r.key,
  name: r.name,
  displayName: r.name,
  description: r.description,
  color: r.color,
  icon: r.icon,
  private: r.private,
  visibility: r.private ? 'private' : 'public',
  archivedAt: r.archived_at,
  cyclesEnabled: r.cycles_enabled,
  timezone: 'UTC',
  issueEstimationType: 'notUsed',
  setIssueSortOrderOnStateChange: 'none',
  allMembersCanJoin: !r.private,
});

export const stateNode = (r: StateRow) => ({
  ...stamps(r),
  row: r,
  name: r.name,
  type: r.type,
  color: r.color,
  description: r.description,
  position: r.position,
  archivedAt: r.archived_at,
});

export const labelNode = (r: LabelRow) => ({
  ...stamps(r),
  row: r,
  name: r.name,
  description: r.description,
  color: r.color,
  isGroup: r.is_group,
  archivedAt: r.archived_at,
});

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

export const projectNode = (r: ProjectRow, publicUrl: string) => ({
  ...stamps(r),
  row: r,
  name: r.name,
  description: r.description,
  content: r.content,
  slugId: r.slug_id,
  url: `${publicUrl}/project/${slugify(r.name)}-${r.slug_id}`,
  color: r.color,
  icon: r.icon,
  state: r.status,
  status: projectStatusNode(r.status, r.created_at),
  health: r.health,
  startDate: r.start_date,
  targetDate: r.target_date,
  startedAt: r.started_at,
  completedAt: r.completed_at,
  canceledAt: r.canceled_at,
  archivedAt: r.archived_at,
  sortOrder: r.sort_order,
  priorityLabel: PRIORITY_LABELS[0],
  frequencyResolution: 'weekly',
});

export const cycleNode = (r: CycleRow, now: Date) => ({
  ...stamps(r),
  row: r,
  number: r.number,
  name: r.name,
  description: r.description,
  startsAt: r.starts_at,
  endsAt: r.ends_at,
  completedAt: r.completed_at,
  archivedAt: r.archived_at,
  isActive: r.starts_at <= now && r.ends_at > now,
  isFuture: r.starts_at > now,
  isPast: r.ends_at <= now,
});

export const commentNode = (r: CommentRow) => ({
  ...stamps(r),
  row: r,
  body: r.body,
  issueId: r.issue_id,
  parentId: r.parent_id,
  editedAt: r.edited_at,
  resolvedAt: r.resolved_at,
  archivedAt: r.archived_at,
});

export const attachmentNode = (r: AttachmentRow) => ({
  ...stamps(r),
  row: r,
  title: r.title,
  subtitle: r.subtitle,
  url: r.url,
  metadata: r.metadata ?? {},
  sourceType: r.source_type,
  groupBySource: r.group_by_source,
  archivedAt: r.archived_at,
});

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

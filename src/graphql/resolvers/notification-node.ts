// The notification as GraphQL shows it: an IssueNotification, or a
// ProjectNotification for one about a project (a new project update), over a
// notifications row, each held field with its own resolver so what is held is
// explicit (schema/held.ts reads this map). Relations go through the batched
// loaders; `issue`, `team`, `comment`, `parentComment`, `project`,
// `projectUpdate` and `user { id }` need no rule of their own: a notification
// is listed only while its recipient sees its issue or project.
import { issueUrl } from '../../modules/issues/fields.js';
import { NOTIFICATION_CATEGORY, notificationLine } from '../../modules/notifications/notify.js';
import { notificationListColumns } from '../../modules/notifications/queries.js';
import { projectUrl } from '../../modules/projects/present.js';
import type {
  CommentRow,
  IssueRow,
  ProjectRow,
  ProjectUpdateRow,
  TeamRow,
  UserRow,
} from '../../platform/db/tables.js';
import { notificationEntity } from '../../platform/list/entities.js';
import type { Resolver, ResolverMap } from '../build-schema.js';
import type { ListDef } from '../connections.js';
import type { GqlContext } from '../context.js';
import { commentNode, issueNode, node, teamNode, userNode } from '../nodes.js';
import { belongsTo } from './helpers.js';

/** The columns every notification node reads: the row, and its issue's team (null for a project's). */
export interface NotificationRow {
  id: string;
  type: string;
  user_id: string;
  issue_id: string | null;
  issue_team_id: string | null;
  project_id: string | null;
  project_update_id: string | null;
  comment_id: string | null;
  parent_comment_id: string | null;
  actor_id: string | null;
  issue_status_type: string | null;
  created_at: Date;
  updated_at: Date;
  read_at: Date | null;
  archived_at: Date | null;
  snoozed_until_at: Date | null;
}

type Source = { id: string; row: NotificationRow };

/** `__typename` picks the interface's implementation (graphql-js reads it): a row about a project is a ProjectNotification. */
export const notificationNode = (r: NotificationRow) => ({
  __typename: r.project_id ? 'ProjectNotification' : 'IssueNotification',
  id: r.id,
  row: r,
});

/**
 * The caller's notifications as a list: the rule of platform/access.ts
 * (their own, issue still visible), paged on notifications_user_created
 * (migration 0021).
 */
export const notificationList: ListDef = {
  table: 'notifications',
  entity: notificationEntity,
  archivable: true,
  columns: notificationListColumns,
  node: (r: NotificationRow) => notificationNode(r),
};

const column =
  (read: (r: NotificationRow) => unknown): Resolver =>
  (src: Source) =>
    read(src.row);

const issueOf = (src: Source, g: GqlContext) =>
  src.row.issue_id ? g.loaders.issue.load(src.row.issue_id) : Promise.resolve(null);
const projectOf = (src: Source, g: GqlContext) =>
  src.row.project_id ? g.loaders.project.load(src.row.project_id) : Promise.resolve(null);
const updateOf = (src: Source, g: GqlContext) =>
  src.row.project_update_id ? g.loaders.projectUpdate.load(src.row.project_update_id) : Promise.resolve(null);
/** The actor as the caller may see them (a guest sees only the people of their teams). */
const actorOf = (src: Source, g: GqlContext) =>
  src.row.actor_id ? g.loaders.user.load(src.row.actor_id) : Promise.resolve(null);

const user = (r: UserRow, g: GqlContext) => userNode(r, g.viewerId, g.app.config.publicUrl);

/** The fields every kind has (the Notification interface's that we hold). */
const common: Record<string, Resolver> = {
  id: column((r) => r.id),
  type: column((r) => r.type),
  category: column((r) => (NOTIFICATION_CATEGORY as Record<string, string>)[r.type] ?? 'system'),
  createdAt: column((r) => r.created_at),
  updatedAt: column((r) => r.updated_at),
  readAt: column((r) => r.read_at),
  archivedAt: column((r) => r.archived_at),
  snoozedUntilAt: column((r) => r.snoozed_until_at),
  subtitle: column((r) => notificationLine(r.type, r.parent_comment_id)),
  user: belongsTo<UserRow>('user', (r) => r.user_id, user),
  actor: belongsTo<UserRow>('user', (r) => r.actor_id, user),
  actorAvatarUrl: async (src: Source, _a, g) => (await actorOf(src, g))?.avatar_url ?? null,
  actorInitials: async (src: Source, _a, g) => {
    const a = await actorOf(src, g);
    return a ? user(a, g).initials : null;
  },
  actorAvatarColor: async (src: Source, _a, g) => {
    const a = await actorOf(src, g);
    return a ? user(a, g).avatarBackgroundColor : '';
  },
  actorInactive: async (src: Source, _a, g) => {
    const a = await actorOf(src, g);
    return a ? !user(a, g).active : false;
  },
};

export const issueNotificationResolvers: ResolverMap = {
  IssueNotification: {
    ...common,
    issueId: column((r) => r.issue_id),
    commentId: column((r) => r.comment_id),
    parentCommentId: column((r) => r.parent_comment_id),
    issueStatusType: column((r) => r.issue_status_type),
    /** The inbox shows one entry per issue, and the batch mutations act on it. */
    groupingKey: column((r) => `issue/${r.issue_id}`),
    title: async (src: Source, _a, g) => {
      const i = await issueOf(src, g);
      return i ? `${i.identifier} ${i.title}` : '';
    },
    url: async (src: Source, _a, g) => {
      const i = await issueOf(src, g);
      return i ? issueUrl(g.app.config.publicUrl, i.identifier, i.title) : '';
    },
    issue: belongsTo<IssueRow>(
      'issue',
      (r) => r.issue_id,
      (r, g) => issueNode(r, g.app.config.publicUrl),
    ),
    team: belongsTo<TeamRow>('team', (r) => r.issue_team_id, teamNode),
    comment: belongsTo<CommentRow>('comment', (r) => r.comment_id, commentNode),
    parentComment: belongsTo<CommentRow>('comment', (r) => r.parent_comment_id, commentNode),
  },
  /** About a project: a new update on it (projectUpdateCreated). */
  ProjectNotification: {
    ...common,
    projectId: column((r) => r.project_id),
    projectUpdateId: column((r) => r.project_update_id),
    /** One inbox entry per project. */
    groupingKey: column((r) => `project/${r.project_id}`),
    projectUpdateHealth: async (src: Source, _a, g) => (await updateOf(src, g))?.health ?? null,
    title: async (src: Source, _a, g) => (await projectOf(src, g))?.name ?? '',
    // The update's link: its project's page, at the update.
    url: async (src: Source, _a, g) => {
      const [p, u] = await Promise.all([projectOf(src, g), updateOf(src, g)]);
      return p && u ? `${projectUrl(g.app.config.publicUrl, p)}#update-${u.slug_id}` : '';
    },
    project: belongsTo<ProjectRow>('project', (r) => r.project_id, node.project),
    projectUpdate: belongsTo<ProjectUpdateRow>(
      'projectUpdate',
      (r) => r.project_update_id,
      node.projectUpdate,
    ),
  },
};

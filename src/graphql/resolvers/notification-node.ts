// The notification as GraphQL shows it: an IssueNotification (the only kind
// Trackway writes) over a notifications row, each held field with its own
// resolver so what is held is explicit (schema/held.ts reads this map).
// Relations go through the batched loaders; `issue`, `team`, `comment`,
// `parentComment` and `user { id }` need no read: a notification is listed
// only while its recipient sees its issue, and all of those share its team.
import { issueUrl } from '../../modules/issues/fields.js';
import { NOTIFICATION_CATEGORY, notificationLine } from '../../modules/notifications/notify.js';
import { notificationListColumns } from '../../modules/notifications/queries.js';
import type { CommentRow, IssueRow, TeamRow, UserRow } from '../../platform/db/tables.js';
import { notificationEntity } from '../../platform/list/entities.js';
import type { Resolver, ResolverMap } from '../build-schema.js';
import type { ListDef } from '../connections.js';
import type { GqlContext } from '../context.js';
import { commentNode, issueNode, teamNode, userNode } from '../nodes.js';
import { belongsTo } from './helpers.js';

/** The columns every notification node reads: the row, and its issue's team. */
export interface NotificationRow {
  id: string;
  type: string;
  user_id: string;
  issue_id: string;
  issue_team_id: string;
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

/** `__typename` picks the interface's implementation (graphql-js reads it). */
export const notificationNode = (r: NotificationRow) => ({
  __typename: 'IssueNotification',
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

const issueOf = (src: Source, g: GqlContext) => g.loaders.issue.load(src.row.issue_id);
/** The actor as the caller may see them (a guest sees only the people of their teams). */
const actorOf = (src: Source, g: GqlContext) =>
  src.row.actor_id ? g.loaders.user.load(src.row.actor_id) : Promise.resolve(null);

const user = (r: UserRow, g: GqlContext) => userNode(r, g.viewerId, g.app.config.publicUrl);

export const issueNotificationResolvers: ResolverMap = {
  IssueNotification: {
    id: column((r) => r.id),
    type: column((r) => r.type),
    category: column((r) => (NOTIFICATION_CATEGORY as Record<string, string>)[r.type] ?? 'system'),
    createdAt: column((r) => r.created_at),
    updatedAt: column((r) => r.updated_at),
    readAt: column((r) => r.read_at),
    archivedAt: column((r) => r.archived_at),
    snoozedUntilAt: column((r) => r.snoozed_until_at),
    issueId: column((r) => r.issue_id),
    commentId: column((r) => r.comment_id),
    parentCommentId: column((r) => r.parent_comment_id),
    issueStatusType: column((r) => r.issue_status_type),
    /** The inbox shows one entry per issue, and the batch mutations act on it. */
    groupingKey: column((r) => `issue/${r.issue_id}`),
    subtitle: column((r) => notificationLine(r.type, r.parent_comment_id)),
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
  },
};

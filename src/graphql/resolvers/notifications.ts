// The inbox and issue subscriptions over GraphQL, through the notifications
// service (REST's rules: one's own notifications, issue or project still visible, read
// again at every request). The list is the notifications_inbox keyset page
// under the same rule (platform/access.ts visibility.notification); the
// IssueNotification and ProjectNotification fields are in notification-node.ts.
import { getIssue } from '../../modules/issues/service.js';
import { inboxConditions } from '../../modules/notifications/queries.js';
import * as inbox from '../../modules/notifications/service.js';
import type { IssueRow } from '../../platform/db/tables.js';
import { invalidField } from '../../platform/errors.js';
import { currentSyncId } from '../../platform/outbox.js';
import type { ResolverMap } from '../build-schema.js';
import { type ListArgs, listConnection } from '../connections.js';
import type { GqlContext } from '../context.js';
import { issueNode } from '../nodes.js';
import { type NotificationRow, notificationList, notificationNode } from './notification-node.js';

type SubscribeArgs = { id: string; userId?: string | null; userEmail?: string | null };

/** Subscribing someone else is not offered: each person chooses what they follow. */
async function setSubscribed(g: GqlContext, a: SubscribeArgs, on: boolean) {
  if (a.userId != null && a.userId !== g.actor.id) {
    throw invalidField('userId', 'only the caller can be subscribed or unsubscribed');
  }
  if (a.userEmail != null && a.userEmail.toLowerCase() !== g.actor.email.toLowerCase()) {
    throw invalidField('userEmail', 'only the caller can be subscribed or unsubscribed');
  }
  await inbox.setSubscribed(g.app, g.actor, a.id, on);
  const record = await getIssue(g.app, g.actor, a.id);
  return {
    success: true,
    lastSyncId: await currentSyncId(g.db),
    issue: issueNode(record as unknown as IssueRow, g.app.config.publicUrl),
  };
}

const synced = async (g: GqlContext) => ({ success: true, lastSyncId: await currentSyncId(g.db) });
const node = (r: unknown) => notificationNode(r as NotificationRow);

type UpdateInput = { readAt?: string | null; snoozedUntilAt?: string | null };

/** notificationUpdate's input as the service's: a readAt marks read (at our clock), null unread. */
const updateOf = (input: UpdateInput): inbox.NotificationUpdate => ({
  ...(input.readAt !== undefined ? { read: input.readAt !== null } : {}),
  ...(input.snoozedUntilAt !== undefined ? { snoozedUntilAt: input.snoozedUntilAt } : {}),
});

async function update(g: GqlContext, id: string, input: inbox.NotificationUpdate) {
  return node(await inbox.updateNotificationFor(g.app, g.actor, id, input));
}

type EntityInput = {
  id?: string | null;
  issueId?: string | null;
  projectId?: string | null;
  projectUpdateId?: string | null;
};

/**
 * The batch mutations act on one inbox entry: the notifications of the group
 * of notification `id` (its issue or project), or about `issueId`,
 * `projectId` or the project of `projectUpdateId`, the first one given. The
 * schema's other entities (initiatives, ...) send us no notifications.
 */
async function batch(g: GqlContext, input: EntityInput, change: inbox.NotificationUpdate) {
  const target: inbox.NotificationTarget =
    input.id != null
      ? { notificationId: input.id }
      : input.issueId != null
        ? { issue: input.issueId }
        : input.projectId != null
          ? { project: input.projectId }
          : input.projectUpdateId != null
            ? { projectUpdate: input.projectUpdateId }
            : {};
  const rows = await inbox.updateAboutFor(g.app, g.actor, target, change);
  return { ...(await synced(g)), notifications: rows.map(node) };
}

export const notificationResolvers: ResolverMap = {
  Query: {
    notificationsUnreadCount: (_s, _a, g) => inbox.unreadCount(g.app, g.actor),
    notification: async (_s, a: { id: string }, g) => node(await inbox.getNotification(g.app, g.actor, a.id)),
    notifications: (_s, a: ListArgs, g) => listConnection(g, notificationList, a),
    /** REST's inbox: unarchived, not snoozed (until its time), optionally unread only. */
    inboxNotifications: (_s, a: { first?: number; after?: string; unreadOnly?: boolean | null }, g) =>
      listConnection(
        g,
        notificationList,
        { first: a.first, after: a.after },
        inboxConditions(g.now, a.unreadOnly === true),
      ),
  },
  Mutation: {
    issueSubscribe: (_s, a: SubscribeArgs, g) => setSubscribed(g, a, true),
    issueUnsubscribe: (_s, a: SubscribeArgs, g) => setSubscribed(g, a, false),
    notificationUpdate: async (_s, a: { id: string; input: UpdateInput }, g) => ({
      ...(await synced(g)),
      notification: await update(g, a.id, updateOf(a.input)),
    }),
    notificationArchive: async (_s, a: { id: string }, g) => ({
      ...(await synced(g)),
      entity: await update(g, a.id, { archived: true }),
    }),
    notificationUnarchive: async (_s, a: { id: string }, g) => ({
      ...(await synced(g)),
      entity: await update(g, a.id, { archived: false }),
    }),
    /** REST's PATCH: `read` and `snoozedUntilAt` of one notification. */
    inboxNotificationUpdate: async (
      _s,
      a: { id: string; input: { read?: boolean | null; snoozedUntilAt?: string | null } },
      g,
    ) => {
      const { read, snoozedUntilAt } = a.input;
      const n = await update(g, a.id, {
        ...(read != null ? { read } : {}),
        ...(snoozedUntilAt !== undefined ? { snoozedUntilAt } : {}),
      });
      return { ...(await synced(g)), notification: n, updatedNotifications: [n] };
    },
    notificationMarkReadAll: (_s, a: { input: EntityInput }, g) => batch(g, a.input, { read: true }),
    notificationMarkUnreadAll: (_s, a: { input: EntityInput }, g) => batch(g, a.input, { read: false }),
    notificationArchiveAll: (_s, a: { input: EntityInput }, g) => batch(g, a.input, { archived: true }),
    notificationSnoozeAll: (_s, a: { input: EntityInput; snoozedUntilAt: string }, g) =>
      batch(g, a.input, { snoozedUntilAt: a.snoozedUntilAt }),
    notificationUnsnoozeAll: (_s, a: { input: EntityInput }, g) =>
      batch(g, a.input, { snoozedUntilAt: null }),
  },
};

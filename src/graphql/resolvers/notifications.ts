// Subscriptions and the unread count over GraphQL, through the notifications
// service (REST's rules). The inbox itself (notifications, notification and
// its mutations) is not held yet: docs/notifications.md, "Not done yet".
import { getIssue } from '../../modules/issues/service.js';
import * as inbox from '../../modules/notifications/service.js';
import type { IssueRow } from '../../platform/db/tables.js';
import { invalidField } from '../../platform/errors.js';
import { currentSyncId } from '../../platform/outbox.js';
import type { ResolverMap } from '../build-schema.js';
import type { GqlContext } from '../context.js';
import { issueNode } from '../nodes.js';

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

export const notificationResolvers: ResolverMap = {
  Query: {
    notificationsUnreadCount: (_s, _a, g) => inbox.unreadCount(g.app, g.actor),
  },
  Mutation: {
    issueSubscribe: (_s, a: SubscribeArgs, g) => setSubscribed(g, a, true),
    issueUnsubscribe: (_s, a: SubscribeArgs, g) => setSubscribed(g, a, false),
  },
};

// Subscriptions and notifications written by issue and comment changes, in
// the change's own transaction (a committed change always has them, a
// rolled-back one never). Rules (docs/notifications.md):
// - subscribed: the creator, the assignee, whoever is @mentioned, every commenter;
// - notified: one notification per person per change, the most specific kind
//   first (assigned > mentioned > reply/new comment > status change);
// - never the actor, never someone who cannot see the issue's team (a guest
//   outside it, a member outside a private team: platform/access.ts
//   `userSeesTeam`, applied in queries.ts), never a deleted user;
// - an @name shared by several people mentions nobody (no guessing who).
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { recordEvent } from '../../platform/outbox.js';
import { enqueueNotificationMail } from '../mail/digest.js';
import { mentionedNames, newMentions } from './mentions.js';
import {
  commentAuthor,
  insertNotifications,
  issueSubscribers,
  liveUsersNamedAlone,
  type NotificationChange,
  subscribeWhoSees,
} from './queries.js';

/** What writing notifications needs of the app: whether mail is configured. */
type Mailer = Pick<AppContext, 'config'>;

export type NotificationType =
  | 'issueAssignedToYou'
  | 'issueMention'
  | 'issueCommentMention'
  | 'issueNewComment'
  | 'issueStatusChanged';

type Change = NotificationChange;

/** Collects recipients: the first kind given to a person wins, the actor never gets one. */
class Recipients {
  readonly byUser = new Map<string, NotificationType>();
  constructor(private readonly actorId: string) {}
  add(type: NotificationType, userIds: readonly (string | null | undefined)[]): void {
    for (const id of userIds)
      if (id && id !== this.actorId && !this.byUser.has(id)) this.byUser.set(id, type);
  }
}

/** The line a notification email gives each kind (docs/email.md). */
const MAIL_LINE: Record<NotificationType, string> = {
  issueAssignedToYou: 'Assigned to you',
  issueMention: 'You were mentioned',
  issueCommentMention: 'You were mentioned in a comment',
  issueNewComment: 'New comment',
  issueStatusChanged: 'State changed',
};

/** A notification's line in words: the email digest's, and GraphQL's `subtitle`. */
export const notificationLine = (type: string, parentCommentId: string | null | undefined): string =>
  type === 'issueNewComment' && parentCommentId
    ? 'Reply to your comment'
    : (MAIL_LINE[type as NotificationType] ?? type);

/**
 * One statement: a row per recipient who sees the issue now; and for each, a line
 * of their next notification email (which does nothing without SMTP or for
 * someone who turned it off), and an event for their change streams alone
 * (docs/live.md, `notification.create`: the inbox's unread count, live).
 */
async function write(ctx: Mailer, trx: Db, change: Change, to: Recipients): Promise<void> {
  if (to.byUser.size === 0) return;
  const written = await insertNotifications(trx, change, to.byUser);
  for (const row of written) {
    await recordEvent(trx, {
      type: 'notification',
      action: 'create',
      data: { id: row.id, type: row.type, issueId: change.issueId, userId: row.user_id },
      actor: null,
      recipientId: row.user_id,
      teamId: row.team_id,
    });
    await enqueueNotificationMail(ctx, trx, {
      userId: row.user_id,
      issueId: change.issueId,
      kind: row.type,
      text: notificationLine(row.type, change.parentCommentId),
      actorId: change.actorId,
    });
  }
}

/** After an issue is created (the creator is already subscribed). */
export async function issueCreated(
  ctx: Mailer,
  trx: Db,
  actorId: string,
  issue: { id: string; assigneeId: string | null; description: string | null },
): Promise<void> {
  const mentioned = await liveUsersNamedAlone(trx, mentionedNames(issue.description));
  await subscribeWhoSees(trx, issue.id, issue.assigneeId ? [issue.assigneeId, ...mentioned] : mentioned);
  const to = new Recipients(actorId);
  to.add('issueAssignedToYou', [issue.assigneeId]);
  to.add('issueMention', mentioned);
  await write(ctx, trx, { issueId: issue.id, actorId }, to);
}

/**
 * After an issue update: `before` is the row as it was, `changed` the columns
 * that changed, `stateType` the type of its state now.
 */
export async function issueUpdated(
  ctx: Mailer,
  trx: Db,
  actorId: string,
  issueId: string,
  before: { description: string | null },
  changed: Record<string, unknown>,
  stateType: string,
): Promise<void> {
  const assignee = typeof changed['assignee_id'] === 'string' ? changed['assignee_id'] : null;
  const mentioned =
    'description' in changed
      ? await liveUsersNamedAlone(
          trx,
          newMentions(before.description, changed['description'] as string | null),
        )
      : [];
  await subscribeWhoSees(trx, issueId, assignee ? [assignee, ...mentioned] : mentioned);
  const to = new Recipients(actorId);
  to.add('issueAssignedToYou', [assignee]);
  to.add('issueMention', mentioned);
  const stateChanged = 'state_id' in changed;
  if (stateChanged) to.add('issueStatusChanged', await issueSubscribers(trx, issueId));
  await write(ctx, trx, { issueId, actorId, issueStatusType: stateChanged ? stateType : null }, to);
}

/** After a comment is created (the commenter is already subscribed). */
export async function commentCreated(
  ctx: Mailer,
  trx: Db,
  actorId: string,
  comment: { id: string; issueId: string; parentId: string | null; body: string },
): Promise<void> {
  const mentioned = await liveUsersNamedAlone(trx, mentionedNames(comment.body));
  await subscribeWhoSees(trx, comment.issueId, mentioned);
  const to = new Recipients(actorId);
  to.add('issueCommentMention', mentioned);
  if (comment.parentId) {
    to.add('issueNewComment', [await commentAuthor(trx, comment.parentId)]);
  }
  to.add('issueNewComment', await issueSubscribers(trx, comment.issueId));
  const change = {
    issueId: comment.issueId,
    actorId,
    commentId: comment.id,
    parentCommentId: comment.parentId,
  };
  await write(ctx, trx, change, to);
}

/** After a comment's body is edited: only the people it newly mentions. */
export async function commentEdited(
  ctx: Mailer,
  trx: Db,
  actorId: string,
  comment: { id: string; issueId: string; parentId: string | null },
  before: string,
  after: string,
): Promise<void> {
  const mentioned = await liveUsersNamedAlone(trx, newMentions(before, after));
  if (mentioned.length === 0) return;
  await subscribeWhoSees(trx, comment.issueId, mentioned);
  const to = new Recipients(actorId);
  to.add('issueCommentMention', mentioned);
  const change = {
    issueId: comment.issueId,
    actorId,
    commentId: comment.id,
    parentCommentId: comment.parentId,
  };
  await write(ctx, trx, change, to);
}

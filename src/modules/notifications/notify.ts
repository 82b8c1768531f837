// Subscriptions and notifications written by issue and comment changes and
// by new project updates, in the change's own transaction (a committed change
// always has them, a rolled-back one never). Called by the notifications
// handler of change events (handler.ts), never by services. Rules
// (docs/notifications.md):
// - subscribed: the creator, the assignee, whoever is @mentioned, every commenter;
// - notified: one notification per person per change, the most specific kind
//   first (assigned > mentioned > reply/new comment > status change);
// - a new project update: the project's lead and members;
// - never the actor, never someone who cannot see the issue's team (a guest
//   outside it, a member outside a private team: platform/access.ts
//   `userSeesTeam`) or the project (`userSeesProject`), applied in
//   queries.ts; never a deleted user;
// - an @name shared by several people mentions nobody (no guessing who).
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { recordEvent } from '../../platform/outbox.js';
import { mentionedNames, newMentions } from './mentions.js';
import {
  commentAuthor,
  insertNotifications,
  insertProjectNotifications,
  issueSubscribers,
  liveUsersNamedAlone,
  type NotificationChange,
  type ProjectNotificationChange,
  projectPeople,
  subscribeWhoSees,
} from './queries.js';

export type NotificationType =
  | 'issueAssignedToYou'
  | 'issueMention'
  | 'issueCommentMention'
  | 'issueNewComment'
  | 'issueStatusChanged'
  /** About a project, not an issue (a ProjectNotification over GraphQL). */
  | 'projectUpdateCreated';

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
export const MAIL_LINE: Record<NotificationType, string> = {
  issueAssignedToYou: 'Assigned to you',
  issueMention: 'You were mentioned',
  issueCommentMention: 'You were mentioned in a comment',
  issueNewComment: 'New comment',
  issueStatusChanged: 'State changed',
  projectUpdateCreated: 'New project update',
};

/**
 * A notification event's data: about an issue (with the comment) or about a
 * project (with the update). The stream sends its recipient only the id and
 * the issueId or projectId.
 */
export type NotificationEventData = {
  id: string;
  type: NotificationType;
  userId: string;
  actorId: string;
} & (
  | { issueId: string; commentId: string | null; parentCommentId: string | null }
  | { projectId: string; projectUpdateId: string }
);

/** The line of a reply to the recipient's comment (an issueNewComment with a parent). */
export const REPLY_LINE = 'Reply to your comment';

/** The schema's NotificationCategory of each type we write; any other is 'system'. */
export const NOTIFICATION_CATEGORY: Record<NotificationType, string> = {
  issueAssignedToYou: 'assignments',
  issueMention: 'mentions',
  issueCommentMention: 'mentions',
  issueNewComment: 'commentsAndReplies',
  issueStatusChanged: 'statusChanges',
  projectUpdateCreated: 'postsAndUpdates',
};

/**
 * A notification's line in words: the email digest's, and GraphQL's `subtitle`
 * (the compiled reads build it in SQL from the same constants: platform/read/entities.ts).
 */
export const notificationLine = (type: string, parentCommentId: string | null | undefined): string =>
  type === 'issueNewComment' && parentCommentId ? REPLY_LINE : (MAIL_LINE[type as NotificationType] ?? type);

/**
 * For each notification written, an event for its recipient's change streams
 * alone (docs/live.md, `notification.create`: the inbox's unread count, live),
 * whose handlers queue the line of their next notification email
 * (mail/digest.ts). An issue's event keeps to the issue's team (scope 'user'
 * with that team); a project's names no team, as a project may be on several.
 */
async function announce(
  ctx: AppContext,
  trx: Db,
  written: readonly { id: string; user_id: string; type: NotificationType; team_id?: string }[],
  about: (row: { id: string; user_id: string; type: NotificationType }) => NotificationEventData,
): Promise<void> {
  for (const row of written) {
    await recordEvent(ctx, trx, {
      type: 'notification',
      action: 'create',
      data: { ...about(row) },
      actor: null,
      recipientId: row.user_id,
      teamId: row.team_id ?? null,
    });
  }
}

/** One statement: a row per recipient who sees the issue now; then their events. */
async function write(ctx: AppContext, trx: Db, change: Change, to: Recipients): Promise<void> {
  if (to.byUser.size === 0) return;
  const written = await insertNotifications(trx, change, to.byUser);
  await announce(ctx, trx, written, (row) => ({
    id: row.id,
    type: row.type,
    issueId: change.issueId,
    userId: row.user_id,
    actorId: change.actorId,
    commentId: change.commentId ?? null,
    parentCommentId: change.parentCommentId ?? null,
  }));
}

/** After a project update is written: its project's lead and members, once each, who see the project. */
export async function projectUpdateCreated(
  ctx: AppContext,
  trx: Db,
  actorId: string,
  update: { id: string; projectId: string },
): Promise<void> {
  const to = new Recipients(actorId);
  to.add('projectUpdateCreated', await projectPeople(trx, update.projectId));
  if (to.byUser.size === 0) return;
  const change: ProjectNotificationChange = {
    projectId: update.projectId,
    projectUpdateId: update.id,
    actorId,
  };
  const written = await insertProjectNotifications(trx, change, to.byUser);
  await announce(ctx, trx, written, (row) => ({
    id: row.id,
    type: row.type,
    projectId: change.projectId,
    projectUpdateId: change.projectUpdateId,
    userId: row.user_id,
    actorId,
  }));
}

/** After an issue is created (the creator is already subscribed). */
export async function issueCreated(
  ctx: AppContext,
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

/** What an issue update changed, as notifications need it. */
export interface IssueUpdate {
  issueId: string;
  /** The new assignee, when the assignee changed to someone. */
  assignee: string | null;
  /** The description before and after, when it changed. */
  description: { from: string | null; to: string | null } | null;
  /** The type of the issue's state, when the state changed. */
  stateType: string | null;
}

/** After an issue update. */
export async function issueUpdated(
  ctx: AppContext,
  trx: Db,
  actorId: string,
  { issueId, assignee, description, stateType }: IssueUpdate,
): Promise<void> {
  const mentioned = description
    ? await liveUsersNamedAlone(trx, newMentions(description.from, description.to))
    : [];
  await subscribeWhoSees(trx, issueId, assignee ? [assignee, ...mentioned] : mentioned);
  const to = new Recipients(actorId);
  to.add('issueAssignedToYou', [assignee]);
  to.add('issueMention', mentioned);
  if (stateType !== null) to.add('issueStatusChanged', await issueSubscribers(trx, issueId));
  await write(ctx, trx, { issueId, actorId, issueStatusType: stateType }, to);
}

/** After a comment is created (the commenter is already subscribed). */
export async function commentCreated(
  ctx: AppContext,
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
  ctx: AppContext,
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

// Subscriptions and notifications written by issue and comment changes, in
// the change's own transaction (a committed change always has them, a
// rolled-back one never). Called by the notifications handler of change
// events (handler.ts), never by services. Rules (docs/notifications.md):
// - subscribed: the creator, the assignee, whoever is @mentioned, every commenter;
// - notified: one notification per person per change, the most specific kind
//   first (assigned > mentioned > reply/new comment > status change);
// - never the actor, never someone who cannot see the issue's team (a guest
//   outside it, a member outside a private team), never a deleted user;
// - an @name shared by several people mentions nobody (no guessing who).
import { sql } from 'kysely';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { recordEvent } from '../../platform/outbox.js';
import { mentionedNames, newMentions } from './mentions.js';

export type NotificationType =
  | 'issueAssignedToYou'
  | 'issueMention'
  | 'issueCommentMention'
  | 'issueNewComment'
  | 'issueStatusChanged';

/** SQL true when user `u` may see the team `t` (platform/access.ts's rule, for any user). */
export const userSeesTeam = sql`(u.role = 'admin'
  or exists (select 1 from team_memberships m where m.team_id = t.id and m.user_id = u.id and m.archived_at is null)
  or (u.role <> 'guest' and not t.private))`;

/** Live users, each named alone by its lower-cased display name. */
async function usersNamed(trx: Db, names: string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const rows = await sql<{ id: string }>`
    select min(id::text)::uuid as id from users
    where deleted_at is null and lower(display_name) in (${sql.join(names)})
    group by lower(display_name) having count(*) = 1`.execute(trx);
  return rows.rows.map((r) => r.id);
}

/** Subscribes those of `userIds` who see the issue. */
async function subscribeVisible(trx: Db, issueId: string, userIds: string[]): Promise<void> {
  if (userIds.length === 0) return;
  await sql`insert into issue_subscribers (issue_id, user_id)
    select i.id, u.id from issues i join teams t on t.id = i.team_id
    join users u on u.id in (${sql.join(userIds.map((id) => sql`${id}::uuid`))}) and u.deleted_at is null
    where i.id = ${issueId}::uuid and ${userSeesTeam}
    on conflict do nothing`.execute(trx);
}

interface Change {
  issueId: string;
  actorId: string;
  commentId?: string | null;
  parentCommentId?: string | null;
  issueStatusType?: string | null;
}

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

/** A notification event's data (the stream sends its recipient only id and issueId). */
export interface NotificationEventData {
  id: string;
  type: NotificationType;
  issueId: string;
  userId: string;
  actorId: string;
  commentId: string | null;
  parentCommentId: string | null;
}

/** A notification's line in words: the email digest's, and GraphQL's `subtitle`. */
export const notificationLine = (type: string, parentCommentId: string | null | undefined): string =>
  type === 'issueNewComment' && parentCommentId
    ? 'Reply to your comment'
    : (MAIL_LINE[type as NotificationType] ?? type);

/**
 * One statement: a row per recipient who sees the issue now; and for each an
 * event for their change streams alone (docs/live.md, `notification.create`:
 * the inbox's unread count, live), whose handlers queue the line of their next
 * notification email (mail/digest.ts).
 */
async function write(ctx: AppContext, trx: Db, change: Change, to: Recipients): Promise<void> {
  if (to.byUser.size === 0) return;
  const values = [...to.byUser].map(([u, type]) => sql`(${u}::uuid, ${type}::text)`);
  const written = await sql<{
    id: string;
    user_id: string;
    type: NotificationType;
    team_id: string;
  }>`insert into notifications
      (user_id, type, issue_id, comment_id, parent_comment_id, actor_id, issue_status_type)
    select u.id, v.type, i.id, ${change.commentId ?? null}::uuid, ${change.parentCommentId ?? null}::uuid,
      ${change.actorId}::uuid, ${change.issueStatusType ?? null}::text
    from (values ${sql.join(values)}) as v (user_id, type)
    join users u on u.id = v.user_id and u.deleted_at is null
    join issues i on i.id = ${change.issueId}::uuid
    join teams t on t.id = i.team_id
    where ${userSeesTeam}
    returning id, user_id, type, (select i2.team_id from issues i2 where i2.id = notifications.issue_id) as team_id`.execute(
    trx,
  );
  for (const row of written.rows) {
    const data: NotificationEventData = {
      id: row.id,
      type: row.type,
      issueId: change.issueId,
      userId: row.user_id,
      actorId: change.actorId,
      commentId: change.commentId ?? null,
      parentCommentId: change.parentCommentId ?? null,
    };
    await recordEvent(ctx, trx, {
      type: 'notification',
      action: 'create',
      data: { ...data },
      actor: null,
      recipientId: row.user_id,
      teamId: row.team_id,
    });
  }
}

async function subscribers(trx: Db, issueId: string): Promise<string[]> {
  const rows = await trx
    .selectFrom('issue_subscribers')
    .select('user_id')
    .where('issue_id', '=', issueId)
    .execute();
  return rows.map((r) => r.user_id);
}

/** After an issue is created (the creator is already subscribed). */
export async function issueCreated(
  ctx: AppContext,
  trx: Db,
  actorId: string,
  issue: { id: string; assigneeId: string | null; description: string | null },
): Promise<void> {
  const mentioned = await usersNamed(trx, mentionedNames(issue.description));
  await subscribeVisible(trx, issue.id, issue.assigneeId ? [issue.assigneeId, ...mentioned] : mentioned);
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
  const mentioned = description ? await usersNamed(trx, newMentions(description.from, description.to)) : [];
  await subscribeVisible(trx, issueId, assignee ? [assignee, ...mentioned] : mentioned);
  const to = new Recipients(actorId);
  to.add('issueAssignedToYou', [assignee]);
  to.add('issueMention', mentioned);
  if (stateType !== null) to.add('issueStatusChanged', await subscribers(trx, issueId));
  await write(ctx, trx, { issueId, actorId, issueStatusType: stateType }, to);
}

/** After a comment is created (the commenter is already subscribed). */
export async function commentCreated(
  ctx: AppContext,
  trx: Db,
  actorId: string,
  comment: { id: string; issueId: string; parentId: string | null; body: string },
): Promise<void> {
  const mentioned = await usersNamed(trx, mentionedNames(comment.body));
  await subscribeVisible(trx, comment.issueId, mentioned);
  const to = new Recipients(actorId);
  to.add('issueCommentMention', mentioned);
  if (comment.parentId) {
    const parent = await trx
      .selectFrom('comments')
      .select('user_id')
      .where('id', '=', comment.parentId)
      .executeTakeFirst();
    to.add('issueNewComment', [parent?.user_id]);
  }
  to.add('issueNewComment', await subscribers(trx, comment.issueId));
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
  const mentioned = await usersNamed(trx, newMentions(before, after));
  if (mentioned.length === 0) return;
  await subscribeVisible(trx, comment.issueId, mentioned);
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

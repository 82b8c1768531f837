// Subscriptions and notifications written by issue and comment changes, in
// the change's own transaction (a committed change always has them, a
// rolled-back one never). Rules (docs/notifications.md):
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
import { enqueueNotificationMail } from '../mail/digest.js';
import { mentionedNames, newMentions } from './mentions.js';

/** What writing notifications needs of the app: whether mail is configured. */
type Mailer = Pick<AppContext, 'config'>;

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
  ctx: Mailer,
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
      ? await usersNamed(trx, newMentions(before.description, changed['description'] as string | null))
      : [];
  await subscribeVisible(trx, issueId, assignee ? [assignee, ...mentioned] : mentioned);
  const to = new Recipients(actorId);
  to.add('issueAssignedToYou', [assignee]);
  to.add('issueMention', mentioned);
  const stateChanged = 'state_id' in changed;
  if (stateChanged) to.add('issueStatusChanged', await subscribers(trx, issueId));
  await write(ctx, trx, { issueId, actorId, issueStatusType: stateChanged ? stateType : null }, to);
}

/** After a comment is created (the commenter is already subscribed). */
export async function commentCreated(
  ctx: Mailer,
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
  ctx: Mailer,
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

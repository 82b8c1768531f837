// Notification email: items wait per user (mail_notification_items) and are
// sent as one digest per user once the oldest has waited MAIL_BATCH_WINDOW_MS.
// notificationMailHandler queues a line for each notification's event, in
// the transaction of the change that caused it. Who may read what is checked
// again when the digest is sent (buildDigest), not only here.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import type { EventHandler } from '../../platform/outbox.js';
import { type NotificationEventData, notificationLine } from '../notifications/notify.js';
import { teamAccess } from '../teams/access.js';
import { findLiveUserById, findUsersByIds } from '../users/queries.js';
import * as q from './queries.js';

/** Items in one digest; more wait for the next one. */
export const DIGEST_MAX_ITEMS = 100;
const TEXT_MAX = 500;
const KIND_MAX = 64;

export interface NotificationMailItem {
  userId: string;
  /** What the line is about: an issue, or a project (one of the two). */
  issueId: string | null;
  projectId?: string | null;
  /** What happened, a short machine word (e.g. 'assigned', 'comment'). */
  kind: string;
  /** One line for the reader, e.g. 'Ada assigned you ENG-12'. */
  text: string;
  actorId: string | null;
}

/**
 * Queues one line of a user's next digest, in the caller's transaction. Does
 * nothing without SMTP, for the actor themself, or for a user who is not
 * active or has turned notification email off. Returns whether it queued.
 */
export async function enqueueNotificationMail(
  ctx: Pick<AppContext, 'config'>,
  trx: Db,
  item: NotificationMailItem,
): Promise<boolean> {
  if (!ctx.config.mail || item.userId === item.actorId) return false;
  return q.insertDigestItem(trx, {
    ...item,
    projectId: item.projectId ?? null,
    kind: item.kind.slice(0, KIND_MAX),
    text: item.text.slice(0, TEXT_MAX),
  });
}

/** Mail for notifications: a line of the recipient's next digest per notification event. */
export const notificationMailHandler: EventHandler = {
  name: 'notification mail',
  types: ['notification'],
  async handle(ctx, trx, event) {
    if (event.action !== 'create') return;
    const n = event.data as unknown as NotificationEventData;
    await enqueueNotificationMail(ctx, trx, {
      userId: n.userId,
      issueId: 'issueId' in n ? n.issueId : null,
      projectId: 'projectId' in n ? n.projectId : null,
      kind: n.type,
      text: notificationLine(n.type, 'parentCommentId' in n ? n.parentCommentId : null),
      actorId: n.actorId,
    });
  },
};

/**
 * Turns waiting items into digests: for each user whose oldest waiting item
 * is older than the window, one outgoing_mail row carrying all their waiting
 * items (up to DIGEST_MAX_ITEMS). Items are locked SKIP LOCKED, so two
 * workers never put one item in two digests. Returns the digests made.
 */
export async function composeDigests(db: Db, windowMs: number, users = 50): Promise<number> {
  let made = 0;
  for (const userId of await q.usersWithDueDigest(db, windowMs, users)) {
    made += await db.transaction().execute(async (trx) => {
      const items = await q.lockWaitingItems(trx, userId, DIGEST_MAX_ITEMS);
      if (items.length === 0) return 0;
      const [user] = await findUsersByIds(trx, [userId]);
      const mailId = await q.enqueueMail(trx, {
        kind: 'notification_digest',
        toUserId: userId,
        toAddress: user?.email ?? '',
        payload: {},
      });
      // Without a dedupe key the insert always makes a row; null cannot come back.
      if (mailId === null) return 0;
      await q.attachItemsToMail(trx, items, mailId);
      return 1;
    });
  }
  return made;
}

export interface DigestLine {
  /** The issue's identifier; null for a line about a project. */
  identifier: string | null;
  /** The issue's title, or the project's name. */
  title: string;
  text: string;
  url: string;
}

/**
 * What a digest says, read at send time: null when the user is gone,
 * suspended or unsubscribed; lines only for issues and projects they still see.
 */
export async function buildDigest(
  ctx: AppContext,
  mailId: string,
  userId: string,
): Promise<{ to: string; lines: DigestLine[] } | { drop: string }> {
  const user = await findLiveUserById(ctx.db, userId);
  if (user?.status !== 'active') return { drop: 'recipient is not an active user' };
  if (!user.email_notifications) return { drop: 'recipient turned notification email off' };
  const access = await teamAccess(ctx.db, {
    id: user.id,
    role: user.role,
    name: user.name,
    email: user.email,
    via: 'session',
  });
  const rows = await q.digestItems(ctx.db, mailId, access);
  const lines = rows.map((r) =>
    r.project_id
      ? {
          identifier: null,
          title: r.project_name ?? '',
          text: r.text,
          url: `${ctx.config.publicUrl}/projects/${r.project_id}`,
        }
      : {
          identifier: r.identifier,
          title: r.title ?? '',
          text: r.text,
          url: `${ctx.config.publicUrl}/issue/${r.identifier}`,
        },
  );
  if (lines.length === 0) return { drop: 'nothing the recipient may still see' };
  return { to: user.email, lines };
}

// Unsubscribe tokens: the user id and an HMAC over it and the purpose. They
// do not expire (a mail read months later must still unsubscribe) and do no
// more than turn notification email off.
const TOKEN_PURPOSE = 'mail-unsubscribe';
export const UNSUBSCRIBE_TOKEN_MAX = 128;

function mac(ctx: Pick<AppContext, 'deriveKey'>, userId: string): Buffer {
  return createHmac('sha256', ctx.deriveKey(TOKEN_PURPOSE))
    .update(`unsubscribe:${userId}`)
    .digest()
    .subarray(0, 24);
}

export function unsubscribeToken(ctx: Pick<AppContext, 'deriveKey'>, userId: string): string {
  return `${userId}.${mac(ctx, userId).toString('base64url')}`;
}

/** The user id a token was made for, or null. */
export function verifyUnsubscribeToken(ctx: Pick<AppContext, 'deriveKey'>, token: string): string | null {
  if (token.length > UNSUBSCRIBE_TOKEN_MAX) return null;
  const m = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{32})$/.exec(token);
  if (!m) return null;
  const given = Buffer.from(m[2]!, 'base64url');
  const expected = mac(ctx, m[1]!);
  return given.length === expected.length && timingSafeEqual(given, expected) ? m[1]! : null;
}

export function unsubscribeUrl(ctx: Pick<AppContext, 'deriveKey' | 'config'>, userId: string): string {
  return `${ctx.config.publicUrl}/api/mail/unsubscribe?token=${unsubscribeToken(ctx, userId)}`;
}

// The inbox and issue subscriptions: rules shared by REST (and GraphQL).
// Order: the caller (signed in: everyone has an inbox, guests too), then
// whether the notification or issue exists for them (404), then the input
// (400 naming the field); a refused request changes nothing.
//
//   listInbox(ctx, actor, filter, page)        -> { rows, total } newest first
//   getNotification(ctx, actor, id)            -> NotificationRecord
//   updateNotificationFor(ctx, actor, id, p)   -> NotificationRecord
//   markAllReadFor(ctx, actor)                 -> number marked
//   unreadCount(ctx, actor)                    -> number
//   setSubscribed(ctx, actor, issue, on)       -> boolean (subscribed now)
import type { Actor, AppContext } from '../../platform/context.js';
import { invalidField, notFound } from '../../platform/errors.js';
import { resolveIssueId, subscribe } from '../issues/queries.js';
import { teamAccess } from '../teams/access.js';
import * as q from './queries.js';

export interface NotificationUpdate {
  read?: boolean | undefined;
  archived?: boolean | undefined;
  /** Hidden from the inbox until then; null wakes it now. */
  snoozedUntilAt?: string | null | undefined;
}

const now = () => new Date();

export async function listInbox(
  ctx: AppContext,
  actor: Actor,
  filter: q.InboxFilter,
  page: { limit: number; offset: number },
) {
  return q.listNotifications(ctx.db, await teamAccess(ctx.db, actor), filter, page, now());
}

export async function getNotification(ctx: AppContext, actor: Actor, id: string) {
  const n = await q.findNotification(ctx.db, id, await teamAccess(ctx.db, actor));
  if (!n) throw notFound('Notification');
  return n;
}

function snoozeTime(v: unknown): Date | null {
  if (v === null) return null;
  const d = typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v) ? new Date(v) : null;
  if (!d || Number.isNaN(d.valueOf())) {
    throw invalidField('snoozedUntilAt', 'must be an ISO 8601 date and time, or null');
  }
  return d;
}

export async function updateNotificationFor(
  ctx: AppContext,
  actor: Actor,
  id: string,
  input: NotificationUpdate,
) {
  await getNotification(ctx, actor, id); // 404 before any validation
  const patch: q.NotificationPatch = {};
  const at = now();
  if (input.read !== undefined) patch.read_at = input.read ? at : null;
  if (input.archived !== undefined) patch.archived_at = input.archived ? at : null;
  if (input.snoozedUntilAt !== undefined) patch.snoozed_until_at = snoozeTime(input.snoozedUntilAt);
  if (Object.keys(patch).length > 0) await q.updateNotification(ctx.db, id, patch);
  return getNotification(ctx, actor, id);
}

export async function markAllReadFor(ctx: AppContext, actor: Actor): Promise<number> {
  return q.markAllRead(ctx.db, await teamAccess(ctx.db, actor), now());
}

/** The inbox's unread rows (unarchived, not snoozed, issue visible). */
export async function unreadCount(ctx: AppContext, actor: Actor): Promise<number> {
  return q.countNotifications(ctx.db, await teamAccess(ctx.db, actor), { unread: true }, now());
}

/** Subscribes or unsubscribes the caller by hand; anyone who sees the issue may. */
export async function setSubscribed(ctx: AppContext, actor: Actor, issue: string, on: boolean) {
  const issueId = await resolveIssueId(ctx.db, issue, await teamAccess(ctx.db, actor));
  if (!issueId) throw notFound('Issue');
  if (on) await subscribe(ctx.db, issueId, [actor.id]);
  else await q.unsubscribe(ctx.db, issueId, actor.id);
  return { issueId, subscribed: on };
}

export async function subscription(ctx: AppContext, actor: Actor, issue: string) {
  const issueId = await resolveIssueId(ctx.db, issue, await teamAccess(ctx.db, actor));
  if (!issueId) throw notFound('Issue');
  return { issueId, subscribed: await q.isSubscribed(ctx.db, issueId, actor.id) };
}

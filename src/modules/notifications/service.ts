// The inbox and issue subscriptions: rules shared by REST (and GraphQL).
// Order: the caller (signed in: everyone has an inbox, guests too), then
// whether the notification, issue or project exists for them (404), then the
// input (400 naming the field); a refused request changes nothing. The inbox
// shows one entry per issue or per project (a group): the batch changes act
// on a group.
//
//   listInboxJson(ctx, actor, filter, page)    -> REST's page, newest first, as JSON text
//   notificationJson(ctx, actor, id)           -> REST's `{"notification":...}` (NOTIFICATION_VIEW)
//   getNotification(ctx, actor, id)            -> NotificationRecord
//   updateNotificationFor(ctx, actor, id, p)   -> NotificationRecord
//   updateAboutFor(ctx, actor, target, p)      -> NotificationRecord[] (one group's)
//   updateAboutJson(ctx, actor, target, p)     -> REST's `{"notifications":[...]}` (one group's)
//   markAllReadFor(ctx, actor)                 -> number marked
//   unreadCount(ctx, actor)                    -> number
//   setSubscribed(ctx, actor, issue, on)       -> boolean (subscribed now)
import type { TeamAccess } from '../../platform/access.js';
import type { Actor, AppContext } from '../../platform/context.js';
import { invalidField, notFound } from '../../platform/errors.js';
import { readContextOf, viewAnswer, viewListAnswer } from '../../platform/read/rest.js';
import { resolveIssueId, subscribe } from '../issues/queries.js';
import { findProjectUpdate } from '../project-updates/queries.js';
import { resolveProjectId } from '../projects/queries.js';
import { teamAccess } from '../teams/access.js';
import { NOTIFICATION_VIEW } from './present.js';
import * as q from './queries.js';

export interface NotificationUpdate {
  read?: boolean | undefined;
  archived?: boolean | undefined;
  /** Hidden from the inbox until then; null wakes it now. */
  snoozedUntilAt?: string | null | undefined;
}

const now = () => new Date();

/** The inbox as REST lists it: the page's ids, then their JSON in one statement. */
export async function listInboxJson(
  ctx: AppContext,
  actor: Actor,
  filter: q.InboxFilter,
  page: { limit: number; offset: number },
): Promise<string> {
  const access = await teamAccess(ctx.db, actor);
  const { rows, total } = await q.listNotifications(ctx.db, access, filter, page, now());
  const ids = rows.map((r) => r.id);
  return viewListAnswer(ctx.db, NOTIFICATION_VIEW, 'notifications', ids, readContextOf(ctx, actor, access), {
    pageInfo: { total, ...page },
  });
}

/** One notification as REST answers it (its GET, and a change's answer read back as the GET would). */
export async function notificationJson(ctx: AppContext, actor: Actor, id: string): Promise<string> {
  const access = await teamAccess(ctx.db, actor);
  const c = readContextOf(ctx, actor, access);
  return viewAnswer(ctx.db, NOTIFICATION_VIEW, 'notification', id, c, 'Notification');
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

function patchOf(input: NotificationUpdate): q.NotificationPatch {
  const patch: q.NotificationPatch = {};
  const at = now();
  if (input.read !== undefined) patch.read_at = input.read ? at : null;
  if (input.archived !== undefined) patch.archived_at = input.archived ? at : null;
  if (input.snoozedUntilAt !== undefined) patch.snoozed_until_at = snoozeTime(input.snoozedUntilAt);
  return patch;
}

export async function updateNotificationFor(
  ctx: AppContext,
  actor: Actor,
  id: string,
  input: NotificationUpdate,
) {
  await getNotification(ctx, actor, id); // 404 before any validation
  const patch = patchOf(input);
  if (Object.keys(patch).length > 0) await q.updateNotification(ctx.db, id, patch);
  return getNotification(ctx, actor, id);
}

/**
 * What a batch action applies to: the group of one notification, an issue
 * (id or identifier), a project (id or slug id) or a project update's project.
 */
export interface NotificationTarget {
  notificationId?: string | undefined;
  issue?: string | undefined;
  project?: string | undefined;
  projectUpdate?: string | undefined;
}

/**
 * Applies `input` to every one of the caller's notifications of one group
 * (the inbox shows them as one entry) and returns them, newest first.
 */
export async function updateAboutFor(
  ctx: AppContext,
  actor: Actor,
  target: NotificationTarget,
  input: NotificationUpdate,
) {
  const { access, group } = await updateAbout(ctx, actor, target, input);
  return q.notificationsAbout(ctx.db, access, group);
}

/** updateAboutFor as REST answers it: the group's notifications after the change, newest first. */
export async function updateAboutJson(
  ctx: AppContext,
  actor: Actor,
  target: { issue: string } | { project: string },
  input: NotificationUpdate,
): Promise<string> {
  const { access, ids } = await updateAbout(ctx, actor, target, input);
  return viewListAnswer(ctx.db, NOTIFICATION_VIEW, 'notifications', ids, readContextOf(ctx, actor, access));
}

/** The group a target names, as the caller sees it: 404 for what they do not see. */
async function groupOfTarget(
  ctx: AppContext,
  actor: Actor,
  access: TeamAccess,
  target: NotificationTarget,
): Promise<q.NotificationGroup> {
  if (target.notificationId !== undefined) {
    return q.groupOf(await getNotification(ctx, actor, target.notificationId));
  }
  if (target.issue !== undefined) {
    const issueId = await resolveIssueId(ctx.db, target.issue, access);
    if (!issueId) throw notFound('Issue');
    return { issueId };
  }
  if (target.project !== undefined) {
    const projectId = await resolveProjectId(ctx.db, target.project, access);
    if (!projectId) throw notFound('Project');
    return { projectId };
  }
  if (target.projectUpdate !== undefined) {
    const update = await findProjectUpdate(ctx.db, target.projectUpdate, access);
    if (!update) throw notFound('Project update');
    return { projectId: update.project_id };
  }
  throw invalidField(
    'input',
    'must name a notification (id), an issue (issueId), a project (projectId) or a project update (projectUpdateId)',
  );
}

async function updateAbout(
  ctx: AppContext,
  actor: Actor,
  target: NotificationTarget,
  input: NotificationUpdate,
) {
  const access = await teamAccess(ctx.db, actor);
  const group = await groupOfTarget(ctx, actor, access, target);
  const patch = patchOf(input);
  const ids = (await q.notificationsAbout(ctx.db, access, group)).map((r) => r.id);
  await q.updateNotifications(ctx.db, ids, patch);
  return { access, group, ids };
}

export async function markAllReadFor(ctx: AppContext, actor: Actor): Promise<number> {
  return q.markAllRead(ctx.db, await teamAccess(ctx.db, actor), now());
}

/** The inbox's unread rows (unarchived, not snoozed, issue or project visible). */
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

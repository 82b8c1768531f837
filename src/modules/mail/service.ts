// A user's notification-email preference, and whether the server sends mail at all.
import type { Actor, AppContext } from '../../platform/context.js';
import { notFound } from '../../platform/errors.js';
import * as q from './queries.js';

const preferencesOf = (ctx: AppContext, emailNotifications: boolean) => ({
  preferences: { emailNotifications },
  emailAvailable: Boolean(ctx.config.mail),
});

export async function myPreferences(ctx: AppContext, actor: Actor) {
  const on = await q.emailNotificationsOf(ctx.db, actor.id);
  if (on === undefined) throw notFound('User');
  return preferencesOf(ctx, on);
}

/** Turns a user's notification email on or off (the caller's own, or an unsubscribe link's user). */
export async function setEmailNotifications(ctx: AppContext, userId: string, on: boolean) {
  return preferencesOf(ctx, (await q.setEmailNotifications(ctx.db, userId, on)) ?? on);
}

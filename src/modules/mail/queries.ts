// SQL of notification email: the per-user preference. Every function takes
// the connection or transaction it runs in.
import type { Db } from '../../platform/db/database.js';

/** Whether a user wants notification email; undefined for an unknown user. */
export async function emailNotificationsOf(db: Db, userId: string): Promise<boolean | undefined> {
  const row = await db
    .selectFrom('users')
    .select('email_notifications')
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.email_notifications;
}

/** Sets a live user's preference; returns it as stored, undefined for an unknown or deleted user. */
export async function setEmailNotifications(
  db: Db,
  userId: string,
  on: boolean,
): Promise<boolean | undefined> {
  const row = await db
    .updateTable('users')
    .set({ email_notifications: on })
    .where('id', '=', userId)
    .where('deleted_at', 'is', null)
    .returning('email_notifications')
    .executeTakeFirst();
  return row?.email_notifications;
}

// SQL of email: the outgoing mail queue (table outgoing_mail) and the
// per-user preference. Every function takes the connection or transaction it
// runs in; enqueueMail is meant to run in the transaction of whatever causes
// the message, so both commit or neither does.
import { type Expression, type SqlBool, sql } from 'kysely';
import { type TeamAccess, visibility } from '../../platform/access.js';
import type { Db } from '../../platform/db/database.js';
import type { MailKind } from '../../platform/db/tables.js';

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

export interface ClaimedMail {
  id: string;
  kind: MailKind;
  to_user_id: string | null;
  to_address: string;
  payload: unknown;
  attempts: number;
}

export async function enqueueMail(
  trx: Db,
  mail: { kind: MailKind; toUserId: string | null; toAddress: string; payload: unknown; dedupeKey?: string },
): Promise<string | null> {
  const row = await trx
    .insertInto('outgoing_mail')
    .values({
      kind: mail.kind,
      to_user_id: mail.toUserId,
      to_address: mail.toAddress,
      payload: JSON.stringify(mail.payload),
      dedupe_key: mail.dedupeKey ?? null,
    })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}

/**
 * Claims up to `limit` due messages: pending ones, and ones whose sender's
 * lease ran out (it died or hung). SKIP LOCKED so that several workers never
 * claim the same row; the attempt count fences every later update.
 */
export async function claimDue(db: Db, limit: number, leaseMs: number): Promise<ClaimedMail[]> {
  const r = await sql<ClaimedMail>`
    with claimable as (
      select id from outgoing_mail
      where status in ('pending', 'sending') and next_attempt_at <= now()
        and (status = 'pending' or lease_until < now())
      order by next_attempt_at
      limit ${limit}
      for update skip locked
    )
    update outgoing_mail m
    set status = 'sending',
        lease_until = now() + make_interval(secs => ${leaseMs / 1000}),
        attempts = m.attempts + 1,
        updated_at = now()
    from claimable c
    where m.id = c.id
    returning m.id, m.kind, m.to_user_id, m.to_address, m.payload, m.attempts
  `.execute(db);
  return r.rows;
}

type Outcome =
  | { status: 'sent' }
  | { status: 'dropped'; reason: string }
  | { status: 'failed'; error: string }
  | { status: 'pending'; error: string; retryInMs: number };

/**
 * Records the outcome of the attempt `attempts`, unless another worker has
 * claimed the row since (its lease ran out): then this one changes nothing.
 * A sent message loses its payload, which may hold a reset link.
 */
export async function settleMail(db: Db, job: ClaimedMail, outcome: Outcome): Promise<boolean> {
  const r = await db
    .updateTable('outgoing_mail')
    .set({
      status: outcome.status,
      lease_until: null,
      updated_at: sql<Date>`now()`,
      ...(outcome.status === 'sent' ? { sent_at: sql<Date>`now()`, payload: '{}', last_error: null } : {}),
      ...(outcome.status === 'dropped' ? { payload: '{}', last_error: outcome.reason } : {}),
      ...(outcome.status === 'failed' || outcome.status === 'pending' ? { last_error: outcome.error } : {}),
      ...(outcome.status === 'pending'
        ? { next_attempt_at: sql<Date>`now() + make_interval(secs => ${outcome.retryInMs / 1000})` }
        : {}),
    })
    .where('id', '=', job.id)
    .where('attempts', '=', job.attempts)
    .where('status', '=', 'sending')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

// Digest lines (mail_notification_items): queued per notification, gathered
// into one outgoing mail per user (digest.ts has the rules).

/** Queues a line (about an issue or a project) for an active user who wants notification email; returns whether it did. */
export async function insertDigestItem(
  trx: Db,
  item: {
    userId: string;
    issueId: string | null;
    projectId: string | null;
    kind: string;
    text: string;
    actorId: string | null;
  },
): Promise<boolean> {
  const r = await sql`
    insert into mail_notification_items (user_id, issue_id, project_id, kind, text, actor_id)
    select u.id, ${item.issueId}::uuid, ${item.projectId}::uuid, ${item.kind}, ${item.text}, ${item.actorId}::uuid
    from users u
    where u.id = ${item.userId}::uuid and u.status = 'active' and u.deleted_at is null
      and u.email_notifications
  `.execute(trx);
  return Number(r.numAffectedRows ?? 0) > 0;
}

/** Users whose oldest waiting line has waited `windowMs`, at most `limit`. */
export async function usersWithDueDigest(db: Db, windowMs: number, limit: number): Promise<string[]> {
  const due = await sql<{ user_id: string }>`
    select user_id from mail_notification_items
    where mail_id is null
    group by user_id
    having min(created_at) <= now() - make_interval(secs => ${windowMs / 1000})
    limit ${limit}
  `.execute(db);
  return due.rows.map((r) => r.user_id);
}

/**
 * Locks a user's oldest waiting lines, up to `limit`, skipping lines another
 * worker holds, so no line goes into two digests.
 */
export async function lockWaitingItems(trx: Db, userId: string, limit: number): Promise<number[]> {
  const items = await sql<{ id: number }>`
    select id from mail_notification_items
    where user_id = ${userId}::uuid and mail_id is null
    order by id limit ${limit}
    for update skip locked
  `.execute(trx);
  return items.rows.map((r) => Number(r.id));
}

export async function attachItemsToMail(trx: Db, itemIds: readonly number[], mailId: string): Promise<void> {
  await trx
    .updateTable('mail_notification_items')
    .set({ mail_id: mailId })
    .where('id', 'in', itemIds)
    .execute();
}

/**
 * A digest's lines that the reader may still see, with their issue or
 * project, oldest first: the issue's rule or the project's (platform/access.ts).
 */
export function digestItems(db: Db, mailId: string, access: TeamAccess) {
  return db
    .selectFrom('mail_notification_items as n')
    .leftJoin('issues as i', 'i.id', 'n.issue_id')
    .leftJoin('projects as p', 'p.id', 'n.project_id')
    .select(['n.text', 'n.project_id', 'i.identifier', 'i.title', 'p.name as project_name'])
    .where('n.mail_id', '=', mailId)
    .where(
      sql<SqlBool>`((i.id is not null and ${visibility.issue('i', access)})
        or (p.id is not null and ${visibility.project('p', access)}))` as Expression<SqlBool>,
    )
    .orderBy('n.id')
    .execute();
}

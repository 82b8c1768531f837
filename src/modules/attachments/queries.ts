// SQL for attachments. Issues are looked up through the issues module's one
// resolver, so identifiers and visibility work as everywhere else.
import { type Insertable, sql, type Updateable } from 'kysely';
import { type TeamAccess, visibility, visibleIn } from '../../platform/access.js';
import type { Db } from '../../platform/db/database.js';
import type { AttachmentRow, AttachmentsTable } from '../../platform/db/tables.js';

export function listForIssue(db: Db, issueId: string, page: { limit: number; offset: number }) {
  return db
    .selectFrom('attachments')
    .selectAll()
    .where('issue_id', '=', issueId)
    .where('archived_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countForIssue(db: Db, issueId: string): Promise<number> {
  const row = await db
    .selectFrom('attachments')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('issue_id', '=', issueId)
    .where('archived_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** An attachment on an issue the caller may see. */
export function findAttachment(
  db: Db,
  id: string,
  access: TeamAccess,
  lock = false,
): Promise<AttachmentRow | undefined> {
  const q = db
    .selectFrom('attachments')
    .selectAll()
    .where('id', '=', id)
    .where(visibleIn(visibility.attachment, 'attachments', access));
  return (lock ? q.forUpdate() : q).executeTakeFirst();
}

export function findByIssueAndUrl(db: Db, issueId: string, url: string): Promise<AttachmentRow | undefined> {
  return db
    .selectFrom('attachments')
    .selectAll()
    .where('url', '=', url)
    .where('issue_id', '=', issueId)
    .where('archived_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

export function insertAttachment(db: Db, values: Insertable<AttachmentsTable>): Promise<AttachmentRow> {
  return db.insertInto('attachments').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateAttachmentRow(db: Db, id: string, patch: Updateable<AttachmentsTable>) {
  return db
    .updateTable('attachments')
    .set({ ...patch, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteAttachmentRow(db: Db, id: string): Promise<void> {
  await db.deleteFrom('attachments').where('id', '=', id).execute();
}

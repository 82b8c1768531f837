// SQL for attachments. Issues are looked up through the issues module's one
// resolver, so identifiers and visibility work as everywhere else.
import { type Insertable, sql, type Updateable } from 'kysely';
import { type TeamAccess, visibility, visibleIn } from '../../platform/access.js';
import type { Db } from '../../platform/db/database.js';
import type { AttachmentRow, AttachmentsTable } from '../../platform/db/tables.js';
import { timeKey } from '../../platform/list/order.js';
import { offsetPage } from '../../platform/list/runner.js';
import { type PageRequest, windowOf } from '../../platform/list/window.js';

/** A page of an issue's live attachments, oldest first, and how many it has. */
export function listForIssue(db: Db, issueId: string, page: PageRequest) {
  const order = timeKey('createdAt', 'asc');
  return offsetPage<AttachmentRow>(
    db,
    { from: sql`attachments as t`, where: [sql`t.issue_id = ${issueId}::uuid`], archivable: true },
    order,
    windowOf(page, order),
  );
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

// SQL for attachments, and the issue lookups they need (read directly from the
// issue tables so this module does not depend on the issues module).
import { type Insertable, sql, type Updateable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { AttachmentRow, AttachmentsTable } from '../../platform/db/tables.js';
import { isUuid } from '../projects/refs.js';

/** An issue id from its id or any identifier it has had (e.g. "ENG-12"). */
export async function resolveIssueId(db: Db, ref: string): Promise<string | undefined> {
  if (isUuid(ref)) {
    const row = await db.selectFrom('issues').select('id').where('id', '=', ref).executeTakeFirst();
    return row?.id;
  }
  const row = await db
    .selectFrom('issue_identifiers')
    .select('issue_id')
    .where('identifier', '=', ref.toUpperCase())
    .executeTakeFirst();
  return row?.issue_id;
}

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

export function findAttachment(db: Db, id: string, lock = false): Promise<AttachmentRow | undefined> {
  const q = db.selectFrom('attachments').selectAll().where('id', '=', id);
  return (lock ? q.forUpdate() : q).executeTakeFirst();
}

export function findAttachmentsByIds(db: Db, ids: readonly string[]): Promise<AttachmentRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('attachments')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
}

/** Attachments of a page of issues (GraphQL issue.attachments), oldest first. */
export function findAttachmentsByIssueIds(db: Db, issueIds: readonly string[]): Promise<AttachmentRow[]> {
  if (issueIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('attachments')
    .selectAll()
    .where('issue_id', 'in', [...issueIds])
    .where('archived_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
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

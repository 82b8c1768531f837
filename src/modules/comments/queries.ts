// SQL for comments. Authors are joined for their name, deleted accounts included.
import { type Expression, type SqlBool, sql } from 'kysely';
import { type TeamAccess, visibility, visibleIn } from '../../platform/access.js';
import type { Db } from '../../platform/db/database.js';
import type { CommentRow } from '../../platform/db/tables.js';
import { timeKey } from '../../platform/list/order.js';
import { offsetPage } from '../../platform/list/runner.js';
import { type PageRequest, windowOf } from '../../platform/list/window.js';
import { isUuid } from '../teams/ids.js';

export type CommentRecord = CommentRow & { user_name: string | null };

/** Every column but user_id, which comes from the author's row (none when out of sight). */
const COMMENT_COLUMNS = [
  'comments.id',
  'comments.issue_id',
  'comments.parent_id',
  'comments.body',
  'comments.created_at',
  'comments.updated_at',
  'comments.edited_at',
  'comments.resolved_at',
  'comments.archived_at',
  'comments.deleted_at',
] as const satisfies readonly `comments.${Exclude<keyof CommentRow, 'user_id'>}`[];

/**
 * Comments with their author's name. An author the caller may not see (a
 * guest sees only the people of their teams) reads as none, id and name, as
 * GraphQL's Comment.user answers null for them.
 */
function selectComments(db: Db, access: TeamAccess) {
  const seen = access.all || !access.guest ? sql<SqlBool>`true` : visibility.user('users', access);
  return db
    .selectFrom('comments')
    .leftJoin('users', (j) => j.onRef('users.id', '=', 'comments.user_id').on(seen as Expression<SqlBool>))
    .select([...COMMENT_COLUMNS, 'users.id as user_id', 'users.name as user_name']);
}

/** A comment on an issue the caller may see. */
export function findComment(db: Db, id: string, access: TeamAccess): Promise<CommentRecord | undefined> {
  if (!isUuid(id)) return Promise.resolve(undefined);
  return selectComments(db, access)
    .where('comments.id', '=', id)
    .where(visibleIn(visibility.comment, 'comments', access))
    .executeTakeFirst();
}

/** A page of an issue's comments, oldest first, and how many it has (the list runner's page and total). */
export function listComments(db: Db, issueId: string, access: TeamAccess, page: PageRequest) {
  const comments = selectComments(db, access).where('comments.issue_id', '=', issueId);
  const order = timeKey('createdAt', 'asc');
  return offsetPage<CommentRecord>(
    db,
    { from: sql`(${comments}) as t`, archivable: false },
    order,
    windowOf(page, order),
  );
}

export async function insertComment(
  db: Db,
  c: { id?: string; issue_id: string; user_id: string; parent_id: string | null; body: string },
): Promise<string> {
  const row = await db.insertInto('comments').values(c).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateCommentBody(db: Db, id: string, body: string): Promise<void> {
  await db
    .updateTable('comments')
    .set({ body, edited_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .execute();
}

/**
 * Locks one comment row until the transaction ends: 'update' to delete it or
 * its replies, 'share' to add a reply (so a reply and the parent's deletion
 * take turns, and the deletion sees the reply).
 */
export async function lockComment(db: Db, id: string, mode: 'update' | 'share' = 'update'): Promise<void> {
  if (!isUuid(id)) return;
  const q = db.selectFrom('comments').select('id').where('id', '=', id);
  await (mode === 'update' ? q.forUpdate() : q.forShare()).execute();
}

export async function hasReplies(db: Db, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('comments')
    .select('id')
    .where('parent_id', '=', id)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Keeps the row for its replies; the text and who wrote it are gone. */
export async function softDeleteComment(db: Db, id: string): Promise<void> {
  await db
    .updateTable('comments')
    .set({ body: '', user_id: null, deleted_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .execute();
}

export async function deleteComment(db: Db, id: string): Promise<void> {
  await db.deleteFrom('comments').where('id', '=', id).execute();
}

/**
 * Removes the placeholder `id` if its last reply is gone, then its parent if
 * that is now an empty placeholder too, and so on up the thread.
 */
export async function removeEmptyPlaceholders(db: Db, id: string | null): Promise<void> {
  while (id) {
    const removed = await db
      .deleteFrom('comments')
      .where('id', '=', id)
      .where('deleted_at', 'is not', null)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('comments as r').select('r.id').whereRef('r.parent_id', '=', 'comments.id'))),
      )
      .returning('parent_id')
      .executeTakeFirst();
    id = removed?.parent_id ?? null;
  }
}

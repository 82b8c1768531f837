// SQL for reactions. A reaction is seen with its issue (visibility.reaction).
import { sql } from 'kysely';
import { type TeamAccess, visibility, visibleIn } from '../../platform/access.js';
import type { Db } from '../../platform/db/database.js';
import type { ReactionRow } from '../../platform/db/tables.js';
import { isUuid } from '../../platform/ids.js';
import { type ReactionTarget, reactionDataSql } from './fields.js';

export type { ReactionRow };

/** A reaction the caller may see (one on an issue they see, or on one of its comments). */
export function findReaction(db: Db, id: string, access: TeamAccess): Promise<ReactionRow | undefined> {
  if (!isUuid(id)) return Promise.resolve(undefined);
  return db
    .selectFrom('reactions')
    .selectAll()
    .where('id', '=', id)
    .where(visibleIn(visibility.reaction, 'reactions', access))
    .executeTakeFirst();
}

/** The caller's own reaction with this emoji on the target, if any. */
export function findOwnReaction(
  db: Db,
  target: { issueId: string; commentId: string | null },
  userId: string,
  emoji: string,
): Promise<ReactionRow | undefined> {
  let q = db
    .selectFrom('reactions')
    .selectAll()
    .where('issue_id', '=', target.issueId)
    .where('user_id', '=', userId)
    .where('emoji', '=', emoji);
  q = target.commentId ? q.where('comment_id', '=', target.commentId) : q.where('comment_id', 'is', null);
  return q.executeTakeFirst();
}

/**
 * Adds the reaction unless the person already gave this emoji to this target
 * (the unique indexes of migration 0033): undefined then, and nothing written.
 */
export async function insertReaction(
  db: Db,
  r: { id?: string; user_id: string; issue_id: string; comment_id: string | null; emoji: string },
): Promise<string | undefined> {
  const row = await db
    .insertInto('reactions')
    .values(r)
    .onConflict((oc) =>
      (r.comment_id
        ? oc.columns(['comment_id', 'user_id', 'emoji']).where('comment_id', 'is not', null)
        : oc.columns(['issue_id', 'user_id', 'emoji']).where('comment_id', 'is', null)
      ).doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export async function deleteReaction(db: Db, id: string): Promise<void> {
  await db.deleteFrom('reactions').where('id', '=', id).execute();
}

/** A target's reactions, first given first (the REST list and the resolvers' plain list). */
export function reactionsOf(db: Db, target: ReactionTarget, ids: readonly string[]): Promise<ReactionRow[]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return Promise.resolve([]);
  const column = target === 'comment' ? 'comment_id' : 'issue_id';
  let q = db.selectFrom('reactions').selectAll().where(column, 'in', valid);
  if (target === 'issue') q = q.where('comment_id', 'is', null);
  return q.orderBy('created_at').orderBy('id').execute();
}

/** reactionData of each target, as the read model computes it (fields.ts), by target id. */
export async function reactionDataOf(
  db: Db,
  target: ReactionTarget,
  ids: readonly string[],
  access: TeamAccess,
): Promise<Map<string, unknown>> {
  const valid = [...new Set(ids.filter(isUuid))];
  if (valid.length === 0) return new Map();
  const { rows } = await sql<{ id: string; data: unknown }>`select t.id::text as id,
    ${reactionDataSql(target, sql.ref('t.id'), access)}::text as data
    from unnest(cast(${`{${valid.join(',')}}`} as uuid[])) as t(id)`.execute(db);
  return new Map(rows.map((r) => [r.id, JSON.parse(r.data as string)]));
}

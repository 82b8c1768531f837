// The public shape of a comment, with its author's id and name (a deleted
// author still shows the name they had). A deleted comment kept for its
// replies has deletedAt, an empty body and no author.
import { Type } from 'typebox';
import type { CommentRecord } from './queries.js';

export function presentComment(c: CommentRecord) {
  return {
    id: c.id,
    issueId: c.issue_id,
    userId: c.user_id,
    parentId: c.parent_id,
    body: c.body,
    createdAt: c.created_at.toISOString(),
    updatedAt: c.updated_at.toISOString(),
    editedAt: c.edited_at?.toISOString() ?? null,
    deletedAt: c.deleted_at?.toISOString() ?? null,
    user: c.user_id ? { id: c.user_id, name: c.user_name ?? '' } : null,
  };
}

export type CommentJson = ReturnType<typeof presentComment>;

export const CommentSchema = Type.Object({
  id: Type.String(),
  issueId: Type.String(),
  userId: Type.Union([Type.String(), Type.Null()]),
  parentId: Type.Union([Type.String(), Type.Null()]),
  body: Type.String({ description: 'Markdown' }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  editedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  deletedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'Set on a deleted comment kept for its replies; its body is "" and user null',
  }),
  user: Type.Union([Type.Object({ id: Type.String(), name: Type.String() }), Type.Null()]),
});

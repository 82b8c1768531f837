// The public shape of a comment, with its author's id and name (a deleted
// author still shows the name they had; one out of the reader's sight is
// null). A deleted comment kept for its replies has deletedAt, an empty body
// and no author. COMMENT_VIEW reads it from the read model's declaration for
// every REST answer and every comment event (platform/read/rest.ts).
import { type Static, Type } from 'typebox';
import { comment } from '../../platform/read/entities.js';
import { restView } from '../../platform/read/rest.js';
import { ReactionDataSchema } from '../reactions/present.js';

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
  // app: an OAuth app acting under its own name (actor=app).
  user: Type.Union([
    Type.Object({ id: Type.String(), name: Type.String(), app: Type.Boolean() }),
    Type.Null(),
  ]),
  reactionData: ReactionDataSchema,
});

export type CommentJson = Static<typeof CommentSchema>;

/** REST's comment over the read model's: the schema's keys in its order; `user` is the author's id and name. */
export const COMMENT_VIEW = restView(comment, CommentSchema, {
  user: {
    field: 'user',
    select: [
      { key: 'id', field: 'id' },
      { key: 'name', field: 'name' },
      { key: 'app', field: 'app' },
    ],
  },
});

// The public shape of a reaction: its emoji, who gave it (null when out of the
// reader's sight) and what it is on: the issue, and the comment when it is a
// comment's. REACTION_VIEW reads it from the read model's declaration for
// every REST answer and every reaction event (platform/read/rest.ts).
import { Type } from 'typebox';
import { reaction } from '../../platform/read/entities.js';
import { restView } from '../../platform/read/rest.js';

export const ReactionSchema = Type.Object({
  id: Type.String(),
  emoji: Type.String({ description: 'As given: a Unicode emoji (👍) or a shortcode name (+1, thumbsup)' }),
  issueId: Type.String({ description: "The issue reacted to, or the comment's issue" }),
  commentId: Type.Union([Type.String(), Type.Null()], { description: 'Set on a reaction to a comment' }),
  userId: Type.Union([Type.String(), Type.Null()]),
  user: Type.Union([Type.Object({ id: Type.String(), name: Type.String() }), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
});

export const REACTION_VIEW = restView(reaction, ReactionSchema, {
  user: {
    field: 'user',
    select: [
      { key: 'id', field: 'id' },
      { key: 'name', field: 'name' },
    ],
  },
});

/** A target's reactions summed up by emoji (reactions/fields.ts reactionDataSql), for REST's comment view. */
export const ReactionDataSchema = Type.Array(
  Type.Object({
    emoji: Type.String(),
    count: Type.Integer({ minimum: 1 }),
    userIds: Type.Array(Type.String(), {
      description: 'Those of the people who gave it that the reader sees',
    }),
  }),
  { description: 'One entry per emoji, in the order each was first given' },
);

// Reactions: reactionCreate/reactionDelete on the reactions service (the same
// rules as REST), the Reaction type's relations, and Issue/Comment
// `reactions` and `reactionData` for the resolver fallback (batched per page;
// the compiled reads take the same SQL from the read model).
import * as reactions from '../../modules/reactions/service.js';
import type { ReactionRow } from '../../platform/db/tables.js';
import { currentSyncId } from '../../platform/outbox.js';
import type { ResolverMap } from '../build-schema.js';
import { node } from '../nodes.js';
import { belongsTo } from './helpers.js';

type Input = Record<string, unknown>;

/** ReactionCreateInput's targets this service does not hold. */
const OTHER_TARGETS = [
  'projectUpdateId',
  'initiativeUpdateId',
  'postId',
  'pullRequestId',
  'pullRequestCommentId',
];

export const reactionResolvers: ResolverMap = {
  Mutation: {
    reactionCreate: async (_s, a: { input: Input }, g) => {
      const { row } = await reactions.createReaction(g.app, g.actor, {
        emoji: a.input.emoji,
        id: a.input.id as string | null | undefined,
        issueId: a.input.issueId as string | null | undefined,
        commentId: a.input.commentId as string | null | undefined,
        other: OTHER_TARGETS.filter((k) => a.input[k] != null),
      });
      return { success: true, lastSyncId: await currentSyncId(g.db), reaction: node.reaction(row) };
    },
    reactionDelete: async (_s, a: { id: string }, g) => {
      await reactions.deleteReaction(g.app, g.actor, a.id);
      return { success: true, lastSyncId: await currentSyncId(g.db), entityId: a.id };
    },
  },

  Reaction: {
    user: belongsTo('user', 'user_id', node.user),
    // The issue reacted to; a comment's reaction has its comment instead.
    issue: belongsTo('issue', (r: ReactionRow) => (r.comment_id ? null : r.issue_id), node.issue),
    comment: belongsTo('comment', 'comment_id', node.comment),
  },

  Issue: {
    reactions: async (src, _a, g) => (await g.loaders.issueReactions.load(src.id)).map(node.reaction),
    reactionData: (src, _a, g) => g.loaders.issueReactionData.load(src.id),
  },
  IssueSearchResult: {
    reactions: async (src, _a, g) => (await g.loaders.issueReactions.load(src.id)).map(node.reaction),
    reactionData: (src, _a, g) => g.loaders.issueReactionData.load(src.id),
  },

  Comment: {
    reactions: async (src, _a, g) => (await g.loaders.commentReactions.load(src.id)).map(node.reaction),
    reactionData: (src, _a, g) => g.loaders.commentReactionData.load(src.id),
  },
};

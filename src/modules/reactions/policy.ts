// Who may do what with reactions: whoever sees the target reacts (guests
// too); a reaction is taken back by whoever gave it, or removed by an admin.
import type { Actor } from '../../platform/context.js';
import { forbidden } from '../../platform/errors.js';

export function assertCanRemoveReaction(actor: Actor, reaction: { user_id: string }): void {
  if (actor.role === 'admin' || reaction.user_id === actor.id) return;
  throw forbidden('Only the person who reacted or an admin can remove this reaction');
}

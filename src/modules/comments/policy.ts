// Who may do what with comments: everyone signed in (guests too) comments;
// only the author or an admin edits or deletes a comment.
import { type Actor, authorOf } from '../../platform/context.js';
import { forbidden } from '../../platform/errors.js';

export function assertCanChangeComment(actor: Actor, comment: { user_id: string | null }): void {
  if (actor.role === 'admin' || (comment.user_id !== null && comment.user_id === authorOf(actor).id)) return;
  throw forbidden('Only the author or an admin can change this comment');
}

// Who may manage labels: members and admins; guests only read.
import type { Actor } from '../../platform/context.js';
import { assertRole, type RequiredRole } from '../../platform/roles.js';

/** Who changes labels; their REST routes declare it, so guests are refused before the body is read. */
export const MANAGE_LABELS: RequiredRole = 'member';

export function assertCanManageLabels(actor: Actor): void {
  assertRole(actor, MANAGE_LABELS, 'Guests cannot change labels');
}

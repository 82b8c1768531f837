// Who may do what with saved views. Seeing one is the rule in
// platform/access.ts (a personal view: its owner; a shared one: whoever sees
// its team, or every member for a workspace view). Changing one:
//
//   personal view   its owner only (nobody else even sees it)
//   shared view     its owner or an admin
//   sharing         members and admins; a guest's views stay personal
//   ownerId         the caller, unless an admin hands a shared view to someone
import type { Actor } from '../../platform/context.js';
import type { CustomViewRow } from '../../platform/db/tables.js';
import { forbidden } from '../../platform/errors.js';
import { assertRole, hasRole, type RequiredRole } from '../../platform/roles.js';

/** Sharing a view puts it in front of a team: a member's act, as any other write to the team. */
export const SHARE_VIEWS: RequiredRole = 'member';

export function assertCanShare(actor: Actor): void {
  assertRole(actor, SHARE_VIEWS, 'Guests cannot share views');
}

/** A view the caller already sees: may they change or delete it? */
export function assertCanChange(actor: Actor, view: Pick<CustomViewRow, 'owner_id' | 'shared'>): void {
  if (view.owner_id === actor.id) return;
  if (view.shared && hasRole(actor, 'admin')) return;
  throw forbidden('Only its owner or an admin can change a shared view');
}

/** Naming another owner hands the view over: admins only, and only for shared views. */
export function assertCanSetOwner(actor: Actor, ownerId: string): void {
  if (ownerId !== actor.id) assertRole(actor, 'admin', 'Only an admin can make someone else the owner');
}

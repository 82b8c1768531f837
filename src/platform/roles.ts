// Roles from least to most: each may do everything the one before it may.
// Guests read and comment, members change the work, admins run the workspace.
// Policies name the role an action needs with these, and REST routes declare
// the same constant as their `auth`, so the two cannot disagree.
import type { Actor } from './context.js';
import type { Role } from './db/tables.js';
import { forbidden } from './errors.js';

/** A role an action can require: every signed-in caller is at least a guest. */
export type RequiredRole = Exclude<Role, 'guest'>;

const RANK: Record<Role, number> = { guest: 0, member: 1, admin: 2 };

export const hasRole = (actor: Pick<Actor, 'role'>, needed: RequiredRole): boolean =>
  RANK[actor.role] >= RANK[needed];

export function assertRole(actor: Pick<Actor, 'role'>, needed: RequiredRole, message: string): void {
  if (!hasRole(actor, needed)) throw forbidden(message);
}

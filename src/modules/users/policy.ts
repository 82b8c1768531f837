// Who may manage accounts: admins only. The one place this rule lives.

import type { Actor } from '../../platform/context.js';
import { forbidden } from '../../platform/errors.js';

export function assertAdmin(actor: Actor): void {
  if (actor.role !== 'admin') throw forbidden('Only workspace admins can do this');
}

// Who may manage labels: members and admins; guests only read.
import type { Actor } from '../../platform/context.js';
import { forbidden } from '../../platform/errors.js';

export function assertCanManageLabels(actor: Actor): void {
  if (actor.role === 'guest') throw forbidden('Guests cannot change labels');
}

// Who may manage webhook endpoints and read their delivery log: admins only.
// Endpoints see every change in the workspace, and hold signing secrets.
import type { Actor } from '../../platform/context.js';
import { assertAdmin } from '../users/policy.js';

export function assertCanManageWebhooks(actor: Actor): void {
  assertAdmin(actor);
}

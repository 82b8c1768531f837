// Workspace branding: name, tagline and accent colour.
import type { Actor, AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import type { WorkspaceRow } from '../../platform/db/tables.js';
import { assertAdmin } from '../users/policy.js';

export function getWorkspace(db: Db): Promise<WorkspaceRow> {
  return db.selectFrom('workspace').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
}

export async function adminUpdateWorkspace(
  ctx: AppContext,
  actor: Actor,
  patch: { name?: string; tagline?: string; accentColor?: string },
): Promise<WorkspaceRow> {
  assertAdmin(actor);
  return ctx.db
    .updateTable('workspace')
    .set({
      ...(patch.name !== undefined ? { name: patch.name.trim() } : {}),
      ...(patch.tagline !== undefined ? { tagline: patch.tagline.trim() } : {}),
      ...(patch.accentColor !== undefined ? { accent_color: patch.accentColor.toLowerCase() } : {}),
      updated_at: new Date(),
    })
    .where('id', '=', 1)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export const presentWorkspace = (w: WorkspaceRow) => ({
  name: w.name,
  tagline: w.tagline,
  accentColor: w.accent_color,
});

// Workspace settings: branding (name, tagline, accent colour) and who may register.
import type { Actor, AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import type { WorkspaceRow } from '../../platform/db/tables.js';
import { assertAdmin } from '../users/policy.js';
import * as q from './queries.js';

export function getWorkspace(db: Db): Promise<WorkspaceRow> {
  return q.workspaceRow(db);
}

export async function adminUpdateWorkspace(
  ctx: AppContext,
  actor: Actor,
  patch: { name?: string; tagline?: string; accentColor?: string },
): Promise<WorkspaceRow> {
  assertAdmin(actor);
  return q.updateWorkspaceRow(ctx.db, {
    ...(patch.name !== undefined ? { name: patch.name.trim() } : {}),
    ...(patch.tagline !== undefined ? { tagline: patch.tagline.trim() } : {}),
    ...(patch.accentColor !== undefined ? { accent_color: patch.accentColor.toLowerCase() } : {}),
  });
}

export const presentWorkspace = (w: WorkspaceRow) => ({
  name: w.name,
  tagline: w.tagline,
  accentColor: w.accent_color,
});

/** Self-registration settings, for admins: open or invite-only, and the allowed email domains. */
export async function adminGetRegistration(ctx: AppContext, actor: Actor): Promise<WorkspaceRow> {
  assertAdmin(actor);
  return getWorkspace(ctx.db);
}

export async function adminUpdateRegistration(
  ctx: AppContext,
  actor: Actor,
  patch: { open?: boolean; allowedEmailDomains?: string[] },
): Promise<WorkspaceRow> {
  assertAdmin(actor);
  const domains = patch.allowedEmailDomains && [
    ...new Set(patch.allowedEmailDomains.map((d) => d.trim().toLowerCase().replace(/\.$/, ''))),
  ];
  return q.updateWorkspaceRow(ctx.db, {
    ...(patch.open !== undefined ? { registration_open: patch.open } : {}),
    ...(domains ? { allowed_email_domains: domains } : {}),
  });
}

export const presentRegistration = (w: WorkspaceRow) => ({
  open: w.registration_open,
  allowedEmailDomains: w.allowed_email_domains,
});

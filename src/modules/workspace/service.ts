// Workspace settings: branding (name, tagline, accent colour) and who may register.
import type { Actor, AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import type { WorkspaceRow } from '../../platform/db/tables.js';
import { invalidField } from '../../platform/errors.js';
import { auditActorOf, changes, recordAudit } from '../audit/record.js';
import { branchFormatProblem } from '../issues/branch-format.js';
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
  return changeWorkspace(ctx, actor, 'workspace.brandingChanged', presentWorkspace, {
    ...(patch.name !== undefined ? { name: patch.name.trim() } : {}),
    ...(patch.tagline !== undefined ? { tagline: patch.tagline.trim() } : {}),
    ...(patch.accentColor !== undefined ? { accent_color: patch.accentColor.toLowerCase() } : {}),
  });
}

/** Writes workspace settings and records what changed, as `present` shows them, in one transaction. */
function changeWorkspace(
  ctx: AppContext,
  actor: Actor,
  type: 'workspace.brandingChanged' | 'workspace.registrationChanged' | 'workspace.gitBranchFormatChanged',
  present: (w: WorkspaceRow) => Record<string, unknown>,
  patch: Parameters<typeof q.updateWorkspaceRow>[1],
): Promise<WorkspaceRow> {
  return ctx.db.transaction().execute(async (trx) => {
    const before = await q.lockWorkspaceRow(trx);
    const after = await q.updateWorkspaceRow(trx, patch);
    const diff = changes(present(before), present(after));
    if (diff)
      await recordAudit(trx, {
        type,
        actor: auditActorOf(actor),
        entity: { type: 'workspace', id: 'workspace' },
        ...diff,
      });
    return after;
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
  return changeWorkspace(ctx, actor, 'workspace.registrationChanged', presentRegistration, {
    ...(patch.open !== undefined ? { registration_open: patch.open } : {}),
    ...(domains ? { allowed_email_domains: domains } : {}),
  });
}

export const presentRegistration = (w: WorkspaceRow) => ({
  open: w.registration_open,
  allowedEmailDomains: w.allowed_email_domains,
});

export async function adminGetGitSettings(ctx: AppContext, actor: Actor): Promise<WorkspaceRow> {
  assertAdmin(actor);
  return getWorkspace(ctx.db);
}

/** The git branch name format every door's branchName fills (issues/branch-format.ts). */
export async function adminUpdateGitBranchFormat(
  ctx: AppContext,
  actor: Actor,
  format: string,
): Promise<WorkspaceRow> {
  assertAdmin(actor);
  const problem = branchFormatProblem(format);
  if (problem) throw invalidField('branchFormat', problem);
  return changeWorkspace(ctx, actor, 'workspace.gitBranchFormatChanged', presentGitSettings, {
    git_branch_format: format,
  });
}

export const presentGitSettings = (w: WorkspaceRow) => ({ branchFormat: w.git_branch_format });

// Project rules: validation of references and dates, status timestamps,
// events in the same transaction as each change.
import { randomBytes } from 'node:crypto';
import type { Updateable } from 'kysely';
import { canSeeTeam, type TeamAccess } from '../../platform/access.js';
import type { Actor, AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import {
  PROJECT_STATUSES,
  type ProjectHealth,
  type ProjectRow,
  type ProjectStatus,
  type ProjectsTable,
} from '../../platform/db/tables.js';
import { invalidField, notFound } from '../../platform/errors.js';
import { isUuid } from '../../platform/ids.js';
import { isOneLine, ONE_LINE_MESSAGE } from '../../platform/one-line.js';
import { recordEvent } from '../../platform/outbox.js';
import {
  eventData,
  listEnvelope,
  readContextOf,
  viewAnswer,
  viewListAnswer,
} from '../../platform/read/rest.js';
import { teamAccess } from '../teams/access.js';
import { assertCanReadProjects, assertCanWriteProjects } from './policy.js';
import { PROJECT_VIEW, type ProjectRecord } from './present.js';
import * as q from './queries.js';

export interface ProjectInput {
  name: string;
  description?: string | undefined;
  content?: string | null | undefined;
  status?: ProjectStatus | undefined;
  health?: ProjectHealth | null | undefined;
  leadId?: string | null | undefined;
  memberIds?: string[] | undefined;
  /** Team ids or keys; defaults to the first team. */
  teamIds?: string[] | undefined;
  startDate?: string | null | undefined;
  targetDate?: string | null | undefined;
  color?: string | undefined;
  icon?: string | null | undefined;
  sortOrder?: number | undefined;
}

export type ProjectPatch = Partial<ProjectInput>;

export interface ListProjectsInput {
  includeArchived?: boolean | undefined;
  status?: ProjectStatus | undefined;
  leadId?: string | undefined;
  limit: number;
  offset: number;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function checkDate(field: string, v: string | null | undefined): void {
  if (v === null || v === undefined) return;
  const d = new Date(`${v}T00:00:00Z`);
  if (!DATE.test(v) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== v) {
    throw invalidField(field, 'must be a date in the form YYYY-MM-DD');
  }
}

function checkName(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  if (!isOneLine(name)) throw invalidField('name', ONE_LINE_MESSAGE);
  const trimmed = name.trim();
  if (!trimmed) throw invalidField('name', 'must not be blank');
  if (trimmed.length > 255) throw invalidField('name', 'must be at most 255 characters');
  return trimmed;
}

async function checkLead(db: Db, leadId: string | null | undefined): Promise<void> {
  if (leadId === null || leadId === undefined) return;
  if (!(await q.existingUserIds(db, [leadId])).has(leadId)) throw invalidField('leadId', 'no such user');
}

async function checkMembers(db: Db, ids: string[] | undefined): Promise<string[] | undefined> {
  if (ids === undefined) return undefined;
  const unique = [...new Set(ids)];
  const found = await q.existingUserIds(db, unique);
  const missing = unique.filter((id) => !found.has(id));
  if (missing.length) throw invalidField('memberIds', `no such user: ${missing.join(', ')}`);
  return unique;
}

async function checkTeams(
  db: Db,
  refs: string[] | undefined,
  access: TeamAccess,
): Promise<string[] | undefined> {
  if (refs === undefined) return undefined;
  const { ids, missing } = await q.resolveTeamRefs(db, refs, access);
  if (missing.length) throw invalidField('teamIds', `no such team: ${missing.join(', ')}`);
  return ids;
}

function checkDateOrder(start: string | null, target: string | null): void {
  if (start && target && target < start) {
    throw invalidField('targetDate', 'must be on or after startDate');
  }
}

/** GraphQL passes a status id through as the status; anything else is refused here. */
function checkStatus(status: string | undefined): ProjectStatus | undefined {
  if (status === undefined || (PROJECT_STATUSES as readonly string[]).includes(status))
    return status as never;
  throw invalidField('status', `must be one of ${PROJECT_STATUSES.join(', ')}`);
}

/** Entering a status stamps its timestamp; leaving completed/canceled clears it. */
function statusStamps(from: ProjectStatus | undefined, to: ProjectStatus, row?: ProjectRow) {
  if (from === to) return {};
  const now = new Date();
  return {
    ...(to === 'started' && !row?.started_at ? { started_at: now } : {}),
    completed_at: to === 'completed' ? now : null,
    canceled_at: to === 'canceled' ? now : null,
  };
}

async function newSlug(db: Db): Promise<string> {
  for (;;) {
    const slug = randomBytes(6).toString('hex').slice(0, 12);
    if (!(await q.slugTaken(db, slug))) return slug;
  }
}

async function loadOne(db: Db, row: ProjectRow, access: TeamAccess): Promise<ProjectRecord> {
  const [record] = await q.loadProjectRecords(db, [row], access);
  return record!;
}

/** A project event: its data is PROJECT_VIEW as an admin's GET shows it, read in `trx`. */
async function eventOf(ctx: AppContext, trx: Db, actor: Actor, id: string) {
  const data = await eventData(ctx, trx, PROJECT_VIEW, id, actor);
  return { type: 'project' as const, data, actor, url: String(data['url']) };
}

/** listProjects as REST answers it: the page's projects as PROJECT_VIEW and its pageInfo. */
export async function listProjectsJson(
  ctx: AppContext,
  actor: Actor,
  input: ListProjectsInput & { limit: number; offset: number },
): Promise<string> {
  await assertCanReadProjects(ctx.db);
  const access = await teamAccess(ctx.db, actor);
  const page = { limit: input.limit, offset: input.offset };
  if (input.leadId && !isUuid(input.leadId))
    return listEnvelope('projects', [], { pageInfo: { total: 0, ...page } });
  const { rows, total } = await q.listProjectRows(ctx.db, {
    access,
    filter: {
      ...(input.status ? { state: { eq: input.status } } : {}),
      ...(input.leadId ? { lead: { id: { eq: input.leadId } } } : {}),
    },
    now: new Date(),
    actorId: actor.id,
    includeArchived: input.includeArchived,
    limit: input.limit,
    offset: input.offset,
  });
  const ids = rows.map((r) => r.id);
  return viewListAnswer(ctx.db, PROJECT_VIEW, 'projects', ids, readContextOf(ctx, actor, access), {
    pageInfo: { total, ...page },
  });
}

/** One project as REST answers it, `{"project":...}` (its GET, and a write's answer read back as the GET would). */
export async function projectJson(ctx: AppContext, actor: Actor, id: string): Promise<string> {
  await assertCanReadProjects(ctx.db);
  const access = await teamAccess(ctx.db, actor);
  return viewAnswer(ctx.db, PROJECT_VIEW, 'project', id, readContextOf(ctx, actor, access), 'Project');
}

export async function getProject(ctx: AppContext, actor: Actor, id: string): Promise<ProjectRecord> {
  await assertCanReadProjects(ctx.db);
  const access = await teamAccess(ctx.db, actor);
  const row = isUuid(id) ? await q.findProjectRow(ctx.db, id, access) : undefined;
  if (!row) throw notFound('Project');
  return loadOne(ctx.db, row, access);
}

export async function createProject(
  ctx: AppContext,
  actor: Actor,
  input: ProjectInput,
): Promise<ProjectRecord> {
  await assertCanWriteProjects(ctx.db, actor);
  const name = checkName(input.name)!;
  checkDate('startDate', input.startDate);
  checkDate('targetDate', input.targetDate);
  checkDateOrder(input.startDate ?? null, input.targetDate ?? null);
  const access = await teamAccess(ctx.db, actor);
  return ctx.db.transaction().execute(async (trx) => {
    await checkLead(trx, input.leadId);
    const memberIds = (await checkMembers(trx, input.memberIds)) ?? [];
    let teamIds = await checkTeams(trx, input.teamIds, access);
    if (teamIds === undefined) {
      const team = await q.firstTeam(trx);
      teamIds = team && canSeeTeam(access, team.id) ? [team.id] : [];
    }
    const status = checkStatus(input.status) ?? 'planned';
    const row = await q.insertProject(trx, {
      name,
      description: input.description ?? '',
      content: input.content ?? null,
      slug_id: await newSlug(trx),
      status,
      health: input.health ?? null,
      lead_id: input.leadId ?? null,
      creator_id: actor.id,
      start_date: input.startDate ?? null,
      target_date: input.targetDate ?? null,
      ...(input.color ? { color: input.color.toLowerCase() } : {}),
      icon: input.icon ?? null,
      ...(input.sortOrder !== undefined ? { sort_order: input.sortOrder } : {}),
      ...statusStamps(undefined, status),
    });
    await q.replaceMembers(trx, row.id, memberIds);
    await q.replaceTeams(trx, row.id, teamIds);
    await recordEvent(ctx, trx, { ...(await eventOf(ctx, trx, actor, row.id)), action: 'create' });
    return loadOne(trx, row, access);
  });
}

/** Previous values of the presented fields that changed. */
function changedFrom(before: Record<string, unknown>, after: Record<string, unknown>) {
  const from: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(before)) {
    if (k === 'updatedAt' || k === 'progress') continue;
    if (JSON.stringify(v) !== JSON.stringify(after[k])) from[k] = v;
  }
  return from;
}

async function applyUpdate(
  ctx: AppContext,
  actor: Actor,
  id: string,
  change: (
    trx: Db,
    current: ProjectRow,
    access: TeamAccess,
  ) => Promise<{ patch: Updateable<ProjectsTable>; memberIds?: string[]; teamIds?: string[] }>,
): Promise<ProjectRecord> {
  const access = await teamAccess(ctx.db, actor);
  return ctx.db.transaction().execute(async (trx) => {
    const current = isUuid(id) ? await q.findProjectRow(trx, id, access, true) : undefined;
    if (!current) throw notFound('Project');
    const before = await eventData(ctx, trx, PROJECT_VIEW, id, actor);
    const { patch, memberIds, teamIds } = await change(trx, current, access);
    const row = (await q.updateProjectRow(trx, id, patch))!;
    if (memberIds) await q.replaceMembers(trx, id, memberIds);
    // Links to teams the caller cannot see are not theirs to remove.
    const hidden = (before['teamIds'] as string[]).filter((t) => !canSeeTeam(access, t));
    if (teamIds) await q.replaceTeams(trx, id, [...teamIds, ...hidden]);
    const ev = await eventOf(ctx, trx, actor, id);
    await recordEvent(ctx, trx, { ...ev, action: 'update', updatedFrom: changedFrom(before, ev.data) });
    return loadOne(trx, row, access);
  });
}

export async function updateProject(
  ctx: AppContext,
  actor: Actor,
  id: string,
  patch: ProjectPatch,
): Promise<ProjectRecord> {
  await assertCanWriteProjects(ctx.db, actor);
  const name = checkName(patch.name);
  checkDate('startDate', patch.startDate);
  checkDate('targetDate', patch.targetDate);
  return applyUpdate(ctx, actor, id, async (trx, current, access) => {
    checkDateOrder(
      patch.startDate !== undefined ? patch.startDate : current.start_date,
      patch.targetDate !== undefined ? patch.targetDate : current.target_date,
    );
    await checkLead(trx, patch.leadId);
    const memberIds = await checkMembers(trx, patch.memberIds);
    const teamIds = await checkTeams(trx, patch.teamIds, access);
    const status = checkStatus(patch.status);
    const set: Updateable<ProjectsTable> = {
      ...(name !== undefined ? { name } : {}),
      ...(patch.description !== undefined ? { description: patch.description } : {}),
      ...(patch.content !== undefined ? { content: patch.content } : {}),
      ...(patch.health !== undefined ? { health: patch.health } : {}),
      ...(patch.leadId !== undefined ? { lead_id: patch.leadId } : {}),
      ...(patch.startDate !== undefined ? { start_date: patch.startDate } : {}),
      ...(patch.targetDate !== undefined ? { target_date: patch.targetDate } : {}),
      ...(patch.color !== undefined ? { color: patch.color.toLowerCase() } : {}),
      ...(patch.icon !== undefined ? { icon: patch.icon } : {}),
      ...(patch.sortOrder !== undefined ? { sort_order: patch.sortOrder } : {}),
      ...(status !== undefined ? { status, ...statusStamps(current.status, status, current) } : {}),
    };
    return {
      patch: set,
      ...(memberIds ? { memberIds } : {}),
      ...(teamIds ? { teamIds } : {}),
    };
  });
}

export async function archiveProject(ctx: AppContext, actor: Actor, id: string): Promise<ProjectRecord> {
  await assertCanWriteProjects(ctx.db, actor);
  return applyUpdate(ctx, actor, id, async (_trx, current) => ({
    patch: current.archived_at ? {} : { archived_at: new Date() },
  }));
}

export async function unarchiveProject(ctx: AppContext, actor: Actor, id: string): Promise<ProjectRecord> {
  await assertCanWriteProjects(ctx.db, actor);
  return applyUpdate(ctx, actor, id, async () => ({ patch: { archived_at: null } }));
}

/** Deletes a project; its issues stay and lose the project (FK set null). */
export async function deleteProject(ctx: AppContext, actor: Actor, id: string): Promise<ProjectRecord> {
  await assertCanWriteProjects(ctx.db, actor);
  const access = await teamAccess(ctx.db, actor);
  return ctx.db.transaction().execute(async (trx) => {
    const current = isUuid(id) ? await q.findProjectRow(trx, id, access, true) : undefined;
    if (!current) throw notFound('Project');
    const record = await loadOne(trx, current, access);
    const ev = await eventOf(ctx, trx, actor, id);
    await q.deleteProjectRow(trx, id);
    await recordEvent(ctx, trx, { ...ev, action: 'remove' });
    return record;
  });
}

// Milestone rules: they live inside a project and follow its visibility and
// its feature flag; writes are the project writers' (members and admins).
// Each change records its event in the same transaction.
//
//   listMilestonesJson(ctx, actor, projectId)         -> REST's list, in project order, as JSON text
//   milestoneJson(ctx, actor, id)                     -> REST's `{"milestone":...}`
//   createMilestone(ctx, actor, input, where?)        -> MilestoneRecord   event projectMilestone.create
//   updateMilestone(ctx, actor, id, patch)            -> MilestoneRecord   event projectMilestone.update
//   deleteMilestone(ctx, actor, id)                   -> MilestoneRecord   event projectMilestone.remove

import type { Updateable } from 'kysely';
import type { TeamAccess } from '../../platform/access.js';
import type { Actor, AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import type { MilestoneRow, ProjectMilestonesTable } from '../../platform/db/tables.js';
import { invalidField, notFound } from '../../platform/errors.js';
import { isUuid } from '../../platform/ids.js';
import { isOneLine, ONE_LINE_MESSAGE } from '../../platform/one-line.js';
import { recordEvent } from '../../platform/outbox.js';
import { eventData, readContextOf, viewAnswer, viewListAnswer } from '../../platform/read/rest.js';
import { assertCanReadProjects, assertCanWriteProjects } from '../projects/policy.js';
import { findProjectRow, projectIdBySlug } from '../projects/queries.js';
import { teamAccess } from '../teams/access.js';
import { MILESTONE_VIEW, type MilestoneRecord } from './present.js';
import * as q from './queries.js';
import { milestoneStates } from './status.js';

export interface MilestoneInput {
  /** The project's id (from the path over REST, from the input over GraphQL). */
  projectId: string;
  name: string;
  description?: string | null | undefined;
  targetDate?: string | null | undefined;
  sortOrder?: number | null | undefined;
}

export type MilestonePatch = Partial<MilestoneInput>;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const MAX_SORT = 1e15;

function checkName(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  if (typeof name !== 'string') throw invalidField('name', 'must be a string');
  if (!isOneLine(name)) throw invalidField('name', ONE_LINE_MESSAGE);
  const trimmed = name.trim();
  if (!trimmed) throw invalidField('name', 'must not be blank');
  if (trimmed.length > 255) throw invalidField('name', 'must be at most 255 characters');
  return trimmed;
}

function checkDescription(v: string | null | undefined): void {
  if (v === undefined || v === null) return;
  if (typeof v !== 'string' || v.length > 10_000) {
    throw invalidField('description', 'must be text of at most 10,000 characters');
  }
}

function checkDate(v: string | null | undefined): void {
  if (v === undefined || v === null) return;
  const d = new Date(`${v}T00:00:00Z`);
  if (!DATE.test(v) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== v) {
    throw invalidField('targetDate', 'must be a date in the form YYYY-MM-DD');
  }
}

function checkSortOrder(v: number | null | undefined): void {
  if (v === undefined || v === null) return;
  if (typeof v !== 'number' || !Number.isFinite(v) || Math.abs(v) > MAX_SORT) {
    throw invalidField('sortOrder', `must be a number from -${MAX_SORT} to ${MAX_SORT}`);
  }
}

function checkAll(input: MilestonePatch): void {
  checkDescription(input.description);
  checkDate(input.targetDate);
  checkSortOrder(input.sortOrder);
}

/**
 * A project by id, or by its slug id (alone or as the tail of its URL,
 * "q3-launch-1a2b3c4d5e6f"), as the third-party schema's projectId allows;
 * only if the caller sees it. `lock` holds it for this transaction.
 */
async function findProject(db: Db, ref: string, access: TeamAccess, lock = false) {
  const id = isUuid(ref) ? ref : await projectIdBySlug(db, ref.split('-').pop() ?? ref);
  return id ? findProjectRow(db, id, access, lock) : undefined;
}

async function toRecord(db: Db, row: MilestoneRow, access: TeamAccess): Promise<MilestoneRecord> {
  const states = await milestoneStates(db, [row.project_id], access, new Date());
  return { ...row, ...states.get(row.id)! };
}

/** A milestone event: its data is MILESTONE_VIEW as an admin's GET shows it, read in `trx`. */
async function eventOf(ctx: AppContext, trx: Db, actor: Actor, id: string) {
  return {
    type: 'projectMilestone' as const,
    data: await eventData(ctx, trx, MILESTONE_VIEW, id, actor),
    actor,
  };
}

/** A project's milestones in its order, as REST answers them: `{"milestones":[...]}`. */
export async function listMilestonesJson(ctx: AppContext, actor: Actor, projectId: string): Promise<string> {
  await assertCanReadProjects(ctx.db);
  const access = await teamAccess(ctx.db, actor);
  const project = await findProject(ctx.db, projectId, access);
  if (!project) throw notFound('Project');
  const ids = (await q.milestonesOfProjects(ctx.db, [project.id])).map((r) => r.id);
  return viewListAnswer(ctx.db, MILESTONE_VIEW, 'milestones', ids, readContextOf(ctx, actor, access));
}

/** One milestone as REST answers it, `{"milestone":...}` (its GET, and a write's answer read back as the GET would). */
export async function milestoneJson(ctx: AppContext, actor: Actor, id: string): Promise<string> {
  await assertCanReadProjects(ctx.db);
  const access = await teamAccess(ctx.db, actor);
  return viewAnswer(
    ctx.db,
    MILESTONE_VIEW,
    'milestone',
    id,
    readContextOf(ctx, actor, access),
    'Project milestone',
  );
}

/**
 * `projectIn`: where the project id came from. From the path, an unknown or
 * hidden project is a 404; from a body or input, a 400 naming `projectId`.
 */
export async function createMilestone(
  ctx: AppContext,
  actor: Actor,
  input: MilestoneInput,
  projectIn: 'path' | 'input' = 'input',
): Promise<MilestoneRecord> {
  await assertCanWriteProjects(ctx.db, actor);
  const access = await teamAccess(ctx.db, actor);
  const name = checkName(input.name);
  if (name === undefined) throw invalidField('name', 'is required');
  checkAll(input);
  return ctx.db.transaction().execute(async (trx) => {
    // Locking the project serialises appends, so two new milestones never share a place.
    const project = await findProject(trx, input.projectId, access, true);
    if (!project) {
      if (projectIn === 'path') throw notFound('Project');
      throw invalidField('projectId', 'no project with this id');
    }
    const row = await q.insertMilestone(trx, {
      project_id: project.id,
      name,
      description: input.description ?? null,
      target_date: input.targetDate ?? null,
      sort_order: input.sortOrder ?? (await q.nextSortOrder(trx, project.id)),
      creator_id: actor.id,
    });
    await recordEvent(ctx, trx, { ...(await eventOf(ctx, trx, actor, row.id)), action: 'create' });
    return toRecord(trx, row, access);
  });
}

export async function updateMilestone(
  ctx: AppContext,
  actor: Actor,
  id: string,
  patch: MilestonePatch,
): Promise<MilestoneRecord> {
  await assertCanWriteProjects(ctx.db, actor);
  const access = await teamAccess(ctx.db, actor);
  const name = checkName(patch.name);
  checkAll(patch);
  return ctx.db.transaction().execute(async (trx) => {
    const current = await q.findMilestoneRow(trx, id, access, 'update');
    if (!current) throw notFound('Project milestone');
    // Its issues are in its project; moving it would take them out of theirs.
    if (patch.projectId !== undefined && patch.projectId !== null) {
      const named = await findProject(trx, patch.projectId, access);
      if (named?.id !== current.project_id) {
        throw invalidField('projectId', 'a milestone stays in its project; create one in the other project');
      }
    }
    const set: Updateable<ProjectMilestonesTable> = {
      ...(name !== undefined ? { name } : {}),
      ...(patch.description !== undefined ? { description: patch.description } : {}),
      ...(patch.targetDate !== undefined ? { target_date: patch.targetDate } : {}),
      ...(patch.sortOrder !== undefined && patch.sortOrder !== null ? { sort_order: patch.sortOrder } : {}),
    };
    if (Object.keys(set).length === 0) return toRecord(trx, current, access);
    const old = await eventData(ctx, trx, MILESTONE_VIEW, current.id, actor);
    const row = (await q.updateMilestoneRow(trx, current.id, set))!;
    const ev = await eventOf(ctx, trx, actor, row.id);
    const updatedFrom: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(old)) {
      if (k !== 'progress' && JSON.stringify(v) !== JSON.stringify(ev.data[k])) updatedFrom[k] = v;
    }
    await recordEvent(ctx, trx, { ...ev, action: 'update', updatedFrom });
    return toRecord(trx, row, access);
  });
}

/** Deletes a milestone; its issues stay in the project, without a milestone. */
export async function deleteMilestone(ctx: AppContext, actor: Actor, id: string): Promise<MilestoneRecord> {
  await assertCanWriteProjects(ctx.db, actor);
  const access = await teamAccess(ctx.db, actor);
  return ctx.db.transaction().execute(async (trx) => {
    // Not locked here: deleteMilestoneRow locks the issues, then the milestone,
    // the order an issue being linked to it takes too, so the two cannot deadlock.
    const current = await q.findMilestoneRow(trx, id, access);
    if (!current) throw notFound('Project milestone');
    const record = await toRecord(trx, current, access);
    const ev = await eventOf(ctx, trx, actor, current.id);
    await q.deleteMilestoneRow(trx, current.id);
    await recordEvent(ctx, trx, { ...ev, action: 'remove' });
    return record;
  });
}

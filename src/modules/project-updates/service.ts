// Project update rules. Members and admins who see a project post updates
// on it (guests read them); the author or an admin edits, archives or
// deletes one. Posting an update sets the project's health to the update's,
// as does changing the health of its newest update, so the Projects list
// shows the health of the last word on each project.
//
//   listProjectUpdatesJson(ctx, actor, projectRef, page)   -> REST's page as JSON text
//   projectUpdateJson(ctx, actor, id)                      -> `{"projectUpdate":...}`
//   createProjectUpdate(ctx, actor, input)                 -> row  events projectUpdate.create (+ project.update)
//   updateProjectUpdate(ctx, actor, id, patch)             -> row  event projectUpdate.update (+ project.update)
//   archiveProjectUpdate(ctx, actor, id, archived)         -> row  event projectUpdate.update
//   deleteProjectUpdate(ctx, actor, id)                    -> row  event projectUpdate.remove
//
// The members and lead of the project hear of a new update in their inbox
// (notifications/handler.ts, from the projectUpdate.create event).
import type { TeamAccess } from '../../platform/access.js';
import type { Actor, AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import type { ProjectHealth } from '../../platform/db/tables.js';
import { forbidden, invalidField, notFound } from '../../platform/errors.js';
import { isUuid } from '../../platform/ids.js';
import { DEFAULT_PAGE } from '../../platform/list/window.js';
import { recordEvent } from '../../platform/outbox.js';
import {
  changedFrom,
  eventData,
  readContextOf,
  viewAnswer,
  viewListAnswer,
} from '../../platform/read/rest.js';
import { assertCanReadProjects, assertCanWriteProjects } from '../projects/policy.js';
import { PROJECT_VIEW } from '../projects/present.js';
import { findProjectRow, projectIdBySlug, setProjectHealth } from '../projects/queries.js';
import { teamAccess } from '../teams/access.js';
import { PROJECT_UPDATE_VIEW } from './present.js';
import * as q from './queries.js';

const HEALTHS: readonly ProjectHealth[] = ['onTrack', 'atRisk', 'offTrack'];
export const MAX_UPDATE_BODY = 100_000;

export interface ProjectUpdateInput {
  /** The project's id or slug id (from the path over REST, the input over GraphQL). */
  projectId: unknown;
  body?: unknown;
  health?: unknown;
  id?: unknown;
}

export interface ProjectUpdatePatch {
  body?: unknown;
  health?: unknown;
}

function checkBody(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body !== 'string' || body.length > MAX_UPDATE_BODY)
    throw invalidField('body', `must be Markdown of at most ${MAX_UPDATE_BODY} characters`);
  return body;
}

function checkHealth(health: unknown): ProjectHealth | undefined {
  if (health === undefined || health === null) return undefined;
  if (!HEALTHS.includes(health as ProjectHealth))
    throw invalidField('health', `must be one of ${HEALTHS.join(', ')}`);
  return health as ProjectHealth;
}

/** A project by id or slug id (alone or as the tail of its URL), only if the caller sees it. */
async function findProject(db: Db, ref: unknown, access: TeamAccess, lock = false) {
  if (typeof ref !== 'string' || ref === '') return undefined;
  const id = isUuid(ref) ? ref : await projectIdBySlug(db, ref.split('-').pop() ?? ref);
  return id ? findProjectRow(db, id, access, lock) : undefined;
}

function assertCanChange(actor: Actor, row: { user_id: string | null }): void {
  if (actor.role === 'admin' || (row.user_id !== null && row.user_id === actor.id)) return;
  throw forbidden('Only the author or an admin can change this project update');
}

/** Sets the project's health, with the project's own update event when it changed. */
async function followHealth(
  ctx: AppContext,
  trx: Db,
  actor: Actor,
  projectId: string,
  health: ProjectHealth,
) {
  const before = await eventData(ctx, trx, PROJECT_VIEW, projectId, actor);
  await setProjectHealth(trx, projectId, health);
  if (before['health'] === health) return;
  const data = await eventData(ctx, trx, PROJECT_VIEW, projectId, actor);
  await recordEvent(ctx, trx, {
    type: 'project',
    action: 'update',
    data,
    updatedFrom: changedFrom(before, data, ['health']),
    actor,
  });
}

/** A project's updates, newest first, as REST lists them. */
export async function listProjectUpdatesJson(
  ctx: AppContext,
  actor: Actor,
  projectRef: string,
  page: { limit?: number; offset?: number; includeArchived?: boolean } = {},
): Promise<string> {
  await assertCanReadProjects(ctx.db);
  const access = await teamAccess(ctx.db, actor);
  const project = await findProject(ctx.db, projectRef, access);
  if (!project) throw notFound('Project');
  const { rows, total } = await q.listProjectUpdates(ctx.db, project.id, page);
  const ids = rows.map((r) => r.id);
  return viewListAnswer(
    ctx.db,
    PROJECT_UPDATE_VIEW,
    'projectUpdates',
    ids,
    readContextOf(ctx, actor, access),
    {
      pageInfo: { total, limit: page.limit ?? DEFAULT_PAGE, offset: page.offset ?? 0 },
    },
  );
}

export async function projectUpdateJson(ctx: AppContext, actor: Actor, id: string): Promise<string> {
  await assertCanReadProjects(ctx.db);
  const access = await teamAccess(ctx.db, actor);
  const c = readContextOf(ctx, actor, access);
  return viewAnswer(ctx.db, PROJECT_UPDATE_VIEW, 'projectUpdate', id, c, 'Project update');
}

/**
 * `projectIn`: where the project came from; from the path an unknown or
 * hidden project is a 404, from an input a 400 naming projectId.
 */
export async function createProjectUpdate(
  ctx: AppContext,
  actor: Actor,
  input: ProjectUpdateInput,
  projectIn: 'path' | 'input' = 'input',
) {
  await assertCanWriteProjects(ctx.db, actor);
  const access = await teamAccess(ctx.db, actor);
  return ctx.db.transaction().execute(async (trx) => {
    const project = await findProject(trx, input.projectId, access, true);
    if (!project) {
      if (projectIn === 'path') throw notFound('Project');
      throw invalidField('projectId', 'no project with this id');
    }
    const body = checkBody(input.body) ?? '';
    // Without one, an update keeps the project's health (on track for a project that has none).
    const health = checkHealth(input.health) ?? project.health ?? 'onTrack';
    if (input.id != null && (typeof input.id !== 'string' || !isUuid(input.id)))
      throw invalidField('id', 'must be a uuid');
    const row = await q.insertProjectUpdate(trx, {
      ...(typeof input.id === 'string' ? { id: input.id } : {}),
      project_id: project.id,
      user_id: actor.id,
      body,
      health,
    });
    const data = await eventData(ctx, trx, PROJECT_UPDATE_VIEW, row.id, actor);
    await recordEvent(ctx, trx, { type: 'projectUpdate', action: 'create', data, actor });
    await followHealth(ctx, trx, actor, project.id, health);
    return row;
  });
}

/** Reads the update for a change by its author or an admin: 404 unseen, 403 someone else's. */
async function forChange(trx: Db, actor: Actor, id: string, access: TeamAccess) {
  const row = await q.findProjectUpdate(trx, id, access, true);
  if (!row) throw notFound('Project update');
  assertCanChange(actor, row);
  return row;
}

export async function updateProjectUpdate(
  ctx: AppContext,
  actor: Actor,
  id: string,
  patch: ProjectUpdatePatch,
) {
  await assertCanWriteProjects(ctx.db, actor);
  const access = await teamAccess(ctx.db, actor);
  return ctx.db.transaction().execute(async (trx) => {
    const current = await forChange(trx, actor, id, access);
    const body = checkBody(patch.body);
    const health = checkHealth(patch.health);
    const set = {
      ...(body !== undefined && body !== current.body ? { body } : {}),
      ...(health !== undefined && health !== current.health ? { health } : {}),
    };
    if (Object.keys(set).length === 0) return current;
    const before = await eventData(ctx, trx, PROJECT_UPDATE_VIEW, id, actor);
    const row = await q.updateProjectUpdate(trx, id, set, true);
    const data = await eventData(ctx, trx, PROJECT_UPDATE_VIEW, id, actor);
    await recordEvent(ctx, trx, {
      type: 'projectUpdate',
      action: 'update',
      data,
      updatedFrom: changedFrom(before, data, ['body', 'health', 'editedAt']),
      actor,
    });
    // The project's health is its newest update's.
    const newest = await q.newestLiveUpdate(trx, row.project_id);
    if (set.health && newest === row.id) await followHealth(ctx, trx, actor, row.project_id, set.health);
    return row;
  });
}

export async function archiveProjectUpdate(ctx: AppContext, actor: Actor, id: string, archived: boolean) {
  await assertCanWriteProjects(ctx.db, actor);
  const access = await teamAccess(ctx.db, actor);
  return ctx.db.transaction().execute(async (trx) => {
    const current = await forChange(trx, actor, id, access);
    if ((current.archived_at !== null) === archived) return current;
    const before = await eventData(ctx, trx, PROJECT_UPDATE_VIEW, id, actor);
    const row = await q.updateProjectUpdate(trx, id, { archived_at: archived ? new Date() : null }, false);
    const data = await eventData(ctx, trx, PROJECT_UPDATE_VIEW, id, actor);
    await recordEvent(ctx, trx, {
      type: 'projectUpdate',
      action: 'update',
      data,
      updatedFrom: changedFrom(before, data, ['archivedAt']),
      actor,
    });
    return row;
  });
}

/** Deletes an update; the project keeps the health it set. */
export async function deleteProjectUpdate(ctx: AppContext, actor: Actor, id: string) {
  await assertCanWriteProjects(ctx.db, actor);
  const access = await teamAccess(ctx.db, actor);
  return ctx.db.transaction().execute(async (trx) => {
    const current = await forChange(trx, actor, id, access);
    const data = await eventData(ctx, trx, PROJECT_UPDATE_VIEW, id, actor);
    await q.deleteProjectUpdate(trx, id);
    await recordEvent(ctx, trx, { type: 'projectUpdate', action: 'remove', data, actor });
    return current;
  });
}

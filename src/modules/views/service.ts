// Saved views: rules and transactions, shared by REST and GraphQL. The order
// is always who the caller is (policy.ts), then whether the view exists for
// them (404), then whether they may change it (403), and only then the input
// (400 naming the field), so a refused caller learns nothing from validation.
// No webhook events: a view is a person's lens on issues, not work.
//
//   listViewsJson(ctx, actor, query)    -> REST's page, newest first, as JSON text
//   viewJson(ctx, actor, id)            -> REST's `{"view":...}` (VIEW_VIEW, present.ts)
//   createView(ctx, actor, input)       -> CustomViewRow
//   updateView(ctx, actor, id, patch)   -> CustomViewRow
//   deleteView(ctx, actor, id)          -> CustomViewRow (as it was)
import { randomBytes } from 'node:crypto';
import type { Updateable } from 'kysely';
import { fullAccess, type TeamAccess } from '../../platform/access.js';
import type { Actor, AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import type { CustomViewRow, CustomViewsTable } from '../../platform/db/tables.js';
import { conflict, invalidField, notFound } from '../../platform/errors.js';
import { isUuid } from '../../platform/ids.js';
import { issueEntity } from '../../platform/list/entities.js';
import { compileFilter } from '../../platform/list/filter.js';
import { filterPrice, VIEW_FILTER_MAX_PRICE } from '../../platform/list/price.js';
import { isOneLine, ONE_LINE_MESSAGE } from '../../platform/one-line.js';
import { readContextOf, viewAnswer, viewListAnswer } from '../../platform/read/rest.js';
import { findVisibleTeam, teamAccess } from '../teams/access.js';
import { findLiveUserById } from '../users/queries.js';
import { checkDisplay } from './display.js';
import { assertCanChange, assertCanSetOwner, assertCanShare } from './policy.js';
import { VIEW_VIEW } from './present.js';
import * as q from './queries.js';

export interface ViewInput {
  /** A client-chosen id (the third-party input allows one). */
  id?: string | undefined;
  name?: string | undefined;
  description?: string | null | undefined;
  icon?: string | null | undefined;
  color?: string | null | undefined;
  filterData?: Record<string, unknown> | null | undefined;
  display?: Record<string, unknown> | null | undefined;
  shared?: boolean | null | undefined;
  teamId?: string | null | undefined;
  ownerId?: string | null | undefined;
}

const COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

function checkName(name: unknown): string {
  if (typeof name !== 'string') throw invalidField('name', 'must be a string');
  if (!isOneLine(name)) throw invalidField('name', ONE_LINE_MESSAGE);
  const trimmed = name.trim();
  if (!trimmed) throw invalidField('name', 'must not be blank');
  if (trimmed.length > 255) throw invalidField('name', 'must be at most 255 characters');
  return trimmed;
}

function checkText(field: string, v: unknown, max: number): void {
  if (v === undefined || v === null) return;
  if (typeof v !== 'string' || v.length > max) {
    throw invalidField(field, `must be text of at most ${max.toLocaleString('en')} characters`);
  }
}

/**
 * The same compiler as `issues(filter:)` and GET /api/issues?filter=, so a
 * view holds only filters a list accepts; errors name `filterData.<path>`.
 */
function checkFilter(filter: unknown, actor: Actor, access: TeamAccess): Record<string, unknown> {
  if (filter === null || filter === undefined) return {};
  if (typeof filter !== 'object' || Array.isArray(filter))
    throw invalidField('filterData', 'must be an object');
  compileFilter(
    issueEntity,
    't',
    filter as Record<string, unknown>,
    { now: new Date(), actorId: actor.id, access },
    'filterData',
  );
  // A view's filter runs whenever the view is read, where no request prices it:
  // it is priced here, once, and held to a bound (docs/graphql.md, "What a filter costs").
  const price = filterPrice(issueEntity, filter);
  if (price > VIEW_FILTER_MAX_PRICE) {
    throw invalidField(
      'filterData',
      `costs ${price} points to run; a saved view's filter may cost at most ${VIEW_FILTER_MAX_PRICE.toLocaleString('en')}`,
    );
  }
  return filter as Record<string, unknown>;
}

/** Checks every given field and returns the columns to write. */
async function columns(
  db: Db,
  actor: Actor,
  access: TeamAccess,
  input: ViewInput,
): Promise<Updateable<CustomViewsTable>> {
  const set: Updateable<CustomViewsTable> = {};
  if (input.name !== undefined) set.name = checkName(input.name);
  checkText('description', input.description, 10_000);
  checkText('icon', input.icon, 100);
  if (input.description !== undefined) set.description = input.description;
  if (input.icon !== undefined) set.icon = input.icon;
  if (input.color !== undefined) {
    if (input.color !== null && (typeof input.color !== 'string' || !COLOR.test(input.color))) {
      throw invalidField('color', 'must be a colour such as #5e6ad2');
    }
    set.color = input.color?.toLowerCase() ?? null;
  }
  if (input.filterData !== undefined) {
    set.filter_data = JSON.stringify(checkFilter(input.filterData, actor, access));
  }
  if (input.display !== undefined) set.display = JSON.stringify(checkDisplay(input.display ?? {}));
  if (input.shared !== undefined && input.shared !== null) set.shared = input.shared;
  if (input.teamId !== undefined) {
    if (input.teamId === null) set.team_id = null;
    else {
      const team = await findVisibleTeam(db, input.teamId, access);
      if (!team) throw invalidField('teamId', 'no team with this id or key');
      set.team_id = team.id;
    }
  }
  if (input.ownerId === actor.id) set.owner_id = actor.id;
  else if (input.ownerId !== undefined && input.ownerId !== null) {
    const owner = isUuid(input.ownerId) ? await findLiveUserById(db, input.ownerId) : undefined;
    if (owner?.status !== 'active') throw invalidField('ownerId', 'no active user with this id');
    // Only shared views change hands (checkHandOver), and guests cannot share.
    if (owner.role === 'guest') throw invalidField('ownerId', 'a guest cannot own a shared view');
    set.owner_id = owner.id;
  }
  return set;
}

async function newSlug(db: Db): Promise<string> {
  for (;;) {
    const slug = randomBytes(6).toString('hex');
    if (!(await q.slugTaken(db, slug))) return slug;
  }
}

/**
 * A personal view is seen by its owner alone, so handing one over would put
 * it out of its giver's reach: only a view that is (or stays) shared changes hands.
 */
function checkHandOver(current: Pick<CustomViewRow, 'owner_id' | 'shared'>, input: ViewInput): void {
  const shared = input.shared ?? current.shared;
  if (!shared && input.ownerId && input.ownerId !== current.owner_id) {
    throw invalidField('ownerId', 'only a shared view can be handed to someone else');
  }
}

/** The views the caller sees as REST lists them: the page's ids, then their JSON in one statement. */
export async function listViewsJson(
  ctx: AppContext,
  actor: Actor,
  query: {
    teamId?: string | undefined;
    shared?: boolean | undefined;
    includeArchived?: boolean | undefined;
    limit: number;
    offset: number;
  },
) {
  const access = await teamAccess(ctx.db, actor);
  const filter: Record<string, unknown> = {};
  if (query.teamId !== undefined) {
    if (!isUuid(query.teamId)) throw invalidField('teamId', 'must be a team id');
    filter.team = { id: { eq: query.teamId } };
  }
  if (query.shared !== undefined) filter.shared = { eq: query.shared };
  const { rows, total } = await q.listViewRows(ctx.db, {
    access,
    actorId: actor.id,
    now: new Date(),
    filter,
    includeArchived: query.includeArchived ?? false,
    limit: query.limit,
    offset: query.offset,
  });
  const ids = rows.map((r) => r.id);
  return viewListAnswer(ctx.db, VIEW_VIEW, 'views', ids, readContextOf(ctx, actor, access), {
    pageInfo: { total, limit: query.limit, offset: query.offset },
  });
}

/** One view as REST answers it, `{"view":...}` (its GET, and a write's answer read back as the GET would). */
export async function viewJson(ctx: AppContext, actor: Actor, id: string): Promise<string> {
  const access = await teamAccess(ctx.db, actor);
  return viewAnswer(ctx.db, VIEW_VIEW, 'view', id, readContextOf(ctx, actor, access), 'Custom view');
}

/**
 * A write's answer, `{"view":...}`, read as its owner sees it: an admin who
 * unshares someone's view no longer sees it, yet is told what they saved.
 * Nothing in VIEW_VIEW depends on who reads it, so that is what a GET showed.
 */
export async function savedViewJson(ctx: AppContext, view: Pick<CustomViewRow, 'id' | 'owner_id'>) {
  const owner = { id: view.owner_id };
  const c = readContextOf(ctx, owner, fullAccess(owner.id));
  return viewAnswer(ctx.db, VIEW_VIEW, 'view', view.id, c, 'Custom view');
}

export async function createView(ctx: AppContext, actor: Actor, input: ViewInput): Promise<CustomViewRow> {
  if (input.shared) assertCanShare(actor);
  if (input.ownerId) assertCanSetOwner(actor, input.ownerId);
  const access = await teamAccess(ctx.db, actor);
  if (input.name === undefined || input.name === null) throw invalidField('name', 'is required');
  if (input.id !== undefined && input.id !== null && !isUuid(input.id)) {
    throw invalidField('id', 'must be a UUID');
  }
  checkHandOver({ owner_id: actor.id, shared: false }, input);
  return ctx.db.transaction().execute(async (trx) => {
    const set = await columns(trx, actor, access, input);
    if (input.id && (await q.viewIdTaken(trx, input.id))) {
      throw conflict('A view with this id exists', 'id');
    }
    return q.insertView(trx, {
      ...(input.id ? { id: input.id } : {}),
      slug_id: await newSlug(trx),
      name: set.name as string,
      description: (set.description as string | null | undefined) ?? null,
      icon: (set.icon as string | null | undefined) ?? null,
      color: (set.color as string | null | undefined) ?? null,
      filter_data: (set.filter_data as string | undefined) ?? '{}',
      display: (set.display as string | undefined) ?? '{}',
      shared: (set.shared as boolean | undefined) ?? false,
      team_id: (set.team_id as string | null | undefined) ?? null,
      owner_id: (set.owner_id as string | undefined) ?? actor.id,
      creator_id: actor.id,
    });
  });
}

export async function updateView(
  ctx: AppContext,
  actor: Actor,
  id: string,
  patch: ViewInput,
): Promise<CustomViewRow> {
  const access = await teamAccess(ctx.db, actor);
  return ctx.db.transaction().execute(async (trx) => {
    const current = await q.findViewRow(trx, id, access, true);
    if (!current) throw notFound('Custom view');
    assertCanChange(actor, current);
    if (patch.shared === true && !current.shared) assertCanShare(actor);
    if (patch.ownerId && patch.ownerId !== current.owner_id) assertCanSetOwner(actor, patch.ownerId);
    checkHandOver(current, patch);
    const set = await columns(trx, actor, access, { ...patch, id: undefined });
    if (Object.keys(set).length === 0) return current;
    return (await q.updateViewRow(trx, current.id, set))!;
  });
}

export async function deleteView(ctx: AppContext, actor: Actor, id: string): Promise<CustomViewRow> {
  const access = await teamAccess(ctx.db, actor);
  return ctx.db.transaction().execute(async (trx) => {
    const current = await q.findViewRow(trx, id, access, true);
    if (!current) throw notFound('Custom view');
    assertCanChange(actor, current);
    await q.deleteViewRow(trx, current.id);
    return current;
  });
}

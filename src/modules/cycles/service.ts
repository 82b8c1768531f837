// Cycle rules: numbering within the team, date order, events in the same
// transaction as each change.
import type { Updateable } from 'kysely';
import { canSeeTeam, type TeamAccess } from '../../platform/access.js';
import type { Actor, AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import type { CycleRow, CyclesTable } from '../../platform/db/tables.js';
import { invalidField, notFound } from '../../platform/errors.js';
import { isUuid } from '../../platform/ids.js';
import { isOneLine, ONE_LINE_MESSAGE } from '../../platform/one-line.js';
import { recordEvent } from '../../platform/outbox.js';
import {
  changedFrom,
  eventData,
  listEnvelope,
  readContextOf,
  viewAnswer,
  viewListAnswer,
} from '../../platform/read/rest.js';
import { findTeamByRef, firstTeam } from '../projects/queries.js';
import { teamAccess } from '../teams/access.js';
import { assertCanReadCycles, assertCanWriteCycles } from './policy.js';
import { CYCLE_VIEW, type CycleRecord } from './present.js';
import * as q from './queries.js';

type Instant = string | Date;

export interface CycleInput {
  /** Team id or key; defaults to the first team. */
  teamId?: string | undefined;
  startsAt: Instant;
  endsAt: Instant;
  name?: string | null | undefined;
  description?: string | null | undefined;
}

export interface CyclePatch {
  name?: string | null | undefined;
  description?: string | null | undefined;
  startsAt?: Instant | undefined;
  endsAt?: Instant | undefined;
  completedAt?: Instant | null | undefined;
}

export interface ListCyclesInput {
  teamId?: string | undefined;
  includeArchived?: boolean | undefined;
  limit: number;
  offset: number;
}

function instant(field: string, v: Instant): Date {
  const d = v instanceof Date ? v : new Date(v);
  if (Number.isNaN(d.getTime()) || (typeof v === 'string' && !/^\d{4}-\d{2}-\d{2}T/.test(v))) {
    throw invalidField(field, 'must be an ISO 8601 timestamp');
  }
  return d;
}

function checkOrder(starts: Date, ends: Date): void {
  if (ends <= starts) throw invalidField('endsAt', 'must be after startsAt');
}

const text = (v: string | null | undefined) =>
  v === undefined ? undefined : v === null ? null : v.trim() || null;

/** A cycle's name, blank for none; one line like every name. */
function checkName(v: string | null | undefined): string | null | undefined {
  if (typeof v === 'string' && !isOneLine(v)) throw invalidField('name', ONE_LINE_MESSAGE);
  return text(v);
}

// A cycle's issues are its team's, so whoever sees the cycle sees them all:
// one record serves the caller and the webhook payload alike.
async function loadOne(db: Db, row: CycleRow, access: TeamAccess): Promise<CycleRecord> {
  const [r] = await q.loadCycleRecords(db, [row], access);
  return r!;
}

/** A cycle event: its data is CYCLE_VIEW as an admin's GET shows it, read in `trx`. */
async function eventOf(ctx: AppContext, trx: Db, actor: Actor | null, id: string) {
  return { type: 'cycle' as const, data: await eventData(ctx, trx, CYCLE_VIEW, id, actor), actor };
}

/** The list of cycles as REST answers it: the page's cycles as CYCLE_VIEW and its pageInfo. */
export async function listCyclesJson(ctx: AppContext, actor: Actor, input: ListCyclesInput): Promise<string> {
  await assertCanReadCycles(ctx.db);
  const access = await teamAccess(ctx.db, actor);
  const page = { limit: input.limit, offset: input.offset };
  let teamId: string | undefined;
  if (input.teamId) {
    const team = await findTeamByRef(ctx.db, input.teamId);
    if (!team || !canSeeTeam(access, team.id))
      return listEnvelope('cycles', [], { pageInfo: { total: 0, ...page } });
    teamId = team.id;
  }
  // The list parameters as a filter tree, through the one list engine.
  const { rows, total } = await q.listCycleRows(ctx.db, {
    access,
    filter: teamId ? { team: { id: { eq: teamId } } } : undefined,
    now: new Date(),
    actorId: actor.id,
    includeArchived: input.includeArchived,
    limit: input.limit,
    offset: input.offset,
  });
  const ids = rows.map((r) => r.id);
  return viewListAnswer(ctx.db, CYCLE_VIEW, 'cycles', ids, readContextOf(ctx, actor, access), {
    pageInfo: { total, ...page },
  });
}

/** One cycle as REST answers it, `{"cycle":...}` (its GET, and a write's answer read back as the GET would). */
export async function cycleJson(ctx: AppContext, actor: Actor, id: string): Promise<string> {
  await assertCanReadCycles(ctx.db);
  const access = await teamAccess(ctx.db, actor);
  return viewAnswer(ctx.db, CYCLE_VIEW, 'cycle', id, readContextOf(ctx, actor, access), 'Cycle');
}

export async function getCycle(ctx: AppContext, actor: Actor, id: string): Promise<CycleRecord> {
  await assertCanReadCycles(ctx.db);
  const access = await teamAccess(ctx.db, actor);
  const row = isUuid(id) ? await q.findCycleRow(ctx.db, id, access) : undefined;
  if (!row) throw notFound('Cycle');
  return loadOne(ctx.db, row, access);
}

export async function createCycle(ctx: AppContext, actor: Actor, input: CycleInput): Promise<CycleRecord> {
  await assertCanWriteCycles(ctx.db, actor);
  const startsAt = instant('startsAt', input.startsAt);
  const endsAt = instant('endsAt', input.endsAt);
  checkOrder(startsAt, endsAt);
  const access = await teamAccess(ctx.db, actor);
  return ctx.db.transaction().execute(async (trx) => {
    const team = input.teamId ? await findTeamByRef(trx, input.teamId) : await firstTeam(trx);
    if (!team || !canSeeTeam(access, team.id)) throw invalidField('teamId', 'no such team');
    const number = await q.nextCycleNumber(trx, team.id);
    const row = await q.insertCycle(trx, {
      team_id: team.id,
      number,
      name: checkName(input.name) ?? null,
      description: text(input.description) ?? null,
      starts_at: startsAt,
      ends_at: endsAt,
    });
    await recordEvent(ctx, trx, { ...(await eventOf(ctx, trx, actor, row.id)), action: 'create' });
    return loadOne(trx, row, access);
  });
}

export async function updateCycle(
  ctx: AppContext,
  actor: Actor,
  id: string,
  patch: CyclePatch,
): Promise<CycleRecord> {
  await assertCanWriteCycles(ctx.db, actor);
  const startsAt = patch.startsAt === undefined ? undefined : instant('startsAt', patch.startsAt);
  const endsAt = patch.endsAt === undefined ? undefined : instant('endsAt', patch.endsAt);
  const completedAt =
    patch.completedAt === undefined || patch.completedAt === null
      ? patch.completedAt
      : instant('completedAt', patch.completedAt);
  const access = await teamAccess(ctx.db, actor);
  return ctx.db.transaction().execute(async (trx) => {
    const current = isUuid(id) ? await q.findCycleRow(trx, id, access, true) : undefined;
    if (!current) throw notFound('Cycle');
    checkOrder(startsAt ?? current.starts_at, endsAt ?? current.ends_at);
    const before = await eventData(ctx, trx, CYCLE_VIEW, id, actor);
    const set: Updateable<CyclesTable> = {
      ...(patch.name !== undefined ? { name: checkName(patch.name) ?? null } : {}),
      ...(patch.description !== undefined ? { description: text(patch.description) ?? null } : {}),
      ...(startsAt ? { starts_at: startsAt } : {}),
      ...(endsAt ? { ends_at: endsAt } : {}),
      ...(completedAt !== undefined ? { completed_at: completedAt } : {}),
    };
    const row = await q.updateCycleRow(trx, id, set);
    const ev = await eventOf(ctx, trx, actor, id);
    const updatedFrom: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(before)) {
      if (k === 'updatedAt' || k === 'progress') continue;
      if (JSON.stringify(v) !== JSON.stringify((ev.data as Record<string, unknown>)[k])) updatedFrom[k] = v;
    }
    await recordEvent(ctx, trx, { ...ev, action: 'update', updatedFrom });
    return loadOne(trx, row, access);
  });
}

/** Deletes a cycle; its issues stay and lose the cycle (FK set null). Numbers are not reused. */
export async function deleteCycle(ctx: AppContext, actor: Actor, id: string): Promise<CycleRecord> {
  await assertCanWriteCycles(ctx.db, actor);
  const access = await teamAccess(ctx.db, actor);
  return ctx.db.transaction().execute(async (trx) => {
    const current = isUuid(id) ? await q.findCycleRow(trx, id, access, true) : undefined;
    if (!current) throw notFound('Cycle');
    const record = await loadOne(trx, current, access);
    const ev = await eventOf(ctx, trx, actor, id);
    await q.deleteCycleRow(trx, id);
    await recordEvent(ctx, trx, { ...ev, action: 'remove' });
    return record;
  });
}

/**
 * The cycle worker's writes (automation.ts), inside its transaction and as the
 * system: the event names no actor. A planned cycle takes the team's next number.
 */
export async function createPlannedCycle(
  ctx: AppContext,
  trx: Db,
  teamId: string,
  span: { start: Date; end: Date },
): Promise<CycleRow> {
  const number = await q.nextCycleNumber(trx, teamId);
  const row = await q.insertCycle(trx, {
    team_id: teamId,
    number,
    name: null,
    description: null,
    starts_at: span.start,
    ends_at: span.end,
  });
  await recordEvent(ctx, trx, { ...(await eventOf(ctx, trx, null, row.id)), action: 'create' });
  return row;
}

/** Marks an ended cycle completed at its end, as the system. */
export async function completeEndedCycle(ctx: AppContext, trx: Db, id: string, endsAt: Date): Promise<void> {
  const before = await eventData(ctx, trx, CYCLE_VIEW, id, null);
  await q.updateCycleRow(trx, id, { completed_at: endsAt });
  const ev = await eventOf(ctx, trx, null, id);
  const updatedFrom = changedFrom(before, ev.data, [
    'completedAt',
    'status',
    'isActive',
    'isPast',
    'isFuture',
  ]);
  if (updatedFrom) await recordEvent(ctx, trx, { ...ev, action: 'update', updatedFrom });
}

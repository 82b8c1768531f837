import type { TeamAccess } from '../../platform/access.js';
import type { Actor, AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import type { LabelRow } from '../../platform/db/tables.js';
import { conflict, invalidField, notFound } from '../../platform/errors.js';
import { isOneLine, ONE_LINE_MESSAGE } from '../../platform/one-line.js';
import { recordEvent } from '../../platform/outbox.js';
import {
  changedFrom,
  eventData,
  readContextOf,
  viewAnswer,
  viewListAnswer,
} from '../../platform/read/rest.js';
import { findVisibleTeam, teamAccess } from '../teams/access.js';
import { assertCanManageLabels } from './policy.js';
import { LABEL_VIEW } from './present.js';
import * as q from './queries.js';

export interface LabelCreateInput {
  name: string;
  /** #rrggbb; absent or null: one from LABEL_PALETTE, picked by the name. */
  color?: string | null;
  description?: string | null;
  /** Team id or key; null or absent for a workspace-wide label. */
  teamId?: string | null;
  parentId?: string | null;
  isGroup?: boolean;
}

export type LabelUpdateInput = Partial<LabelCreateInput>;

const HEX = /^#[0-9a-fA-F]{6}$/;
const nameTaken = (name: string) => conflict(`A label named "${name}" already exists here`, 'name');

function checkName(name: string): string {
  if (!isOneLine(name)) throw invalidField('name', ONE_LINE_MESSAGE);
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 100) throw invalidField('name', 'must be 1-100 characters, not blank');
  return trimmed;
}

function checkColor(color: string): string {
  if (!HEX.test(color)) throw invalidField('color', 'must be a colour in the form #rrggbb');
  return color.toLowerCase();
}

/**
 * Colours for labels created without one (the third-party schema makes the
 * colour optional, and its importer sends none). Picked by the name, so the
 * same name always gets the same colour and neighbours usually differ.
 */
export const LABEL_PALETTE = [
  '#eb5757',
  '#f2994a',
  '#f2c94c',
  '#4cb782',
  '#26b5ce',
  '#5e6ad2',
  '#9b51e0',
  '#e0508c',
  '#8d6e63',
  '#95a2b3',
] as const;

function defaultColor(name: string): string {
  let h = 0;
  for (const ch of name.toLowerCase()) h = (h * 31 + ch.codePointAt(0)!) >>> 0;
  return LABEL_PALETTE[h % LABEL_PALETTE.length]!;
}

async function resolveTeam(
  db: Db,
  teamId: string | null | undefined,
  access: TeamAccess,
): Promise<string | null> {
  if (teamId === null || teamId === undefined) return null;
  const team = await findVisibleTeam(db, teamId, access);
  if (!team) throw invalidField('teamId', 'no team with this id');
  return team.id;
}

async function resolveParent(
  db: Db,
  parentId: string | null | undefined,
  teamId: string | null,
  access: TeamAccess,
  selfId?: string,
): Promise<string | null> {
  if (parentId === null || parentId === undefined) return null;
  const parent = await q.findLabelById(db, parentId, access);
  if (!parent) throw invalidField('parentId', 'no label with this id');
  if (parent.id === selfId) throw invalidField('parentId', 'a label cannot be its own group');
  if (parent.parent_id !== null) throw invalidField('parentId', 'label groups cannot be nested');
  if (parent.team_id !== null && parent.team_id !== teamId) {
    throw invalidField('parentId', 'the group belongs to another team');
  }
  return parent.id;
}

async function labelRows(ctx: AppContext, actor: Actor, access: TeamAccess, opts: { teamId?: string }) {
  let teamId: string | undefined;
  if (opts.teamId !== undefined) {
    const team = await findVisibleTeam(ctx.db, opts.teamId, access);
    if (!team) throw notFound('Team');
    teamId = team.id;
  }
  // With a team: that team's labels and the workspace's (no team).
  const { rows } = await q.listLabelRows(ctx.db, {
    access,
    filter: teamId ? { or: [{ team: { id: { eq: teamId } } }, { team: { null: true } }] } : undefined,
    now: new Date(),
    actorId: actor.id,
  });
  return rows;
}

/** listLabels as REST answers it: `{"labels":[...]}`, each LABEL_VIEW. */
export async function listLabelsJson(ctx: AppContext, actor: Actor, opts: { teamId?: string } = {}) {
  const access = await teamAccess(ctx.db, actor);
  const rows = await labelRows(ctx, actor, access, opts);
  const ids = rows.map((r) => r.id);
  return viewListAnswer(ctx.db, LABEL_VIEW, 'labels', ids, readContextOf(ctx, actor, access));
}

/** One label as REST answers it, `{"label":...}` (its GET, and a write's answer read back as the GET would). */
export async function labelJson(ctx: AppContext, actor: Actor, id: string): Promise<string> {
  const access = await teamAccess(ctx.db, actor);
  return viewAnswer(ctx.db, LABEL_VIEW, 'label', id, readContextOf(ctx, actor, access), 'Label');
}

export async function createLabel(ctx: AppContext, actor: Actor, input: LabelCreateInput): Promise<LabelRow> {
  assertCanManageLabels(actor);
  const name = checkName(input.name);
  const color = input.color == null ? defaultColor(name) : checkColor(input.color);
  const access = await teamAccess(ctx.db, actor);
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const teamId = await resolveTeam(trx, input.teamId, access);
      const parentId = await resolveParent(trx, input.parentId, teamId, access);
      if (await q.findLabelByName(trx, teamId, name)) throw nameTaken(name);
      const label = await q.insertLabel(trx, {
        name,
        color,
        description: input.description ?? null,
        team_id: teamId,
        parent_id: parentId,
        is_group: input.isGroup ?? false,
        creator_id: actor.id,
      });
      if (parentId) await q.markGroup(trx, parentId);
      const data = await eventData(ctx, trx, LABEL_VIEW, label.id, actor);
      await recordEvent(ctx, trx, { type: 'label', action: 'create', data, actor });
      return label;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(name);
    throw err;
  }
}

export async function updateLabel(
  ctx: AppContext,
  actor: Actor,
  id: string,
  patch: LabelUpdateInput,
): Promise<LabelRow> {
  assertCanManageLabels(actor);
  const name = patch.name === undefined ? undefined : checkName(patch.name);
  // A null colour in an update leaves the colour as it is (GraphQL sends null for "not given").
  const color = patch.color == null ? undefined : checkColor(patch.color);
  const access = await teamAccess(ctx.db, actor);
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const before = await q.findLabelById(trx, id, access);
      if (!before) throw notFound('Label');
      const old = await eventData(ctx, trx, LABEL_VIEW, id, actor);
      const teamId =
        patch.teamId === undefined ? before.team_id : await resolveTeam(trx, patch.teamId, access);
      const parentId =
        patch.parentId === undefined
          ? before.parent_id
          : await resolveParent(trx, patch.parentId, teamId, access, before.id);
      const finalName = name ?? before.name;
      if (await q.findLabelByName(trx, teamId, finalName, before.id)) throw nameTaken(finalName);
      const after = await q.updateLabel(trx, id, {
        name: finalName,
        color: color ?? before.color,
        description: patch.description === undefined ? before.description : patch.description,
        team_id: teamId,
        parent_id: parentId,
        is_group: patch.isGroup ?? before.is_group,
      });
      if (parentId && parentId !== before.parent_id) await q.markGroup(trx, parentId);
      const data = await eventData(ctx, trx, LABEL_VIEW, id, actor);
      const updatedFrom = changedFrom(old, data);
      if (updatedFrom)
        await recordEvent(ctx, trx, { type: 'label', action: 'update', data, updatedFrom, actor });
      return after;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(name ?? '');
    throw err;
  }
}

export async function deleteLabel(ctx: AppContext, actor: Actor, id: string): Promise<LabelRow> {
  assertCanManageLabels(actor);
  const access = await teamAccess(ctx.db, actor);
  return ctx.db.transaction().execute(async (trx) => {
    const label = await q.findLabelById(trx, id, access);
    if (!label) throw notFound('Label');
    const data = await eventData(ctx, trx, LABEL_VIEW, id, actor);
    await q.deleteLabel(trx, id);
    await recordEvent(ctx, trx, { type: 'label', action: 'remove', data, actor });
    return label;
  });
}

// A team's cycle settings: whether the cycle worker plans its cycles
// (automation.ts), how long they are, how far apart, on which weekday they
// start, how many are planned ahead, and whether an ended cycle's unfinished
// issues roll over. Workspace admins and the team's owners change them; the
// names are the third-party schema's Team fields (durations in weeks), with
// cyclesAutomatic and cycleRollover our own.
import { type Static, Type } from 'typebox';
import type { Actor, AppContext } from '../../platform/context.js';
import type { TeamRow } from '../../platform/db/tables.js';
import { forbidden, notFound } from '../../platform/errors.js';
import { assertRole } from '../../platform/roles.js';
import { auditActorOf, changes, recordAudit } from '../audit/record.js';
import { checkInput } from '../issues/inputs.js';
import { findVisibleTeam, teamAccess } from '../teams/access.js';
import * as teams from '../teams/queries.js';
import { kickCycleWorker } from './automation.js';

export const CycleSettingsBody = Type.Object(
  {
    cyclesAutomatic: Type.Optional(
      Type.Boolean({ description: 'Plan cycles automatically from the settings below' }),
    ),
    cycleDuration: Type.Optional(Type.Integer({ minimum: 1, maximum: 8, description: 'Weeks per cycle' })),
    cycleCooldownTime: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 4, description: 'Weeks between cycles' }),
    ),
    cycleStartDay: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 6, description: 'Weekday cycles start: 0 Sunday .. 6 Saturday' }),
    ),
    upcomingCycleCount: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 10, description: 'Cycles planned ahead of the current one' }),
    ),
    cycleRollover: Type.Optional(
      Type.Boolean({ description: "Move an ended cycle's unfinished issues to the next cycle" }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type CycleSettingsInput = Static<typeof CycleSettingsBody>;

/** The settings' input names, which GraphQL's teamUpdate routes here. */
export const CYCLE_SETTING_FIELDS = Object.keys(CycleSettingsBody.properties) as (keyof CycleSettingsInput)[];

const COLUMN: Record<keyof CycleSettingsInput, keyof teams.TeamCycleColumns> = {
  cyclesAutomatic: 'cycles_automatic',
  cycleDuration: 'cycle_duration',
  cycleCooldownTime: 'cycle_cooldown',
  cycleStartDay: 'cycle_start_day',
  upcomingCycleCount: 'upcoming_cycle_count',
  cycleRollover: 'cycle_rollover',
};

/** Workspace admins, and the owners of the team (its admins). */
async function assertCanManage(ctx: AppContext, actor: Actor, team: TeamRow): Promise<void> {
  if (actor.role === 'admin') return;
  const membership = await teams.findMembership(ctx.db, team.id, actor.id);
  if (!membership?.owner) throw forbidden("Only the team's owners and admins change its cycle settings");
}

export async function updateCycleSettings(
  ctx: AppContext,
  actor: Actor,
  teamRef: string,
  patch: CycleSettingsInput,
): Promise<TeamRow> {
  assertRole(actor, 'member', 'Guests cannot change cycle settings');
  const found = await findVisibleTeam(ctx.db, teamRef, await teamAccess(ctx.db, actor));
  if (!found) throw notFound('Team');
  await assertCanManage(ctx, actor, found);
  checkInput(CycleSettingsBody, patch);
  const updated = await ctx.db.transaction().execute(async (trx) => {
    const team = (await teams.lockTeam(trx, found.id))!;
    const set: Partial<teams.TeamCycleColumns> = {};
    for (const field of CYCLE_SETTING_FIELDS) {
      const v = patch[field];
      if (v !== undefined) (set as Record<string, unknown>)[COLUMN[field]] = v;
    }
    const diff = changes<Record<string, unknown>>(team, set);
    if (!diff) return team;
    const row = await teams.updateTeamRow(trx, team.id, set);
    await recordAudit(trx, {
      type: 'team.updated',
      actor: auditActorOf(actor),
      entity: { type: 'team', id: team.id, label: team.key },
      ...diff,
    });
    return row;
  });
  kickCycleWorker(ctx);
  return updated;
}

// Checks shared by the issue writes: referenced ids against the issue's team
// (every problem collected, so one 400 names them all), the state a write may
// use, and the timestamps that follow a state's type.
import { canSeeTeam, type TeamAccess } from '../../platform/access.js';
import type { Db } from '../../platform/db/database.js';
import type { StateRow, StateType, TeamRow } from '../../platform/db/tables.js';
import { type FieldError, notFound, validationFailed } from '../../platform/errors.js';
import { findLabelsByIds } from '../labels/queries.js';
import { lockStateShared } from '../states/queries.js';
import { findVisibleTeam } from '../teams/access.js';
import { firstTeam } from '../teams/queries.js';
import * as q from './queries.js';

/** Collects problems with referenced ids so one response names all of them. */
export class Problems {
  list: FieldError[] = [];
  add(field: string, message: string) {
    this.list.push({ field: `/${field}`, message });
  }
  throwIfAny() {
    if (this.list.length === 0) return;
    const first = this.list[0]!;
    throw validationFailed(`${first.field.slice(1)}: ${first.message}`, this.list);
  }
}

/** started_at, completed_at and canceled_at follow the state's type. */
export function stateTimes(
  prevType: StateType | null,
  nextType: StateType,
  cur: { started_at: Date | null; completed_at: Date | null; canceled_at: Date | null },
) {
  if (prevType === nextType) return {};
  const now = new Date();
  const out: { started_at?: Date; completed_at?: Date | null; canceled_at?: Date | null } = {};
  if (nextType === 'started' && !cur.started_at) out.started_at = now;
  if (nextType === 'completed') out.completed_at = now;
  else if (cur.completed_at) out.completed_at = null;
  if (nextType === 'canceled') out.canceled_at = now;
  else if (cur.canceled_at) out.canceled_at = null;
  return out;
}

/** Checks label ids against the team; returns them de-duplicated. */
export async function checkLabels(
  db: Db,
  p: Problems,
  labelIds: string[],
  teamId: string,
): Promise<string[]> {
  const unique = [...new Set(labelIds)];
  const found = new Map((await findLabelsByIds(db, unique)).map((l) => [l.id, l]));
  labelIds.forEach((id, i) => {
    const label = found.get(id);
    if (!label) p.add(`labelIds/${i}`, 'no label with this id');
    else if (label.team_id !== null && label.team_id !== teamId) {
      p.add(`labelIds/${i}`, "the label belongs to another team than the issue's");
    }
  });
  return unique;
}

export async function checkState(db: Db, p: Problems, stateId: string, teamId: string) {
  // Shared lock: an archive of this state either waits for us (and then moves
  // this issue too) or finishes first, and we see it archived.
  const state = await lockStateShared(db, stateId);
  if (!state) p.add('stateId', 'no workflow state with this id');
  else if (state.team_id !== teamId) p.add('stateId', "the state belongs to another team than the issue's");
  else if (state.archived_at) p.add('stateId', 'the workflow state is archived');
  return state;
}

/**
 * A state chosen for the caller (the team's default, or the same type after a
 * team move), share-locked like checkState's; chosen again if it was archived
 * while we waited for the lock.
 */
export async function pickLiveState(
  db: Db,
  pick: () => Promise<StateRow | undefined>,
): Promise<StateRow | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const state = await pick();
    if (!state) return undefined;
    const locked = await lockStateShared(db, state.id);
    if (locked && !locked.archived_at) return locked;
  }
  return undefined;
}

export async function checkCycle(db: Db, p: Problems, cycleId: string, teamId: string) {
  const cycle = await q.findCycle(db, cycleId);
  if (!cycle) p.add('cycleId', 'no cycle with this id');
  else if (cycle.team_id !== teamId) p.add('cycleId', "the cycle belongs to another team than the issue's");
}

export async function resolveTeam(
  db: Db,
  p: Problems,
  teamId: string | undefined,
  access: TeamAccess,
): Promise<TeamRow | undefined> {
  if (teamId === undefined) {
    const team = await firstTeam(db);
    if (!team || !canSeeTeam(access, team.id)) p.add('teamId', 'is required: the default team is not yours');
    return team;
  }
  const team = await findVisibleTeam(db, teamId, access);
  if (!team) p.add('teamId', 'no team with this id or key');
  else if (team.archived_at) p.add('teamId', 'the team is archived');
  return team;
}

export async function resolveIssue(db: Db, idOrIdentifier: string, access: TeamAccess): Promise<string> {
  const id = await q.resolveIssueId(db, idOrIdentifier, access);
  if (!id) throw notFound('Issue');
  return id;
}

import type { TeamAccess } from '../../platform/access.js';
import type { Actor, AppContext } from '../../platform/context.js';
import type { StateRow, StateType } from '../../platform/db/tables.js';
import { invalidField, notFound } from '../../platform/errors.js';
import { readContextOf, viewAnswer, viewListAnswer } from '../../platform/read/rest.js';
import { auditActorOf, changes, recordAudit } from '../audit/record.js';
import { lockIssuesInState } from '../issues/queries.js';
import { moveIssuesToState } from '../issues/service.js';
import { findVisibleTeam, teamAccess } from '../teams/access.js';
import { findTeamByIdOrKey } from '../teams/queries.js';
import { assertAdmin } from '../users/policy.js';
import {
  ArchiveBody,
  type ArchiveInput,
  checkInput,
  StateCreateBody,
  type StateCreateInput,
  StatePatchBody,
  type StateUpdateInput,
} from './inputs.js';
import { STATE_VIEW } from './present.js';
import * as q from './queries.js';

export type { ArchiveInput, StateCreateInput, StateUpdateInput } from './inputs.js';

/** The types a team must always have a live state of. */
export const REQUIRED_TYPES: readonly StateType[] = [
  'backlog',
  'unstarted',
  'started',
  'completed',
  'canceled',
];

/** listStates as REST answers it: `{"workflowStates":[...]}`, each STATE_VIEW. */
export async function listStatesJson(ctx: AppContext, actor: Actor, teamRef?: string): Promise<string> {
  const access = await teamAccess(ctx.db, actor);
  const ids = (await stateRows(ctx, actor, access, teamRef)).map((r) => r.id);
  return viewListAnswer(ctx.db, STATE_VIEW, 'workflowStates', ids, readContextOf(ctx, actor, access));
}

/** One state as REST answers it, `{"workflowState":...}` (its GET, and a write's answer read back as the GET would). */
export async function stateJson(ctx: AppContext, actor: Actor, id: string): Promise<string> {
  const access = await teamAccess(ctx.db, actor);
  return viewAnswer(
    ctx.db,
    STATE_VIEW,
    'workflowState',
    id,
    readContextOf(ctx, actor, access),
    'Workflow state',
  );
}

async function stateRows(ctx: AppContext, actor: Actor, access: TeamAccess, teamRef?: string) {
  let teamId: string | undefined;
  if (teamRef !== undefined) {
    const team = await findVisibleTeam(ctx.db, teamRef, access);
    if (!team) throw notFound('Team');
    teamId = team.id;
  }
  const { rows } = await q.listStateRows(ctx.db, {
    access,
    filter: teamId ? { team: { id: { eq: teamId } } } : undefined,
    now: new Date(),
    actorId: actor.id,
  });
  return rows;
}

export async function createState(ctx: AppContext, actor: Actor, input: StateCreateInput): Promise<StateRow> {
  assertAdmin(actor);
  checkInput(StateCreateBody, input);
  const team = await findTeamByIdOrKey(ctx.db, input.teamId);
  if (!team) throw invalidField('teamId', 'no team with this id or key');
  return ctx.db.transaction().execute(async (trx) => {
    const position = input.position ?? (await q.nextPosition(trx, team.id));
    const state = await q.insertState(trx, {
      team_id: team.id,
      name: input.name.trim(),
      type: input.type,
      color: input.color.toLowerCase(),
      description: input.description ?? null,
      position,
    });
    await recordAudit(trx, {
      type: 'workflowState.created',
      actor: auditActorOf(actor),
      entity: stateEntity(state),
      after: { teamId: state.team_id, name: state.name, type: state.type, color: state.color },
    });
    return state;
  });
}

/** What an entry says of the state it is about. */
const stateEntity = (s: StateRow) => ({ type: 'workflowState', id: s.id, label: s.name });

export async function updateState(
  ctx: AppContext,
  actor: Actor,
  id: string,
  patch: StateUpdateInput,
): Promise<StateRow> {
  assertAdmin(actor);
  const found = await q.findStateById(ctx.db, id);
  if (!found) throw notFound('Workflow state');
  // GraphQL may send only fields we do not hold: nothing to change then.
  if (Object.keys(patch).length === 0) return found;
  checkInput(StatePatchBody, patch);
  const set = {
    ...(patch.name !== undefined ? { name: patch.name.trim() } : {}),
    ...(patch.color !== undefined ? { color: patch.color.toLowerCase() } : {}),
    ...(patch.description !== undefined ? { description: patch.description } : {}),
    ...(patch.position !== undefined ? { position: patch.position } : {}),
  };
  return ctx.db.transaction().execute(async (trx) => {
    const updated = await q.updateState(trx, found.id, set);
    const diff = changes<Record<string, unknown>>(found, set);
    if (diff) {
      await recordAudit(trx, {
        type: 'workflowState.updated',
        actor: auditActorOf(actor),
        entity: stateEntity(updated),
        ...diff,
      });
    }
    return updated;
  });
}

/**
 * Archives a state. Its issues (archived ones too) move to replacementStateId,
 * which must be a live state of the same team; without one, a state that still
 * has issues is refused. The last live state of a required type stays.
 */
export async function archiveState(
  ctx: AppContext,
  actor: Actor,
  id: string,
  input: ArchiveInput = {},
): Promise<StateRow> {
  assertAdmin(actor);
  checkInput(ArchiveBody, input);
  const found = await q.findStateById(ctx.db, id);
  if (!found) throw notFound('Workflow state');
  return ctx.db.transaction().execute(async (trx) => {
    // The issues already in the state are locked first: an update of one of them
    // holds its row and then share-locks its target state, so taking the state
    // first could deadlock with an update that puts the issue in the state it is in.
    await lockIssuesInState(trx, found.id);
    // Then every live state of the team (in id order, so concurrent archives queue
    // instead of deadlocking): two archives cannot remove the last two of a type,
    // and an issue being put in this state now either has committed (it is moved
    // below, with the issues listed again) or waits and then finds it archived.
    const siblings = await q.lockLiveStates(trx, found.team_id);
    const state = siblings.find((s) => s.id === found.id);
    if (!state) return (await q.findStateById(trx, found.id))!; // archived meanwhile
    if (
      REQUIRED_TYPES.includes(state.type) &&
      !siblings.some((s) => s.id !== state.id && s.type === state.type)
    ) {
      throw invalidField('id', `the team's last ${state.type} state cannot be archived`);
    }
    const field = 'replacementStateId';
    let moved = 0;
    if (input.replacementStateId === undefined) {
      const count = await q.countIssuesInState(trx, state.id);
      if (count > 0) {
        throw invalidField(
          field,
          `the state still has ${count} issue(s): move them first, or name a replacement state for them`,
        );
      }
    } else {
      const replacement = siblings.find((s) => s.id === input.replacementStateId);
      if (!replacement || replacement.id === state.id) {
        throw invalidField(field, 'must be another live state of the same team');
      }
      moved = await moveIssuesToState(trx, ctx, actor, state.id, replacement);
    }
    // An archive is the end of a state (nothing restores one, and states are never
    // removed), so it is recorded as the state's deletion.
    await recordAudit(trx, {
      type: 'workflowState.deleted',
      actor: auditActorOf(actor),
      entity: stateEntity(state),
      before: { teamId: state.team_id, name: state.name, type: state.type },
      metadata: { archived: true, replacementStateId: input.replacementStateId ?? null, movedIssues: moved },
    });
    return q.updateState(trx, state.id, { archived_at: new Date() });
  });
}

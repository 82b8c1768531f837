// Issue rules. The stable service API (REST and GraphQL both call these;
// inputs are camelCase and identical to the REST bodies, see inputs.ts):
//
//   createIssue(ctx, actor, IssueCreateInput)                    -> IssueRecord   event issue.create
//     (with a client-chosen `id` sent again by its creator: the issue it made, no event; client-ids/claim.ts)
//   updateIssue(ctx, actor, idOrIdentifier, IssueUpdateInput)    -> IssueRecord   event issue.update
//   deleteIssue(ctx, actor, idOrIdentifier)                      -> IssueRecord   event issue.remove (last data)
//   archiveIssue(ctx, actor, idOrIdentifier)                     -> IssueRecord   event issue.update
//   unarchiveIssue(ctx, actor, idOrIdentifier)                   -> IssueRecord   event issue.update
//   getIssue(ctx, actor, idOrIdentifier)                         -> IssueRecord
//   moveIssuesToState(trx, ctx, actor, fromStateId, toState)     -> number moved  event issue.update each
//   listIssuesJson(ctx, actor, ListIssuesOptions) (list.ts)      -> the REST page as JSON text
//   loadIssueRecords(db, ids) (queries.ts)                       -> IssueRecord[] for data loaders
//
// REST reads the answer as JSON from the read model (issueJson, ISSUE_VIEW in present.ts);
// each event's data is that same view, read in the transaction as an admin sees it.
// A write changes the issue and records one event; what follows from it
// (history, subscriptions, notifications, mail) are the event's handlers
// (app.ts), run by recordEvent in the same transaction.
// Every record returned is read with the caller's access, as getIssue reads it
// (readBack), so a write answer shows exactly what the GET would.
// idOrIdentifier is a uuid or any identifier the issue ever had ("ENG-12").
// Errors: 400 VALIDATION_FAILED naming the field (unknown referenced ids too),
// 403 FORBIDDEN (guests), 403 FEATURE_DISABLED (projects/cycles off), 404 NOT_FOUND,
// 409 CONFLICT (a create's `id` names another record).
import type { TeamAccess } from '../../platform/access.js';
import { type Actor, type AppContext, authorOf } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import type { StateRow } from '../../platform/db/tables.js';
import { notFound } from '../../platform/errors.js';
import { type ChangeEvent, recordEvent } from '../../platform/outbox.js';
import { envelope, eventData, type RestView, readContextOf, viewJson } from '../../platform/read/rest.js';
import { checkClientId, claimClientId, clientIdTaken } from '../client-ids/claim.js';
import { findLabelsByIds } from '../labels/queries.js';
import { issueMilestoneChange } from '../milestones/issue-link.js';
import { defaultState, findStateById, firstStateOfType } from '../states/queries.js';
import { findVisibleTeam, teamAccess } from '../teams/access.js';
import { takeIssueNumber } from '../teams/queries.js';
import {
  checkCycle,
  checkLabels,
  checkState,
  Problems,
  pickLiveState,
  resolveIssue,
  resolveTeam,
  stateTimes,
} from './checks.js';
import { readableHistory } from './history.js';
import {
  checkInput,
  IssueCreateBody,
  type IssueCreateInput,
  IssuePatchBody,
  type IssueUpdateInput,
} from './inputs.js';
import { assertCanEditIssues, assertCanLink } from './policy.js';
import { ISSUE_VIEW, type IssueJson, type IssueRecord, RECORDED } from './present.js';
import * as q from './queries.js';
import { landsInTriage, triageState } from './triage.js';

export type { IssueCreateInput, IssueUpdateInput } from './inputs.js';
export type { IssueRecord } from './present.js';

/**
 * The answer to a write: the issue read back as its GET reads it, with the
 * caller's access, so a write never shows more than a read would (a parent,
 * project or person out of sight reads as none). History and events keep
 * the whole record (loadIssueRecord): webhooks go to admins' endpoints.
 */
async function readBack(db: Db, id: string, access: TeamAccess): Promise<IssueRecord> {
  const record = await q.findIssueRecord(db, id, access);
  if (!record) throw notFound('Issue');
  return record;
}

/** In its own transaction, or in `within` (a batch: all its issues or none). */
const inTransaction = <T>(ctx: AppContext, within: Db | undefined, f: (trx: Db) => Promise<T>) =>
  within ? f(within) : ctx.db.transaction().execute(f);

export interface CreateOptions {
  /** Keep the state asked for even when the team triages (importers: triage.ts). */
  keepState?: boolean;
}

export async function createIssue(
  ctx: AppContext,
  actor: Actor,
  input: IssueCreateInput,
  within?: Db,
  options: CreateOptions = {},
): Promise<IssueRecord> {
  assertCanEditIssues(actor);
  checkInput(IssueCreateBody, input);
  const clientId = checkClientId(input.id);
  await assertCanLink(within ?? ctx.db, input);
  const access = await teamAccess(within ?? ctx.db, actor);
  return inTransaction(ctx, within, async (trx) => {
    // Sent again by its creator (its answer was lost): the issue as it is now, created once.
    if (clientId && (await claimClientId(trx, 'issue', clientId, actor)) === 'replay') {
      const made = await q.findIssueRecord(trx, clientId, access);
      if (!made) throw clientIdTaken();
      return made;
    }
    const p = new Problems();
    const team = await resolveTeam(trx, p, input.teamId, access);
    let state: StateRow | undefined;
    let labelIds: string[] = [];
    if (team) {
      state =
        input.stateId !== undefined
          ? await checkState(trx, p, input.stateId, team.id)
          : await pickLiveState(trx, () => defaultState(trx, team.id));
      if (!state && input.stateId === undefined) p.add('teamId', 'the team has no workflow states');
      if (state && !options.keepState && (await landsInTriage(trx, actor, team)))
        state = (await triageState(trx, team.id)) ?? state;
      if (input.cycleId) await checkCycle(trx, p, input.cycleId, team.id);
      if (input.labelIds) labelIds = await checkLabels(trx, p, input.labelIds, team.id);
    }
    if (input.assigneeId && !(await q.liveUserExists(trx, input.assigneeId))) {
      p.add('assigneeId', 'no user with this id');
    }
    if (input.projectId && !(await q.projectExists(trx, input.projectId, access))) {
      p.add('projectId', 'no project with this id');
    }
    const milestone = await issueMilestoneChange(
      trx,
      access,
      p,
      { projectId: null, milestoneId: null },
      input,
    );
    let parentId: string | null = null;
    if (input.parentId) {
      parentId = (await q.resolveIssueId(trx, input.parentId, access)) ?? null;
      if (!parentId) p.add('parentId', 'no issue with this id or identifier');
    }
    p.throwIfAny();

    // Taken last: the team row stays locked until commit, so keep that short.
    const { number, key } = await takeIssueNumber(trx, team!.id);
    const identifier = `${key}-${number}`;
    const times = stateTimes(null, state!.type, { started_at: null, completed_at: null, canceled_at: null });
    const { id } = await q.insertIssue(trx, {
      ...(clientId ? { id: clientId } : {}),
      team_id: team!.id,
      number,
      identifier,
      title: input.title.trim(),
      description: input.description ?? null,
      priority: input.priority ?? 0,
      estimate: input.estimate ?? null,
      due_date: input.dueDate ?? null,
      state_id: state!.id,
      assignee_id: input.assigneeId ?? null,
      creator_id: authorOf(actor).id,
      project_id: milestone.project_id ?? input.projectId ?? null,
      project_milestone_id: milestone.project_milestone_id ?? null,
      cycle_id: input.cycleId ?? null,
      parent_id: parentId,
      sort_order: input.sortOrder ?? 0,
      started_at: times.started_at ?? null,
      completed_at: times.completed_at ?? null,
      canceled_at: times.canceled_at ?? null,
    });
    await q.addIdentifier(trx, id, identifier);
    await q.setLabels(trx, id, labelIds);
    const data = await issueData(ctx, trx, id, actor);
    await recordEvent(ctx, trx, { type: 'issue', action: 'create', data, actor, url: data.url });
    return readBack(trx, id, access);
  });
}

/** The issue as its events carry it (ISSUE_VIEW, as an admin's GET shows it), read in `trx`. */
const issueData = async (ctx: AppContext, trx: Db, id: string, actor: Actor | null) =>
  (await eventData(ctx, trx, ISSUE_VIEW, id, actor)) as IssueJson;

/**
 * Records the update event for a change from `before` to `after` (the
 * issue's event data read before and after the write: the event carries
 * `after` whole, and updatedFrom the tracked fields of `before` that
 * changed); false when no tracked field changed. `stateType`: the type of the
 * issue's state after the change, given where the state may change; `silent`:
 * notify nobody (outbox.ts ChangeEvent).
 */
async function recordChange(
  trx: Db,
  ctx: AppContext,
  actor: Actor | null,
  before: IssueJson,
  data: IssueJson,
  effects: Pick<ChangeEvent, 'stateType' | 'silent' | 'causeAttachmentId'> = {},
): Promise<boolean> {
  const updatedFrom: Record<string, unknown> = { updatedAt: before.updatedAt };
  let changed = false;
  for (const key of RECORDED) {
    if (JSON.stringify(before[key]) === JSON.stringify(data[key])) continue;
    updatedFrom[key] = before[key];
    changed = true;
  }
  if (!changed) return false;
  await recordEvent(ctx, trx, {
    type: 'issue',
    action: 'update',
    data,
    updatedFrom,
    actor,
    url: data.url,
    ...effects,
  });
  return true;
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();

export async function updateIssue(
  ctx: AppContext,
  actor: Actor,
  idOrIdentifier: string,
  patch: IssueUpdateInput,
  within?: Db,
): Promise<IssueRecord> {
  assertCanEditIssues(actor);
  checkInput(IssuePatchBody, patch);
  await assertCanLink(within ?? ctx.db, patch);
  const access = await teamAccess(within ?? ctx.db, actor);
  return inTransaction(ctx, within, async (trx) => {
    const id = await resolveIssue(trx, idOrIdentifier, access);
    const row = await q.lockIssue(trx, id);
    if (!row) throw notFound('Issue');
    const before = await issueData(ctx, trx, id, actor);
    const p = new Problems();
    const set: Partial<q.IssueColumns> = {};

    let teamId = row.team_id;
    if (patch.teamId !== undefined) {
      const team = await findVisibleTeam(trx, patch.teamId, access);
      if (!team) p.add('teamId', 'no team with this id or key');
      else if (team.archived_at && team.id !== row.team_id) p.add('teamId', 'the team is archived');
      else teamId = team.id;
    }
    const moving = teamId !== row.team_id;
    const currentState = (await findStateById(trx, row.state_id))!;

    let state: StateRow | undefined = currentState;
    if (patch.stateId !== undefined) state = await checkState(trx, p, patch.stateId, teamId);
    else if (moving) {
      // Keep the kind of progress: the target team's first state of the same type.
      state = await pickLiveState(
        trx,
        async () =>
          (await firstStateOfType(trx, teamId, currentState.type)) ?? (await defaultState(trx, teamId)),
      );
      if (!state) p.add('teamId', 'the team has no workflow states');
    }

    if (patch.cycleId !== undefined) {
      if (patch.cycleId !== null) await checkCycle(trx, p, patch.cycleId, teamId);
      set.cycle_id = patch.cycleId;
    } else if (moving && row.cycle_id) set.cycle_id = null; // cycles belong to one team

    let labelIds = before.labelIds;
    if (patch.labelIds !== undefined) labelIds = await checkLabels(trx, p, patch.labelIds, teamId);
    else if (moving && labelIds.length > 0) {
      const labels = await findLabelsByIds(trx, labelIds);
      labelIds = labels.filter((l) => l.team_id === null || l.team_id === teamId).map((l) => l.id);
    }

    if (patch.assigneeId !== undefined) {
      if (patch.assigneeId !== null && !(await q.liveUserExists(trx, patch.assigneeId))) {
        p.add('assigneeId', 'no user with this id');
      }
      set.assignee_id = patch.assigneeId;
    }
    if (patch.projectId !== undefined) {
      if (patch.projectId !== null && !(await q.projectExists(trx, patch.projectId, access))) {
        p.add('projectId', 'no project with this id');
      }
      set.project_id = patch.projectId;
    }
    Object.assign(
      set,
      await issueMilestoneChange(
        trx,
        access,
        p,
        { projectId: row.project_id, milestoneId: row.project_milestone_id },
        patch,
      ),
    );
    if (patch.snoozedUntilAt && state && state.type !== 'triage') {
      p.add('snoozedUntilAt', 'only an issue in triage can be snoozed');
    }
    if (patch.snoozedById && !(await q.liveUserExists(trx, patch.snoozedById))) {
      p.add('snoozedById', 'no user with this id');
    }
    if (patch.parentId !== undefined) {
      if (patch.parentId === null) set.parent_id = null;
      else {
        const parentId = await q.resolveIssueId(trx, patch.parentId, access);
        if (!parentId) p.add('parentId', 'no issue with this id or identifier');
        else if (await q.wouldCycle(trx, id, parentId)) {
          p.add('parentId', 'an issue cannot be its own parent or the child of its own sub-issue');
        } else set.parent_id = parentId;
      }
    }
    p.throwIfAny();

    if (patch.title !== undefined) set.title = patch.title.trim();
    if (patch.description !== undefined) set.description = patch.description;
    if (patch.priority !== undefined) set.priority = patch.priority;
    if (patch.estimate !== undefined) set.estimate = patch.estimate;
    if (patch.dueDate !== undefined) set.due_date = patch.dueDate;
    if (patch.sortOrder !== undefined) set.sort_order = patch.sortOrder;
    Object.assign(set, snoozeChange(actor, row, patch, state!));
    if (state!.id !== row.state_id) {
      set.state_id = state!.id;
      Object.assign(set, stateTimes(currentState.type, state!.type, row));
    }
    if (moving) {
      const { number, key } = await takeIssueNumber(trx, teamId);
      set.team_id = teamId;
      set.number = number;
      set.identifier = `${key}-${number}`;
      await q.addIdentifier(trx, id, set.identifier);
    }

    // Only columns whose value really changes count as a change.
    const changed = Object.fromEntries(
      Object.entries(set).filter(([k, v]) => {
        const cur = row[k as keyof typeof row];
        return cur instanceof Date || v instanceof Date
          ? String(cur?.valueOf()) !== String((v as Date | null)?.valueOf())
          : cur !== v;
      }),
    );
    const labelsChanged = !sameSet(labelIds, before.labelIds);
    if (Object.keys(changed).length === 0 && !labelsChanged) return readBack(trx, id, access);

    await q.updateIssueRow(trx, id, changed);
    if (labelsChanged) await q.setLabels(trx, id, labelIds);
    const after = await issueData(ctx, trx, id, actor);
    await recordChange(trx, ctx, actor, before, after, { stateType: state!.type });
    return readBack(trx, id, access);
  });
}

/**
 * The snooze columns a change sets: snoozedUntilAt (by the caller unless
 * snoozedById names someone) or null to wake; an issue leaving triage wakes,
 * its snooze has nothing left to hide it from (docs/triage.md).
 */
function snoozeChange(
  actor: Actor,
  row: Pick<IssueRecord, 'snoozed_until_at' | 'snoozed_by_id'>,
  patch: IssueUpdateInput,
  state: StateRow,
): Partial<q.IssueColumns> {
  if (state.type !== 'triage') {
    return row.snoozed_until_at || row.snoozed_by_id ? { snoozed_until_at: null, snoozed_by_id: null } : {};
  }
  if (patch.snoozedUntilAt === null) return { snoozed_until_at: null, snoozed_by_id: null };
  if (patch.snoozedUntilAt !== undefined) {
    return {
      snoozed_until_at: new Date(patch.snoozedUntilAt),
      snoozed_by_id: patch.snoozedById ?? authorOf(actor).id,
    };
  }
  return patch.snoozedById !== undefined && row.snoozed_until_at ? { snoozed_by_id: patch.snoozedById } : {};
}

/**
 * Moves every issue in one state (archived issues too) to another state of the
 * same team, inside the caller's transaction, as an update of each issue would:
 * progress times follow the new type, and each move has its history entry and
 * its issue.update event. For archiving a workflow state.
 */
export async function moveIssuesToState(
  trx: Db,
  ctx: AppContext,
  actor: Actor,
  fromStateId: string,
  to: StateRow,
): Promise<number> {
  const ids = await q.lockIssuesInState(trx, fromStateId);
  for (const id of ids) await moveIssueToState(trx, ctx, actor, id, to);
  return ids.length;
}

/**
 * Moves one issue to `to`, a live state of its own team, inside the caller's
 * transaction and as an update would record it (progress times, history, an
 * issue.update event), by default notifying nobody (docs/notifications.md).
 * `how.notify` makes it notify like any update, and `how.causeAttachmentId`
 * records what caused it (a pull request, modules/git). The caller has checked
 * that the issue is theirs to change. Returns false when the issue is already there.
 */
export async function moveIssueToState(
  trx: Db,
  ctx: AppContext,
  actor: Actor,
  issueId: string,
  to: StateRow,
  how: { notify?: boolean; causeAttachmentId?: string } = {},
): Promise<boolean> {
  const row = await q.lockIssue(trx, issueId);
  if (!row || row.state_id === to.id) return false;
  const from = (await findStateById(trx, row.state_id))!;
  const before = await issueData(ctx, trx, issueId, actor);
  await q.updateIssueRow(trx, issueId, { state_id: to.id, ...stateTimes(from.type, to.type, row) });
  const after = await issueData(ctx, trx, issueId, actor);
  await recordChange(trx, ctx, actor, before, after, {
    stateType: to.type,
    ...(how.notify ? {} : { silent: true as const }),
    ...(how.causeAttachmentId ? { causeAttachmentId: how.causeAttachmentId } : {}),
  });
  return true;
}

/**
 * Moves one issue to another cycle of its team, inside the caller's
 * transaction, as the system (no actor): an update event and a history entry
 * naming nobody, notifying nobody. For the cycle worker's rollover
 * (cycles/automation.ts), which has checked that the cycle is the issue's team's.
 */
export async function moveIssueToCycleAsSystem(
  trx: Db,
  ctx: AppContext,
  issueId: string,
  cycleId: string,
): Promise<boolean> {
  const row = await q.lockIssue(trx, issueId);
  if (!row || row.cycle_id === cycleId) return false;
  const before = await issueData(ctx, trx, issueId, null);
  await q.updateIssueRow(trx, issueId, { cycle_id: cycleId });
  const after = await issueData(ctx, trx, issueId, null);
  const state = (await findStateById(trx, row.state_id))!;
  return recordChange(trx, ctx, null, before, after, { stateType: state.type, silent: true });
}

export async function deleteIssue(
  ctx: AppContext,
  actor: Actor,
  idOrIdentifier: string,
): Promise<IssueRecord> {
  assertCanEditIssues(actor);
  const access = await teamAccess(ctx.db, actor);
  return ctx.db.transaction().execute(async (trx) => {
    const id = await resolveIssue(trx, idOrIdentifier, access);
    if (!(await q.lockIssue(trx, id))) throw notFound('Issue');
    const data = await issueData(ctx, trx, id, actor);
    const shown = await readBack(trx, id, access);
    await q.deleteIssueRow(trx, id); // comments, attachments, labels, history cascade
    await recordEvent(ctx, trx, { type: 'issue', action: 'remove', data, actor, url: data.url });
    return shown;
  });
}

async function setArchived(ctx: AppContext, actor: Actor, idOrIdentifier: string, archived: boolean) {
  assertCanEditIssues(actor);
  const access = await teamAccess(ctx.db, actor);
  return ctx.db.transaction().execute(async (trx) => {
    const id = await resolveIssue(trx, idOrIdentifier, access);
    const row = await q.lockIssue(trx, id);
    if (!row) throw notFound('Issue');
    if ((row.archived_at !== null) === archived) return readBack(trx, id, access);
    const before = await issueData(ctx, trx, id, actor);
    await q.updateIssueRow(trx, id, { archived_at: archived ? new Date() : null });
    const after = await issueData(ctx, trx, id, actor);
    await recordChange(trx, ctx, actor, before, after);
    return readBack(trx, id, access);
  });
}

/** Hides the issue from lists (unless includeArchived); it stays readable by id. */
export const archiveIssue = (ctx: AppContext, actor: Actor, idOrIdentifier: string) =>
  setArchived(ctx, actor, idOrIdentifier, true);

export const unarchiveIssue = (ctx: AppContext, actor: Actor, idOrIdentifier: string) =>
  setArchived(ctx, actor, idOrIdentifier, false);

export async function getIssue(ctx: AppContext, actor: Actor, idOrIdentifier: string): Promise<IssueRecord> {
  const record = await q.findIssueRecord(ctx.db, idOrIdentifier, await teamAccess(ctx.db, actor));
  if (!record) throw notFound('Issue');
  return record;
}

/** getIssue's answer as REST sends it, `{"issue":{...}}`, its JSON built by PostgreSQL (platform/read). */
export async function getIssueJson(
  ctx: AppContext,
  actor: Actor,
  idOrIdentifier: string,
  view: RestView = ISSUE_VIEW,
): Promise<string> {
  const access = await teamAccess(ctx.db, actor);
  const json = await q.findIssueJson(ctx.db, idOrIdentifier, readContextOf(ctx, actor, access), view);
  if (json === undefined) throw notFound('Issue');
  return json;
}

/**
 * A write's answer as REST sends it, `{"issue":{...}}`: the issue the
 * service returned, read as its GET reads it (ISSUE_VIEW with the caller's access).
 */
export async function issueJson(
  ctx: AppContext,
  actor: Actor,
  issue: Pick<IssueRecord, 'id'>,
  view: RestView = ISSUE_VIEW,
): Promise<string> {
  const access = await teamAccess(ctx.db, actor);
  const json = await viewJson(ctx.db, view, issue.id, readContextOf(ctx, actor, access));
  if (json === undefined) throw notFound('Issue');
  return envelope('issue', json);
}

/** Change history of an issue, oldest first, with what the caller may not see masked (history.ts). */
export async function issueHistory(ctx: AppContext, actor: Actor, idOrIdentifier: string) {
  const access = await teamAccess(ctx.db, actor);
  const id = await resolveIssue(ctx.db, idOrIdentifier, access);
  return readableHistory(ctx.db, await q.historyOf(ctx.db, id), access);
}

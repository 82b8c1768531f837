// Issue relation rules (REST and GraphQL both call these):
//
//   createRelation(ctx, actor, { issueId, relatedIssueId, type, id? }) -> row   event relation.create
//   updateRelation(ctx, actor, id, { issueId?, relatedIssueId?, type? }) -> row  event relation.update
//   deleteRelation(ctx, actor, id)                                      -> row   event relation.remove
//   relationJson(ctx, actor, id)                                       -> REST's `{"relation":...}`
//   listIssueRelationsJson(ctx, actor, issue, page)                     -> REST's list, as JSON text
//
// Both issues must be visible to the caller: an unseen one is answered exactly
// as one that does not exist (400 naming the input field, as every body
// reference is; 404 for the issue in a REST path). An issue cannot be related
// to itself; a pair of
// issues is linked at most once per type, whichever end is the source. Marking
// an issue as a duplicate moves it to its team's duplicate state in the same
// transaction (docs/rest-issues.md, "Relations"). REST's answers and each
// event's data are RELATION_VIEW (present.ts), read from the read model.
import type { Actor, AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import type { IssueRelationRow } from '../../platform/db/tables.js';
import { conflict, invalidField, notFound } from '../../platform/errors.js';
import { isUuid } from '../../platform/ids.js';
import { recordEvent } from '../../platform/outbox.js';
import {
  changedFrom,
  eventData,
  listEnvelope,
  readContextOf,
  viewAnswer,
  viewJsonByIds,
  withMembers,
} from '../../platform/read/rest.js';
import { checkClientId } from '../client-ids/claim.js';
import { assertCanEditIssues } from '../issues/policy.js';
import { lockIssue, resolveIssueId } from '../issues/queries.js';
import { moveIssueToState } from '../issues/service.js';
import { duplicateState } from '../states/queries.js';
import { teamAccess } from '../teams/access.js';
import { listedMembers, RELATION_TYPES, RELATION_VIEW, type RelationType } from './present.js';
import * as q from './queries.js';

export interface RelationInput {
  /** Source issue: id or identifier. */
  issueId: string;
  /** Target issue: id or identifier. */
  relatedIssueId: string;
  type: string;
  /** A client-chosen id (the GraphQL input allows one). */
  id?: string | null | undefined;
  /**
   * The input fields that carried issueId and relatedIssueId, for error
   * details (REST's `blocked_by` carries the source in `relatedIssueId`).
   */
  fields?: { issueId: string; relatedIssueId: string } | undefined;
}

export interface RelationPatch {
  issueId?: string | null | undefined;
  relatedIssueId?: string | null | undefined;
  type?: string | null | undefined;
}

function checkType(type: unknown, field = 'type'): RelationType {
  if (typeof type !== 'string' || !(RELATION_TYPES as readonly string[]).includes(type)) {
    throw invalidField(field, `must be one of ${RELATION_TYPES.join(', ')}`);
  }
  return type as RelationType;
}

type Access = Awaited<ReturnType<typeof teamAccess>>;

/** An issue id or identifier the caller sees, else a 400 naming `field`, as for an unknown id. */
async function visibleIssue(db: Db, ref: string, access: Access, field: string) {
  const id = typeof ref === 'string' && ref.length <= 200 ? await resolveIssueId(db, ref, access) : undefined;
  if (!id) throw invalidField(field, 'no issue with this id or identifier');
  return id;
}

/** The issue named in a REST path, else 404 (an issue the caller cannot see included). */
export async function pathIssueId(ctx: AppContext, actor: Actor, ref: string): Promise<string> {
  const id = await resolveIssueId(ctx.db, ref, await teamAccess(ctx.db, actor));
  if (!id) throw notFound('Issue');
  return id;
}

/**
 * Locks both issues, lower id first, so that two requests linking the same
 * pair (in either direction) take turns and the pair check below holds.
 */
async function lockPair(trx: Db, a: string, b: string): Promise<void> {
  for (const id of [a, b].sort()) if (!(await lockIssue(trx, id))) throw notFound('Issue');
}

async function assertFreePair(trx: Db, a: string, b: string, type: RelationType, except?: string) {
  if (a === b) throw invalidField('relatedIssueId', 'an issue cannot be related to itself');
  if (await q.findPair(trx, a, b, type, except)) {
    throw conflict(`These issues already have a "${type}" relation`, 'relatedIssueId');
  }
}

/** The duplicate goes to its team's duplicate state, when the team has one. */
async function moveDuplicate(trx: Db, ctx: AppContext, actor: Actor, row: IssueRelationRow) {
  if (row.type !== 'duplicate') return;
  const teamId = await q.teamOfIssue(trx, row.issue_id);
  const state = teamId ? await duplicateState(trx, teamId) : undefined;
  if (state) await moveIssueToState(trx, ctx, actor, row.issue_id, state);
}

/** A relation event: its data is RELATION_VIEW as an admin's GET shows it, read in `trx`. */
const event = async (ctx: AppContext, trx: Db, actor: Actor, row: IssueRelationRow) => ({
  type: 'relation' as const,
  data: await eventData(ctx, trx, RELATION_VIEW, row.id, actor),
  actor,
  teamId: await q.teamOfIssue(trx, row.issue_id),
});

/** Unique violations that slip past the pair check (they cannot, the pair is locked) are still a 409. */
async function asConflict<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('That relation or id already exists');
    throw err;
  }
}

export async function createRelation(
  ctx: AppContext,
  actor: Actor,
  input: RelationInput,
  /** The caller's transaction (an importer writes an issue and its relations as one). */
  within?: Db,
): Promise<IssueRelationRow> {
  assertCanEditIssues(actor);
  const type = checkType(input.type);
  const clientId = checkClientId(input.id);
  const access = await teamAccess(within ?? ctx.db, actor);
  const run = <T>(f: (trx: Db) => Promise<T>) => (within ? f(within) : ctx.db.transaction().execute(f));
  return asConflict(() =>
    run(async (trx) => {
      const fields = input.fields ?? { issueId: 'issueId', relatedIssueId: 'relatedIssueId' };
      const issueId = await visibleIssue(trx, input.issueId, access, fields.issueId);
      const relatedIssueId = await visibleIssue(trx, input.relatedIssueId, access, fields.relatedIssueId);
      if (issueId === relatedIssueId)
        throw invalidField('relatedIssueId', 'an issue cannot be related to itself');
      await lockPair(trx, issueId, relatedIssueId);
      await assertFreePair(trx, issueId, relatedIssueId, type);
      const row = await q.insertRelation(trx, {
        ...(clientId ? { id: clientId } : {}),
        issue_id: issueId,
        related_issue_id: relatedIssueId,
        type,
        creator_id: actor.id,
      });
      await recordEvent(ctx, trx, { ...(await event(ctx, trx, actor, row)), action: 'create' });
      await moveDuplicate(trx, ctx, actor, row);
      return row;
    }),
  );
}

export async function updateRelation(
  ctx: AppContext,
  actor: Actor,
  id: string,
  patch: RelationPatch,
): Promise<IssueRelationRow> {
  assertCanEditIssues(actor);
  const type = patch.type != null ? checkType(patch.type) : undefined;
  const access = await teamAccess(ctx.db, actor);
  return asConflict(() =>
    ctx.db.transaction().execute(async (trx) => {
      const current = isUuid(id) ? await q.findRelation(trx, id, access) : undefined;
      if (!current) throw notFound('Issue relation');
      const issueId =
        patch.issueId != null ? await visibleIssue(trx, patch.issueId, access, 'issueId') : current.issue_id;
      const relatedIssueId =
        patch.relatedIssueId != null
          ? await visibleIssue(trx, patch.relatedIssueId, access, 'relatedIssueId')
          : current.related_issue_id;
      const nextType = type ?? current.type;
      if (issueId === relatedIssueId)
        throw invalidField('relatedIssueId', 'an issue cannot be related to itself');
      if (
        issueId === current.issue_id &&
        relatedIssueId === current.related_issue_id &&
        nextType === current.type
      ) {
        return current;
      }
      await lockPair(trx, issueId, relatedIssueId);
      const locked = await q.findRelation(trx, id, access, true);
      if (!locked) throw notFound('Issue relation');
      await assertFreePair(trx, issueId, relatedIssueId, nextType, id);
      const old = await eventData(ctx, trx, RELATION_VIEW, id, actor);
      const row = await q.updateRelationRow(trx, id, {
        issue_id: issueId,
        related_issue_id: relatedIssueId,
        type: nextType,
      });
      const ev = await event(ctx, trx, actor, row);
      // Something changed (checked above): its ends or its type.
      const updatedFrom = changedFrom(old, ev.data, ['issueId', 'relatedIssueId', 'type'])!;
      await recordEvent(ctx, trx, { ...ev, action: 'update', updatedFrom });
      // Newly a duplicate (or a different issue now is): move it, as creation would.
      if (row.type === 'duplicate' && (locked.type !== 'duplicate' || locked.issue_id !== row.issue_id)) {
        await moveDuplicate(trx, ctx, actor, row);
      }
      return row;
    }),
  );
}

export async function deleteRelation(
  ctx: AppContext,
  actor: Actor,
  id: string,
  /** The caller's transaction (MCP's update_issue: its field changes and relation edits as one). */
  within?: Db,
): Promise<IssueRelationRow> {
  assertCanEditIssues(actor);
  const access = await teamAccess(within ?? ctx.db, actor);
  const work = async (trx: Db) => {
    const current = isUuid(id) ? await q.findRelation(trx, id, access, true) : undefined;
    if (!current) throw notFound('Issue relation');
    const ev = await event(ctx, trx, actor, current);
    await q.deleteRelationRow(trx, id);
    await recordEvent(ctx, trx, { ...ev, action: 'remove' });
    return current;
  };
  return within ? work(within) : ctx.db.transaction().execute(work);
}

/**
 * Removes the relation of `type` from `issueId` to `relatedIssueId` (ids or
 * identifiers), as an assistant names it (MCP update_issue): 404 when there is
 * none, or when a `blocks` relation runs the other way.
 */
export async function deleteRelationBetween(
  ctx: AppContext,
  actor: Actor,
  input: RelationInput,
  /** The caller's transaction, as deleteRelation takes it. */
  within?: Db,
) {
  assertCanEditIssues(actor);
  const type = checkType(input.type);
  const db = within ?? ctx.db;
  const access = await teamAccess(db, actor);
  const issueId = await visibleIssue(db, input.issueId, access, 'issueId');
  const relatedIssueId = await visibleIssue(db, input.relatedIssueId, access, 'relatedIssueId');
  const found = await q.findPair(db, issueId, relatedIssueId, type);
  // Only blocks has a direction (a pair is linked once per type, whichever end is the source).
  if (!found || (type === 'blocks' && found.issue_id !== issueId)) throw notFound('Issue relation');
  return deleteRelation(ctx, actor, found.id, within);
}

/** One relation as REST answers it, `{"relation":...}` (its GET, and a write's answer read back as the GET would). */
export async function relationJson(ctx: AppContext, actor: Actor, id: string): Promise<string> {
  const access = await teamAccess(ctx.db, actor);
  return viewAnswer(
    ctx.db,
    RELATION_VIEW,
    'relation',
    id,
    readContextOf(ctx, actor, access),
    'Issue relation',
  );
}

/**
 * An issue's relations in both directions as REST lists them (404 for an
 * issue the caller cannot see): each RELATION_VIEW, read for the page in one
 * statement, with how that issue sees it and the other issue.
 */
export async function listIssueRelationsJson(
  ctx: AppContext,
  actor: Actor,
  issueRef: string,
  page: { limit: number; offset: number },
): Promise<string> {
  const access = await teamAccess(ctx.db, actor);
  const issueId = await resolveIssueId(ctx.db, issueRef, access);
  if (!issueId) throw notFound('Issue');
  const { rows, total } = await q.listForIssue(ctx.db, issueId, access, page);
  const ids = rows.map((r) => r.id);
  const byId = await viewJsonByIds(ctx.db, RELATION_VIEW, ids, readContextOf(ctx, actor, access));
  const relations = rows.flatMap((r) => {
    const json = byId.get(r.id);
    return json === undefined ? [] : [withMembers(json, listedMembers(r, issueId))];
  });
  return listEnvelope('relations', relations, { pageInfo: { total, ...page } });
}

// SQL for importers: runs, records by original key, links waiting for an
// issue, the lookups that match a source's records to existing ones, and the
// dates an import keeps (the services stamp "now"; an import writes the
// source's dates afterwards, in the same transaction).
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { StateType, UserRow } from '../../platform/db/tables.js';
import type { ImportRunsTable } from '../../platform/db/tables-import.js';
import { runById, runsPage } from '../../platform/list/runs.js';

// ---- runs

export type ImportRunRow = Awaited<ReturnType<typeof findRun>> & {};

export function insertRun(
  db: Db,
  run: { source: string; kind: ImportRunsTable['kind']; dryRun: boolean; createdBy: string | null },
) {
  return db
    .insertInto('import_runs')
    .values({ source: run.source, kind: run.kind, dry_run: run.dryRun, created_by: run.createdBy })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/** Serialises the opening of runs of one source (across processes on PostgreSQL), until the transaction ends. */
export async function lockSource(db: Db, source: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`import:${source}`}))`.execute(db);
}

/** Runs newest first, a page at a time, with their total. */
export const listRuns = (db: Db, page: { limit: number; offset: number }) =>
  runsPage(db, 'import_runs', page);

export const findRun = (db: Db, id: string) => runById(db, 'import_runs', id);

/** The latest run of `source` that did not finish (a writing run, not a dry one): where a new run resumes. */
export function findUnfinishedRun(db: Db, source: string) {
  return db
    .selectFrom('import_runs')
    .selectAll()
    .where('source', '=', source)
    .where('dry_run', '=', false)
    .where('status', '!=', 'completed')
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function updateRun(
  db: Db,
  id: string,
  patch: {
    status?: 'running' | 'completed' | 'failed';
    counts?: Record<string, number>;
    cursor?: string | null;
    errors?: string[];
    report?: unknown;
    finished?: boolean;
    /** Issues and pages read so far: written with the cursor, so a resumed run goes on from both. */
    read?: { issues: number; pages: number };
    total?: { count: number; unit: 'issue' | 'page' } | null;
  },
): Promise<void> {
  await db
    .updateTable('import_runs')
    .set({
      updated_at: sql`now()`,
      ...(patch.status !== undefined ? { status: patch.status } : {}),
      ...(patch.counts !== undefined ? { counts: JSON.stringify(patch.counts) } : {}),
      ...(patch.cursor !== undefined ? { cursor: patch.cursor } : {}),
      ...(patch.errors !== undefined ? { errors: JSON.stringify(patch.errors) } : {}),
      ...(patch.report !== undefined ? { report: JSON.stringify(patch.report) } : {}),
      ...(patch.finished ? { finished_at: sql`now()` } : {}),
      ...(patch.read ? { issues_read: patch.read.issues, pages_read: patch.read.pages } : {}),
      ...(patch.total !== undefined
        ? { total: patch.total?.count ?? null, total_unit: patch.total?.unit ?? null }
        : {}),
    })
    .where('id', '=', id)
    .execute();
}

// ---- records by original key

export async function findRecord(db: Db, source: string, entity: string, externalId: string) {
  const row = await db
    .selectFrom('import_records')
    .select('local_id')
    .where('source', '=', source)
    .where('entity', '=', entity)
    .where('external_id', '=', externalId)
    .executeTakeFirst();
  return row?.local_id;
}

/** The local ids of many records of one entity, by external id. */
export async function findRecords(
  db: Db,
  source: string,
  entity: string,
  externalIds: readonly string[],
): Promise<Map<string, string>> {
  if (externalIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('import_records')
    .select(['external_id', 'local_id'])
    .where('source', '=', source)
    .where('entity', '=', entity)
    .where('external_id', 'in', [...new Set(externalIds)])
    .execute();
  return new Map(rows.map((r) => [r.external_id, r.local_id]));
}

export async function insertRecord(
  db: Db,
  r: { source: string; entity: string; externalId: string; localId: string; runId: string | null },
): Promise<void> {
  await db
    .insertInto('import_records')
    .values({
      source: r.source,
      entity: r.entity,
      external_id: r.externalId,
      local_id: r.localId,
      run_id: r.runId,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Which sources imported an issue, and under which key: the issue's searchable reference. */
export function recordsOfLocal(db: Db, localId: string) {
  return db
    .selectFrom('import_records')
    .select(['source', 'entity', 'external_id'])
    .where('local_id', '=', localId)
    .execute();
}

// ---- links waiting for an issue

export async function insertPending(
  db: Db,
  p: { source: string; waitingFor: string; kind: 'parent' | 'relation'; issueId: string; data?: object },
): Promise<void> {
  await db
    .insertInto('import_pending')
    .values({
      source: p.source,
      waiting_for: p.waitingFor,
      kind: p.kind,
      issue_id: p.issueId,
      data: JSON.stringify(p.data ?? {}),
    })
    .execute();
}

/** The links waiting for `waitingFor`, taken (deleted) as they are read: the caller's transaction writes them. */
export function takePending(db: Db, source: string, waitingFor: string) {
  return db
    .deleteFrom('import_pending')
    .where('source', '=', source)
    .where('waiting_for', '=', waitingFor)
    .returning(['kind', 'issue_id', 'data'])
    .execute();
}

// ---- matching existing records

export function liveUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(sql<boolean>`lower(email) = ${email.toLowerCase()}`)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** The live users among `ids` (an admin's map of the source's people to accounts here). */
export function liveUsersByIds(db: Db, ids: readonly string[]): Promise<UserRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('users')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .where('deleted_at', 'is', null)
    .execute();
}

/** The live users whose email is among `emails` (lower-cased: emails are matched without case). */
export function liveUsersByEmails(db: Db, emails: readonly string[]): Promise<UserRow[]> {
  if (emails.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('users')
    .selectAll()
    .where(sql<boolean>`lower(email) = any(${[...new Set(emails.map((e) => e.toLowerCase()))]}::text[])`)
    .where('deleted_at', 'is', null)
    .execute();
}

/** Whom the CLI imports as unless told: the oldest active admin. */
export function firstActiveAdmin(db: Db): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('role', '=', 'admin')
    .where('status', '=', 'active')
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .executeTakeFirst();
}

/** A placeholder stands in for someone the source names but who has no account here: it cannot sign in. */
export async function suspendUser(db: Db, id: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ status: 'suspended', session_epoch: sql`session_epoch + 1` })
    .where('id', '=', id)
    .execute();
}

export function teamByKey(db: Db, key: string) {
  return db
    .selectFrom('teams')
    .select(['id', 'key'])
    .where(sql<boolean>`upper(key) = ${key.toUpperCase()}`)
    .executeTakeFirst();
}

export function liveStatesOfTeam(db: Db, teamId: string) {
  return db
    .selectFrom('workflow_states')
    .select(['id', 'name', 'type', 'position'])
    .where('team_id', '=', teamId)
    .where('archived_at', 'is', null)
    .orderBy('position')
    .execute();
}

export function labelByName(db: Db, teamId: string | null, name: string) {
  let q = db
    .selectFrom('labels')
    .select('id')
    .where(sql<boolean>`lower(name) = ${name.toLowerCase()}`)
    .where('archived_at', 'is', null);
  q = teamId === null ? q.where('team_id', 'is', null) : q.where('team_id', '=', teamId);
  return q.executeTakeFirst();
}

export function projectByName(db: Db, name: string) {
  return db
    .selectFrom('projects')
    .select('id')
    .where(sql<boolean>`lower(name) = ${name.toLowerCase()}`)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
}

export function milestoneByName(db: Db, projectId: string, name: string) {
  return db
    .selectFrom('project_milestones')
    .select('id')
    .where('project_id', '=', projectId)
    .where(sql<boolean>`lower(name) = ${name.toLowerCase()}`)
    .executeTakeFirst();
}

export function cycleByDates(db: Db, teamId: string, startsAt: string, endsAt: string) {
  return db
    .selectFrom('cycles')
    .select('id')
    .where('team_id', '=', teamId)
    .where('starts_at', '=', new Date(startsAt))
    .where('ends_at', '=', new Date(endsAt))
    .executeTakeFirst();
}

// ---- the source's dates

const at = (s: string | null | undefined) => (s ? new Date(s) : undefined);

/** The source's dates on an issue; a date the source leaves out keeps what the service wrote. */
export async function setIssueDates(
  db: Db,
  id: string,
  d: {
    createdAt?: string | undefined;
    updatedAt?: string | undefined;
    startedAt?: string | null | undefined;
    completedAt?: string | null | undefined;
    canceledAt?: string | null | undefined;
  },
  stateType: StateType,
): Promise<void> {
  const set: Record<string, Date> = {};
  const created = at(d.createdAt);
  if (created) set.created_at = created;
  const updated = at(d.updatedAt) ?? created;
  if (updated) set.updated_at = updated;
  // Only the date the issue's state implies: a completed issue keeps its completion date, not a cancel date.
  const started = at(d.startedAt);
  if (started && (stateType === 'started' || stateType === 'completed')) set.started_at = started;
  const completed = at(d.completedAt);
  if (completed && stateType === 'completed') set.completed_at = completed;
  const canceled = at(d.canceledAt);
  if (canceled && stateType === 'canceled') set.canceled_at = canceled;
  if (Object.keys(set).length === 0) return;
  await db.updateTable('issues').set(set).where('id', '=', id).execute();
}

export async function setCommentDates(
  db: Db,
  id: string,
  d: { createdAt?: string | undefined; updatedAt?: string | undefined },
): Promise<void> {
  const created = at(d.createdAt);
  const updated = at(d.updatedAt) ?? created;
  if (!created && !updated) return;
  await db
    .updateTable('comments')
    .set({ ...(created ? { created_at: created } : {}), ...(updated ? { updated_at: updated } : {}) })
    .where('id', '=', id)
    .execute();
}

export function stateTypeOf(db: Db, stateId: string) {
  return db.selectFrom('workflow_states').select('type').where('id', '=', stateId).executeTakeFirstOrThrow();
}

// SQL for git connections, their repositories, automation rules and the
// queue of received deliveries (migration 0048).
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type {
  GitAutomationEvent,
  GitConnectionRow,
  GitDeliveryRow,
  GitHost,
  GitRepositoryRow,
  StateRow,
  UserRow,
} from '../../platform/db/tables.js';
import { type PullRequestMarker, pullRequestMarkerSql } from './fields.js';

export function insertConnection(
  db: Db,
  values: {
    host: GitHost;
    name: string;
    webhook_secret: string;
    api_token: string | null;
    api_base_url: string | null;
    backlinks: boolean;
    app_id: string | null;
    app_private_key: string | null;
    app_installation_id: string | null;
    created_by: string;
  },
): Promise<GitConnectionRow> {
  return db.insertInto('git_connections').values(values).returningAll().executeTakeFirstOrThrow();
}

export function listConnections(
  db: Db,
  page: { limit: number; offset: number },
): Promise<GitConnectionRow[]> {
  return db
    .selectFrom('git_connections')
    .selectAll()
    .orderBy('created_at')
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countConnections(db: Db): Promise<number> {
  const r = await db
    .selectFrom('git_connections')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export function findConnection(db: Db, id: string): Promise<GitConnectionRow | undefined> {
  return db.selectFrom('git_connections').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A host's connections, at most `limit` (a delivery is checked against each one's secret). */
export function connectionsOfHost(db: Db, host: GitHost, limit: number): Promise<GitConnectionRow[]> {
  return db
    .selectFrom('git_connections')
    .selectAll()
    .where('host', '=', host)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

export async function deleteConnection(db: Db, id: string): Promise<boolean> {
  const r = await db.deleteFrom('git_connections').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export function repositoriesOf(db: Db, connectionIds: readonly string[]): Promise<GitRepositoryRow[]> {
  if (connectionIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('git_repositories')
    .selectAll()
    .where('connection_id', 'in', connectionIds)
    .orderBy('full_name')
    .execute();
}

/** Replaces a connection's repositories; false when one is already another connection's. */
export async function setRepositories(
  db: Db,
  connection: Pick<GitConnectionRow, 'id' | 'host'>,
  repos: readonly { fullName: string; teamId: string }[],
): Promise<void> {
  await db.deleteFrom('git_repositories').where('connection_id', '=', connection.id).execute();
  if (repos.length === 0) return;
  await db
    .insertInto('git_repositories')
    .values(
      repos.map((r) => ({
        connection_id: connection.id,
        host: connection.host,
        full_name: r.fullName,
        team_id: r.teamId,
      })),
    )
    .execute();
}

export function takenRepositories(
  db: Db,
  host: GitHost,
  names: readonly string[],
  exceptConnection: string | null,
): Promise<{ full_name: string }[]> {
  if (names.length === 0) return Promise.resolve([]);
  let q = db
    .selectFrom('git_repositories')
    .select('full_name')
    .where('host', '=', host)
    .where('full_name', 'in', names);
  if (exceptConnection) q = q.where('connection_id', '<>', exceptConnection);
  return q.execute();
}

export function findRepository(
  db: Db,
  connectionId: string,
  fullName: string,
): Promise<GitRepositoryRow | undefined> {
  return db
    .selectFrom('git_repositories')
    .selectAll()
    .where('connection_id', '=', connectionId)
    .where('full_name', '=', fullName)
    .executeTakeFirst();
}

/** The connection that lists a repository of a host (unique per host), if any. */
export function connectionOfRepository(
  db: Db,
  host: GitHost,
  fullName: string,
): Promise<GitConnectionRow | undefined> {
  return db
    .selectFrom('git_repositories as r')
    .innerJoin('git_connections as c', 'c.id', 'r.connection_id')
    .selectAll('c')
    .where('r.host', '=', host)
    .where('r.full_name', '=', fullName)
    .executeTakeFirst();
}

export async function liveTeamIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('teams')
    .select('id')
    .where('id', 'in', ids)
    .where('archived_at', 'is', null)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** The user whose name moves issues for a connection: its creator while live, else the oldest live admin. */
export async function automationUser(db: Db, createdBy: string | null): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('deleted_at', 'is', null)
    .where((eb) =>
      eb.or([eb('id', '=', createdBy ?? '00000000-0000-0000-0000-000000000000'), eb('role', '=', 'admin')]),
    )
    .orderBy(sql`(id = ${createdBy}) desc nulls last`)
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst() as Promise<UserRow | undefined>;
}

// --- automation rules ---

export function rulesOfTeam(db: Db, teamId: string) {
  return db
    .selectFrom('git_automation_rules')
    .select(['event', 'target_branch', 'state_id'])
    .where('team_id', '=', teamId)
    .orderBy('event')
    .orderBy('target_branch')
    .execute();
}

export async function replaceRules(
  db: Db,
  teamId: string,
  rules: readonly { event: GitAutomationEvent; targetBranch: string; stateId: string | null }[],
): Promise<void> {
  await db.deleteFrom('git_automation_rules').where('team_id', '=', teamId).execute();
  if (rules.length === 0) return;
  await db
    .insertInto('git_automation_rules')
    .values(
      rules.map((r) => ({
        team_id: teamId,
        event: r.event,
        target_branch: r.targetBranch,
        state_id: r.stateId,
      })),
    )
    .execute();
}

/** A team's rule for one step: the target branch's own, else its any-branch one. */
export function ruleFor(db: Db, teamId: string, event: GitAutomationEvent, targetBranch: string) {
  return db
    .selectFrom('git_automation_rules')
    .select(['state_id', 'target_branch'])
    .where('team_id', '=', teamId)
    .where('event', '=', event)
    .where('target_branch', 'in', [targetBranch, ''])
    .orderBy(sql`target_branch = ''`)
    .limit(1)
    .executeTakeFirst();
}

export function liveStatesOf(db: Db, teamId: string): Promise<StateRow[]> {
  return db
    .selectFrom('workflow_states')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('archived_at', 'is', null)
    .orderBy('position')
    .orderBy('created_at')
    .execute();
}

// --- issues a pull request names ---

/** Issue id, team and state type for each identifier (current or former) that names a live issue. */
export async function issuesByIdentifier(db: Db, identifiers: readonly string[]) {
  if (identifiers.length === 0) return [];
  return db
    .selectFrom('issue_identifiers as ii')
    .innerJoin('issues as i', 'i.id', 'ii.issue_id')
    .innerJoin('workflow_states as s', 's.id', 'i.state_id')
    .select(['ii.identifier', 'i.id', 'i.team_id', 'i.state_id', 's.type as state_type'])
    .where('ii.identifier', 'in', identifiers)
    .where('i.archived_at', 'is', null)
    .execute();
}

/** Live attachments of one source pointing at `url` (a pull request's links), with their issue. */
/** Each issue's pull request marker (git/fields.ts), for GraphQL's fallback loader. */
export async function pullRequestMarkersOf(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, PullRequestMarker | null>> {
  if (!ids.length) return new Map();
  const { rows } = await sql<{ id: string; marker: PullRequestMarker | null }>`
    select t.id::text, ${pullRequestMarkerSql(sql.ref('t'))} as marker from issues t
    where t.id in (${sql.join(ids.map((id) => sql`${id}::uuid`))})`.execute(db);
  return new Map(rows.map((r) => [r.id, r.marker]));
}

/** Live pull request attachments of a repository whose head is `sha` (the index of migration 0057). */
export async function pullsAtHead(db: Db, host: string, repo: string, sha: string) {
  const { rows } = await sql<{ id: string; metadata: Record<string, unknown> }>`
    select a.id::text, a.metadata from attachments a
    where a.source_type = ${host} and a.metadata->>'repo' = ${repo} and a.metadata->>'headSha' = ${sha}
      and a.source_type in ('github', 'gitlab', 'gitea') and a.archived_at is null
    order by a.id limit 100`.execute(db);
  return rows;
}

export function attachmentsAt(db: Db, sourceType: string, url: string) {
  return db
    .selectFrom('attachments')
    .select(['id', 'issue_id', 'metadata'])
    .where('url', '=', url)
    .where('source_type', '=', sourceType)
    .where('archived_at', 'is', null)
    .execute();
}

// --- the delivery queue ---

/** Queues a delivery; false when its id was already received (a replay). */
export async function enqueueDelivery(
  db: Db,
  d: { host: GitHost; deliveryId: string; connectionId: string; event: string; payload: string },
): Promise<string | null> {
  const row = await db
    .insertInto('git_deliveries')
    .values({
      host: d.host,
      delivery_id: d.deliveryId,
      connection_id: d.connectionId,
      event: d.event,
      payload: d.payload,
    })
    .onConflict((oc) => oc.columns(['host', 'delivery_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}

export type ClaimedDelivery = Pick<
  GitDeliveryRow,
  'id' | 'host' | 'connection_id' | 'event' | 'payload' | 'attempts'
>;

export async function claimDue(db: Db, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  const r = await sql<ClaimedDelivery>`
    with claimable as (
      select id from git_deliveries
      where status in ('pending', 'working') and next_attempt_at <= now()
        and (status = 'pending' or lease_until < now())
      order by received_at, id
      limit ${limit}
      for update skip locked
    )
    update git_deliveries d
    set status = 'working',
        lease_until = now() + make_interval(secs => ${leaseMs / 1000}),
        attempts = d.attempts + 1
    from claimable c
    where d.id = c.id
    returning d.id, d.host, d.connection_id, d.event, d.payload, d.attempts
  `.execute(db);
  return r.rows;
}

/** Records an attempt's end, unless another worker claimed the delivery since. */
export async function settleDelivery(
  db: Db,
  job: ClaimedDelivery,
  outcome:
    | { status: 'done'; outcome: string }
    | { status: 'failed'; error: string }
    | { status: 'pending'; error: string; retryInMs: number },
): Promise<void> {
  await db
    .updateTable('git_deliveries')
    .set({
      status: outcome.status,
      lease_until: null,
      ...(outcome.status === 'done'
        ? { outcome: outcome.outcome, processed_at: sql<Date>`now()`, last_error: null }
        : { last_error: outcome.error }),
      ...(outcome.status === 'pending'
        ? { next_attempt_at: sql<Date>`now() + make_interval(secs => ${outcome.retryInMs / 1000})` }
        : {}),
      ...(outcome.status === 'failed' ? { processed_at: sql<Date>`now()` } : {}),
    })
    .where('id', '=', job.id)
    .where('attempts', '=', job.attempts)
    .execute();
}

export function listDeliveries(db: Db, page: { limit: number; offset: number }) {
  return db
    .selectFrom('git_deliveries')
    .select([
      'id',
      'host',
      'delivery_id',
      'connection_id',
      'event',
      'status',
      'attempts',
      'outcome',
      'last_error',
      'received_at',
      'processed_at',
    ])
    .orderBy('received_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

// --- back-link comments (migration 0051) ---

/** Queues a back-link per issue a pull request links; an existing one (posted or not) is kept: one comment each. */
export async function queueBacklinks(
  db: Db,
  rows: readonly {
    connectionId: string;
    pullUrl: string;
    issueId: string;
    apiRepo: string;
    number: number;
    repoPrivate: boolean;
  }[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const r = await db
    .insertInto('git_backlinks')
    .values(
      rows.map((b) => ({
        connection_id: b.connectionId,
        pull_url: b.pullUrl,
        issue_id: b.issueId,
        api_repo: b.apiRepo,
        number: b.number,
        repo_private: b.repoPrivate,
      })),
    )
    .onConflict((oc) => oc.columns(['connection_id', 'pull_url', 'issue_id']).doNothing())
    .returning('id')
    .execute();
  return r.length;
}

export interface ClaimedBacklink {
  id: string;
  attempts: number;
  connection_id: string;
  api_repo: string;
  number: number;
  repo_private: boolean;
  issue_id: string;
  /** When it was queued: a retry reads the pull request's comments since then. */
  created_at: Date;
}

export async function claimBacklinks(db: Db, limit: number, leaseMs: number): Promise<ClaimedBacklink[]> {
  const r = await sql<ClaimedBacklink>`
    with claimable as (
      select id from git_backlinks
      where status in ('pending', 'working') and next_attempt_at <= now()
        and (status = 'pending' or lease_until < now())
      order by created_at, id
      limit ${limit}
      for update skip locked
    )
    update git_backlinks b
    set status = 'working',
        lease_until = now() + make_interval(secs => ${leaseMs / 1000}),
        attempts = b.attempts + 1
    from claimable c
    where b.id = c.id
    returning b.id, b.attempts, b.connection_id, b.api_repo, b.number, b.repo_private, b.issue_id, b.created_at
  `.execute(db);
  return r.rows;
}

/** What a back-link says about its issue: identifier, title and whether its team is private. */
export function backlinkIssue(db: Db, issueId: string) {
  return db
    .selectFrom('issues as i')
    .innerJoin('teams as t', 't.id', 'i.team_id')
    .select(['i.identifier', 'i.title', 't.private'])
    .where('i.id', '=', issueId)
    .executeTakeFirst();
}

/** Records a back-link attempt's end, unless another worker claimed it since. */
export async function settleBacklink(
  db: Db,
  job: Pick<ClaimedBacklink, 'id' | 'attempts'>,
  outcome:
    | { status: 'posted'; commentId: string | null }
    | { status: 'failed'; error: string }
    | { status: 'pending'; error: string; retryInMs: number },
): Promise<void> {
  await db
    .updateTable('git_backlinks')
    .set({
      status: outcome.status,
      lease_until: null,
      ...(outcome.status === 'posted'
        ? { comment_id: outcome.commentId, posted_at: sql<Date>`now()`, last_error: null }
        : { last_error: outcome.error }),
      ...(outcome.status === 'pending'
        ? { next_attempt_at: sql<Date>`now() + make_interval(secs => ${outcome.retryInMs / 1000})` }
        : {}),
    })
    .where('id', '=', job.id)
    .where('attempts', '=', job.attempts)
    .execute();
}

export function updateConnection(
  db: Db,
  id: string,
  patch: {
    name?: string;
    webhook_secret?: string;
    api_token?: string | null;
    api_base_url?: string | null;
    backlinks?: boolean;
    app_id?: string | null;
    app_private_key?: string | null;
    app_installation_id?: string | null;
  },
): Promise<GitConnectionRow | undefined> {
  return db
    .updateTable('git_connections')
    .set({ ...patch, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

// SQL of the inbox. Every read is the caller's own rows whose issue or
// project they still see (platform/access.ts visibility.notification, the
// rule GraphQL's notifications list applies too), so a notification about an
// issue moved to a team they left disappears. Writing notifications
// (notify.ts) reaches only users who see the issue's team (platform/access.ts
// `userSeesTeam`) or the project (`userSeesProject`).
import { type Expression, type SqlBool, sql } from 'kysely';
import { type TeamAccess, userSeesProject, userSeesTeam, visibility } from '../../platform/access.js';
import type { Db } from '../../platform/db/database.js';
import { isUuid } from '../../platform/ids.js';
import { timeKey } from '../../platform/list/order.js';
import { offsetPage } from '../../platform/list/runner.js';
import { type PageRequest, windowOf } from '../../platform/list/window.js';

export interface InboxFilter {
  /** true: archived only; false or absent: the inbox (unarchived, not snoozed). */
  archived?: boolean | undefined;
  /** true: unread only; false: read only. */
  unread?: boolean | undefined;
}

/** A notification's columns as GraphQL's list reads them (alias t): the row, and its issue's team. */
export const notificationListColumns = sql`t.*, (select i.team_id from issues i where i.id = t.issue_id) as issue_team_id`;

/** GraphQL's inboxNotifications over the list's rows (alias t): not snoozed (until its time), unread if asked. */
export const inboxConditions = (now: Date, unreadOnly: boolean) => [
  sql<SqlBool>`(t.snoozed_until_at is null or t.snoozed_until_at <= ${now})`,
  ...(unreadOnly ? [sql<SqlBool>`t.read_at is null`] : []),
];

const base = (db: Db, access: TeamAccess) =>
  db
    .selectFrom('notifications as n')
    .leftJoin('issues as i', 'i.id', 'n.issue_id')
    .where(visibility.notification('n', access) as Expression<SqlBool>);

/** The rows a list or count sees: archived ones apart; snoozed ones hidden until their time. */
function filtered(db: Db, access: TeamAccess, f: InboxFilter, now: Date) {
  let q = base(db, access).where(sql<SqlBool>`(n.archived_at is not null) = ${f.archived === true}`);
  if (f.archived !== true) {
    q = q.where((eb) => eb.or([eb('n.snoozed_until_at', 'is', null), eb('n.snoozed_until_at', '<=', now)]));
  }
  if (f.unread !== undefined) q = q.where('n.read_at', f.unread ? 'is' : 'is not', null);
  return q;
}

const COLUMNS = [
  'n.id',
  'n.type',
  'n.issue_id',
  'n.project_id',
  'n.project_update_id',
  'n.comment_id',
  'n.parent_comment_id',
  'n.actor_id',
  'n.issue_status_type',
  'n.created_at',
  'n.updated_at',
  'n.read_at',
  'n.archived_at',
  'n.snoozed_until_at',
  'n.user_id',
  'i.identifier as issue_identifier',
  'i.title as issue_title',
  'i.team_id as issue_team_id',
] as const;

/**
 * With the issue's identifier and title and the actor's names: one statement
 * for a page. An actor the caller may not see (a guest sees only the people
 * of their teams) joins as none, so REST answers `actor: null` as GraphQL does.
 */
function withDetails<Q extends ReturnType<typeof base>>(q: Q, access: TeamAccess) {
  const seen = access.all || !access.guest ? sql<SqlBool>`true` : visibility.user('a', access);
  return q
    .leftJoin('users as a', (j) => j.onRef('a.id', '=', 'n.actor_id').on(seen as Expression<SqlBool>))
    .select([...COLUMNS, 'a.name as actor_name', 'a.display_name as actor_display_name']);
}

export type NotificationRecord = Awaited<ReturnType<typeof findNotification>> & {};

export function findNotification(db: Db, id: string, access: TeamAccess) {
  if (!isUuid(id)) return Promise.resolve(undefined);
  return withDetails(base(db, access).where('n.id', '=', id), access).executeTakeFirst();
}

/** A page of the inbox, newest first, and how many it holds (the list runner's page and total). */
export function listNotifications(db: Db, access: TeamAccess, f: InboxFilter, page: PageRequest, now: Date) {
  const order = timeKey('createdAt', 'desc');
  const rows = withDetails(filtered(db, access, f, now), access);
  return offsetPage<NotificationRecord>(
    db,
    { from: sql`(${rows}) as t`, archivable: false },
    order,
    windowOf(page, order),
  );
}

export async function countNotifications(db: Db, access: TeamAccess, f: InboxFilter, now: Date) {
  const row = await filtered(db, access, f, now)
    .select((e) => e.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface NotificationPatch {
  read_at?: Date | null;
  archived_at?: Date | null;
  snoozed_until_at?: Date | null;
}

export async function updateNotification(db: Db, id: string, patch: NotificationPatch): Promise<void> {
  await db
    .updateTable('notifications')
    .set({ ...patch, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .execute();
}

/** Marks every unread inbox row the caller sees as read; returns how many. */
export async function markAllRead(db: Db, access: TeamAccess, now: Date): Promise<number> {
  const ids = filtered(db, access, { unread: true }, now).select('n.id');
  const res = await db
    .updateTable('notifications')
    .set({ read_at: now, updated_at: now })
    .where('id', 'in', ids)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** What one inbox entry gathers: the notifications about one issue, or about one project. */
export type NotificationGroup = { issueId: string } | { projectId: string };

/** The group a notification is in. */
export const groupOf = (n: { issue_id: string | null; project_id: string | null }): NotificationGroup =>
  n.project_id ? { projectId: n.project_id } : { issueId: n.issue_id! };

/** The caller's notifications of one group, newest first (notifications_issue, notifications_project). */
export function notificationsAbout(db: Db, access: TeamAccess, group: NotificationGroup) {
  const q = base(db, access);
  const about =
    'projectId' in group
      ? q.where('n.project_id', '=', group.projectId)
      : q.where('n.issue_id', '=', group.issueId);
  return withDetails(about, access).orderBy('n.created_at', 'desc').orderBy('n.id', 'desc').execute();
}

/**
 * Applies a patch to many rows, touching only those it changes (so their
 * updated_at stays honest); a row already read or archived keeps its time.
 */
export async function updateNotifications(db: Db, ids: string[], patch: NotificationPatch): Promise<void> {
  if (ids.length === 0) return;
  const set: Record<string, unknown> = { updated_at: sql<Date>`now()` };
  const changes: ReturnType<typeof sql<SqlBool>>[] = [];
  for (const [column, value] of Object.entries(patch) as [keyof NotificationPatch, Date | null][]) {
    const c = sql.ref(column);
    if (value === null) {
      set[column] = null;
      changes.push(sql<SqlBool>`${c} is not null`);
    } else if (column === 'snoozed_until_at') {
      set[column] = value;
      changes.push(sql<SqlBool>`${c} is distinct from ${value}`);
    } else {
      set[column] = sql`coalesce(${c}, ${value})`;
      changes.push(sql<SqlBool>`${c} is null`);
    }
  }
  if (changes.length === 0) return;
  await db
    .updateTable('notifications')
    .set(set)
    .where('id', 'in', ids)
    .where(sql<SqlBool>`(${sql.join(changes, sql` or `)})`)
    .execute();
}

export async function isSubscribed(db: Db, issueId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('issue_subscribers')
    .select('user_id')
    .where('issue_id', '=', issueId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function unsubscribe(db: Db, issueId: string, userId: string): Promise<void> {
  await db
    .deleteFrom('issue_subscribers')
    .where('issue_id', '=', issueId)
    .where('user_id', '=', userId)
    .execute();
}

/** `users u` sees `teams t` (the one rule, over the rows of the statements below). */
const userSeesT = userSeesTeam({ id: sql.ref('u.id'), role: sql.ref('u.role') }, 't');

/** Live users, each named alone by its lower-cased display name. */
export async function liveUsersNamedAlone(db: Db, names: string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const rows = await sql<{ id: string }>`
    select min(id::text)::uuid as id from users
    where deleted_at is null and lower(display_name) in (${sql.join(names)})
    group by lower(display_name) having count(*) = 1`.execute(db);
  return rows.rows.map((r) => r.id);
}

/** Subscribes those of `userIds` who are live and see the issue's team. */
export async function subscribeWhoSees(db: Db, issueId: string, userIds: string[]): Promise<void> {
  if (userIds.length === 0) return;
  await sql`insert into issue_subscribers (issue_id, user_id)
    select i.id, u.id from issues i join teams t on t.id = i.team_id
    join users u on u.id in (${sql.join(userIds.map((id) => sql`${id}::uuid`))}) and u.deleted_at is null
    where i.id = ${issueId}::uuid and ${userSeesT}
    on conflict do nothing`.execute(db);
}

export async function issueSubscribers(db: Db, issueId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('issue_subscribers')
    .select('user_id')
    .where('issue_id', '=', issueId)
    .execute();
  return rows.map((r) => r.user_id);
}

/** Who wrote a comment (null or undefined when unknown or gone). */
export async function commentAuthor(db: Db, commentId: string): Promise<string | null | undefined> {
  const row = await db
    .selectFrom('comments')
    .select('user_id')
    .where('id', '=', commentId)
    .executeTakeFirst();
  return row?.user_id;
}

/** The change a batch of notifications is about. */
export interface NotificationChange {
  issueId: string;
  actorId: string;
  commentId?: string | null;
  parentCommentId?: string | null;
  issueStatusType?: string | null;
}

/**
 * One statement: a notification of the given kind per recipient who is live
 * and sees the issue's team now; returns the rows written with the issue's team.
 */
export async function insertNotifications<T extends string>(
  db: Db,
  change: NotificationChange,
  byUser: ReadonlyMap<string, T>,
): Promise<{ id: string; user_id: string; type: T; team_id: string }[]> {
  if (byUser.size === 0) return [];
  const values = [...byUser].map(([u, type]) => sql`(${u}::uuid, ${type}::text)`);
  const written = await sql<{
    id: string;
    user_id: string;
    type: T;
    team_id: string;
  }>`insert into notifications
      (user_id, type, issue_id, comment_id, parent_comment_id, actor_id, issue_status_type)
    select u.id, v.type, i.id, ${change.commentId ?? null}::uuid, ${change.parentCommentId ?? null}::uuid,
      ${change.actorId}::uuid, ${change.issueStatusType ?? null}::text
    from (values ${sql.join(values)}) as v (user_id, type)
    join users u on u.id = v.user_id and u.deleted_at is null
    join issues i on i.id = ${change.issueId}::uuid
    join teams t on t.id = i.team_id
    where ${userSeesT}
    returning id, user_id, type, (select i2.team_id from issues i2 where i2.id = notifications.issue_id) as team_id`.execute(
    db,
  );
  return written.rows;
}

/** The people who hear of a project's updates: its lead and its members. */
export async function projectPeople(db: Db, projectId: string): Promise<string[]> {
  const rows = await sql<{ user_id: string }>`
    select lead_id as user_id from projects where id = ${projectId}::uuid and lead_id is not null
    union select user_id from project_members where project_id = ${projectId}::uuid`.execute(db);
  return rows.rows.map((r) => r.user_id);
}

/** What a project's notifications are about: the project, and the update that made them. */
export interface ProjectNotificationChange {
  projectId: string;
  projectUpdateId: string;
  actorId: string;
}

/** `users u` sees `projects p` (the project rule of platform/access.ts, for any user). */
const userSeesP = userSeesProject({ id: sql.ref('u.id'), role: sql.ref('u.role') }, 'p');

/**
 * One statement: a notification of the given kind per recipient who is live
 * and sees the project now; returns the rows written.
 */
export async function insertProjectNotifications<T extends string>(
  db: Db,
  change: ProjectNotificationChange,
  byUser: ReadonlyMap<string, T>,
): Promise<{ id: string; user_id: string; type: T }[]> {
  if (byUser.size === 0) return [];
  const values = [...byUser].map(([u, type]) => sql`(${u}::uuid, ${type}::text)`);
  const written = await sql<{ id: string; user_id: string; type: T }>`insert into notifications
      (user_id, type, project_id, project_update_id, actor_id)
    select u.id, v.type, p.id, ${change.projectUpdateId}::uuid, ${change.actorId}::uuid
    from (values ${sql.join(values)}) as v (user_id, type)
    join users u on u.id = v.user_id and u.deleted_at is null
    join projects p on p.id = ${change.projectId}::uuid
    where ${userSeesP}
    returning id, user_id, type`.execute(db);
  return written.rows;
}

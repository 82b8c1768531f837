// SQL for users. Every function takes the connection or transaction it runs in.
import { sql } from 'kysely';
import type { TeamAccess } from '../../platform/access.js';
import type { Db } from '../../platform/db/database.js';
import type { NewUser, Role, UserRow, UserStatus } from '../../platform/db/tables.js';
import { isUuid } from '../../platform/ids.js';
import { userEntity } from '../../platform/list/entities.js';
import { timeKey } from '../../platform/list/order.js';
import { restList } from '../../platform/list/query.js';

const live = (db: Db) => db.selectFrom('users').where('deleted_at', 'is', null);

/** findLiveUserById's match as a condition over the user row under `alias`; undefined when none can match. */
export function liveUserCondition(alias: string, id: string) {
  if (!isUuid(id)) return undefined;
  return sql<boolean>`${sql.ref(`${alias}.id`)} = ${id}::uuid and ${sql.ref(`${alias}.deleted_at`)} is null`;
}

export function findLiveUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return live(db).selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * A live user's row, locked until the transaction ends. Not an app's own user
 * (actor=app): no admin change, deletion or membership applies to it.
 */
export function lockLiveUser(db: Db, id: string): Promise<UserRow | undefined> {
  return live(db)
    .selectAll()
    .where('id', '=', id)
    .where('status', '<>', 'app')
    .forUpdate()
    .executeTakeFirst();
}

export function findUsersByIds(db: Db, ids: readonly string[]): Promise<UserRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('users')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
}

export function findLiveUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return live(db).selectAll().where(sql`lower(email)`, '=', email.toLowerCase()).executeTakeFirst();
}

export function insertUser(db: Db, user: NewUser): Promise<UserRow> {
  return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
}

export function updateUser(
  db: Db,
  id: string,
  patch: Partial<{
    name: string;
    display_name: string;
    role: Role;
    status: UserStatus;
    password_hash: string;
  }> & {
    bumpEpoch?: boolean;
  },
): Promise<UserRow | undefined> {
  const { bumpEpoch, ...columns } = patch;
  return db
    .updateTable('users')
    .set({
      ...columns,
      ...(bumpEpoch ? { session_epoch: sql<number>`session_epoch + 1` } : {}),
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

export async function softDeleteUser(db: Db, id: string): Promise<boolean> {
  const r = await db
    .updateTable('users')
    .set({
      deleted_at: sql<Date>`now()`,
      updated_at: sql<Date>`now()`,
      session_epoch: sql<number>`session_epoch + 1`,
    })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * Locks the rows of every active admin until the transaction ends and returns
 * their ids. Two transactions demoting different admins serialise here, and the
 * second re-reads the first one's outcome, so the last admin always survives.
 */
export async function lockActiveAdmins(db: Db): Promise<string[]> {
  const rows = await live(db)
    .select('id')
    .where('role', '=', 'admin')
    .where('status', '=', 'active')
    .orderBy('id')
    .forUpdate()
    .execute();
  return rows.map((r) => r.id);
}

/** A page of the live users the caller sees (the user entity's rule), oldest first, with the total. */
export function listVisibleUsers(db: Db, access: TeamAccess, page: { limit: number; offset: number }) {
  return restList<UserRow>(db, {
    entity: userEntity,
    access,
    // An app's own user (actor=app) is no one's colleague: never listed.
    scope: [sql`t.deleted_at is null`, sql`t.status <> 'app'`],
    now: new Date(),
    actorId: access.userId,
    from: sql`users as t`,
    archivable: false,
    sort: timeKey('createdAt', 'asc'),
    limit: page.limit,
    offset: page.offset,
  });
}

// Changes that may remove an admin take this transaction-scoped lock first, so
// they run one at a time. Locking the target row and then every admin row
// instead lets two admins demoting each other deadlock (each holds its target
// and waits for the other's), which PostgreSQL resolves by failing one of them.
const ADMIN_CHANGES_LOCK = 727_003;
export const serialiseAdminChanges = (trx: Db) =>
  sql`select pg_advisory_xact_lock(${ADMIN_CHANGES_LOCK})`.execute(trx);

/**
 * What a deleted account leaves behind: its API keys and memberships go, and
 * it is unassigned from every issue; what it wrote stays.
 */
export async function detachDeletedUser(trx: Db, id: string): Promise<void> {
  await trx.deleteFrom('api_keys').where('user_id', '=', id).execute();
  await trx.deleteFrom('team_memberships').where('user_id', '=', id).execute();
  await trx
    .updateTable('issues')
    .set({ assignee_id: null, updated_at: sql<Date>`now()` })
    .where('assignee_id', '=', id)
    .execute();
}

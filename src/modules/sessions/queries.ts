// SQL for sign-in sessions (migration 0042). Every function takes the
// connection or transaction it runs in.
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { SessionRow } from '../../platform/db/tables.js';

export interface NewSession {
  userId: string;
  ip: string;
  userAgent: string | null;
  method: SignInMethod;
}

export type SignInMethod = 'password' | 'registration' | 'passwordChange' | 'sso';

export function insertSession(db: Db, s: NewSession): Promise<SessionRow> {
  return db
    .insertInto('sessions')
    .values({ user_id: s.userId, ip: s.ip, user_agent: s.userAgent, method: s.method })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The session with this id, live or not; undefined when there is none. */
export function findSession(db: Db, id: string): Promise<SessionRow | undefined> {
  return db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Records a use. Callers write at most once a minute per session (the
 * remembered time says when), and the condition keeps racing instances from
 * writing the same minute twice.
 */
export async function touchSession(db: Db, id: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ last_used_at: sql`now()` })
    .where('id', '=', id)
    .where('ended_at', 'is', null)
    .where('last_used_at', '<', sql<Date>`now() - interval '1 minute'`)
    .execute();
}

/**
 * A user's live sessions, last used first; at most `limit` from `offset`, and
 * how many there are. A session older than its tokens' lifetime is over
 * (its tokens have expired) though nobody ended it.
 */
export async function liveSessions(
  db: Db,
  userId: string,
  page: { limit: number; offset: number },
  lifetimeSeconds: number,
): Promise<{ rows: SessionRow[]; total: number }> {
  const base = db
    .selectFrom('sessions')
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null)
    .where('created_at', '>', sql<Date>`now() - make_interval(secs => ${lifetimeSeconds})`);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('last_used_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    base.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/**
 * Ends the user's live sessions: the one named by `only`, or all of them but
 * `except`. Returns the sessions it ended.
 */
export function endSessions(
  db: Db,
  userId: string,
  endedBy: string | null,
  which: { only: string } | { except: string | null },
): Promise<SessionRow[]> {
  let q = db
    .updateTable('sessions')
    .set({ ended_at: sql`now()`, ended_by: endedBy })
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null);
  if ('only' in which) q = q.where('id', '=', which.only);
  else if (which.except) q = q.where('id', '<>', which.except);
  return q.returningAll().execute();
}

/**
 * Keeps a user's live sessions to the `keep` most recently used, ending the
 * rest, and forgets sessions that ended over 30 days ago: signing in again and
 * again cannot grow the table without bound.
 */
export async function endSessionsBeyond(db: Db, userId: string, keep: number): Promise<void> {
  await sql`update sessions set ended_at = now()
    where user_id = ${userId}::uuid and ended_at is null and id not in (
      select id from sessions where user_id = ${userId}::uuid and ended_at is null
      order by last_used_at desc, id desc limit ${keep})`.execute(db);
  await sql`delete from sessions
    where user_id = ${userId}::uuid and ended_at < now() - interval '30 days'`.execute(db);
}

// The change stream's only SQL: pages of events in id order, the head,
// which transactions are writing events (pg_locks, the same on PGlite): what
// tells a hole left by a transaction still open from one left by a rollback;
// and the standing of the users a batch goes to (grants.ts).
import { sql } from 'kysely';
import { userSeesTeam } from '../../platform/access.js';
import type { Db } from '../../platform/db/database.js';
import type { EventScopeKind, Role } from '../../platform/db/tables.js';

export interface StreamEventRow {
  id: number;
  type: string;
  action: string;
  created_at: Date;
  scope: EventScopeKind | null;
  team_ids: string[];
  /** The one person a 'user' event is for (a notification's recipient). */
  user_id: string | null;
  /** The record's id and the references a client needs to refetch it (never its content). */
  record_id: string | null;
  issue_id: string | null;
  related_issue_id: string | null;
  project_id: string | null;
  identifier: string | null;
  /** Names of the fields an update changed (from updatedFrom). */
  changed: string[] | null;
}

/** Up to `limit` events after `after`, oldest first; only the columns a stream sends or filters on. */
export async function eventsAfter(db: Db, after: number, limit: number): Promise<StreamEventRow[]> {
  const { rows } = await sql<StreamEventRow>`
    select id, type, action, created_at, scope, to_jsonb(team_ids) as team_ids, user_id,
      payload->'data'->>'id' as record_id,
      payload->'data'->>'issueId' as issue_id,
      payload->'data'->>'relatedIssueId' as related_issue_id,
      payload->'data'->>'projectId' as project_id,
      payload->'data'->>'identifier' as identifier,
      (select jsonb_agg(k) from jsonb_object_keys(
         case when jsonb_typeof(payload->'updatedFrom') = 'object' then payload->'updatedFrom' else '{}' end) k
       where k <> 'updatedAt') as changed
    from webhook_events where id > ${after} order by id limit ${limit}`.execute(db);
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/**
 * The transactions that are writing events now: every insert into
 * webhook_events holds the table's RowExclusiveLock from before it takes its
 * id until the transaction ends, so these are exactly the ones that may still
 * add an id below one already committed. Unrelated transactions (and other
 * databases of the cluster) do not count.
 */
export async function eventWriters(db: Db): Promise<Set<string>> {
  const { rows } = await sql<{ vxid: string }>`
    select virtualtransaction as vxid from pg_locks
    where locktype = 'relation' and mode = 'RowExclusiveLock'
      and relation = 'webhook_events'::regclass
      and database = (select oid from pg_database where datname = current_database())`.execute(db);
  return new Set(rows.map((r) => r.vxid));
}

export async function headId(db: Db): Promise<number> {
  const { rows } = await sql<{
    id: number | string;
  }>`select coalesce(max(id), 0) as id from webhook_events`.execute(db);
  return Number(rows[0]!.id);
}

export interface GrantRow {
  id: string;
  role: Role;
  status: string;
  session_epoch: number;
  key_hashes: string[];
  /** The user's live sign-in sessions. */
  session_ids: string[];
  /** The teams the user sees now; empty for admins, who see all. */
  team_ids: string[];
}

/** One row per live user among `userIds`: role, status, epoch, key hashes, live sessions and visible teams. */
export async function grantRows(db: Db, userIds: readonly string[]): Promise<GrantRow[]> {
  if (userIds.length === 0) return [];
  const sees = userSeesTeam({ id: sql.ref('u.id'), role: sql.ref('u.role') }, 't');
  const { rows } = await sql<GrantRow>`
    select u.id, u.role, u.status, u.session_epoch,
      coalesce((select jsonb_agg(k.key_hash) from api_keys k where k.user_id = u.id), '[]') as key_hashes,
      coalesce((select jsonb_agg(s.id) from sessions s where s.user_id = u.id and s.ended_at is null), '[]') as session_ids,
      case when u.role = 'admin' then '[]'::jsonb
        else coalesce((select jsonb_agg(t.id) from teams t where ${sees}), '[]') end as team_ids
    from users u
    where u.deleted_at is null and u.id in (${sql.join(userIds.map((id) => sql`${id}::uuid`))})`.execute(db);
  return rows;
}

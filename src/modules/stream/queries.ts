// The change stream's only SQL: pages of events in id order, the head, and
// the transaction horizon (PostgreSQL snapshots, the same on PGlite) that
// tells a hole left by a transaction still open from one left by a rollback.
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { EventScopeKind } from '../../platform/db/tables.js';

export interface StreamEventRow {
  id: number;
  type: string;
  action: string;
  created_at: Date;
  scope: EventScopeKind | null;
  team_ids: string[];
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
    select id, type, action, created_at, scope, to_jsonb(team_ids) as team_ids,
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

export interface Horizon {
  /** Every transaction with an id below this has ended. */
  xmin: bigint;
  /** Every transaction with an id at or above this had not started. */
  xmax: bigint;
}

export async function horizon(db: Db): Promise<Horizon> {
  const { rows } = await sql<{ xmin: string; xmax: string }>`
    select pg_snapshot_xmin(pg_current_snapshot())::text as xmin,
           pg_snapshot_xmax(pg_current_snapshot())::text as xmax`.execute(db);
  const row = rows[0]!;
  return { xmin: BigInt(row.xmin), xmax: BigInt(row.xmax) };
}

/** The newest event id and, from the same snapshot, the transactions that may still add older ones. */
export async function head(db: Db): Promise<{ id: number; xmax: bigint }> {
  const { rows } = await sql<{ id: number | string; xmax: string }>`
    select coalesce(max(id), 0) as id, pg_snapshot_xmax(pg_current_snapshot())::text as xmax
    from webhook_events`.execute(db);
  return { id: Number(rows[0]!.id), xmax: BigInt(rows[0]!.xmax) };
}

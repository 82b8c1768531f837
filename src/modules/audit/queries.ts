// SQL for the audit log (migration 0041). Entries are only ever inserted here;
// the retention job's delete is the one other statement the table accepts.

import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { AuditEntriesTable } from '../../platform/db/tables.js';
import { escapeLike } from '../../platform/list/filter.js';

export type AuditEntryRow = Selectable<AuditEntriesTable>;

export async function insertAuditEntry(db: Db, entry: Insertable<AuditEntriesTable>): Promise<void> {
  await db.insertInto('audit_entries').values(entry).execute();
}

/** What an admin narrows the log to: each condition has an index (migrations 0041, 0045, 0047). */
export interface AuditFilter {
  types?: string[] | undefined;
  actorId?: string | undefined;
  entityId?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  /** Any of these spellings of one address (read.ts auditIpSpellings), exactly. */
  ips?: string[] | undefined;
  /** Text found, in any case, in the actor's label, the target's label or the type: 1 to 200 characters. */
  search?: string | undefined;
}

function filtered(db: Db, f: AuditFilter) {
  let q = db.selectFrom('audit_entries');
  if (f.types?.length) q = q.where('type', 'in', f.types);
  if (f.actorId) q = q.where('actor_id', '=', f.actorId);
  if (f.entityId) q = q.where('entity_id', '=', f.entityId);
  if (f.from) q = q.where('created_at', '>=', f.from);
  if (f.to) q = q.where('created_at', '<', f.to);
  if (f.ips?.length) q = q.where('ip', 'in', f.ips);
  if (f.search) {
    // Each ILIKE is a lookup in the trigram index over the three columns
    // (0047), OR-ed as a bitmap. Text shorter than a trigram cannot use it and
    // reads the entries the other filters leave, no more than the unfiltered
    // page's count does (docs/identity.md, "Reading it"). LIKE's default escape
    // character is the backslash escapeLike uses.
    const pattern = `%${escapeLike(f.search)}%`;
    q = q.where((eb) =>
      eb.or([
        eb('actor_label', 'ilike', pattern),
        eb('entity_label', 'ilike', pattern),
        eb('type', 'ilike', pattern),
      ]),
    );
  }
  return q;
}

/** A page of entries, newest first, and how many match. */
export async function auditPage(
  db: Db,
  f: AuditFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: AuditEntryRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    filtered(db, f)
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    filtered(db, f).select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** The entries after `after` (newest first), `size` at a time: the export's pages, by key, never by offset. */
export function auditBatch(
  db: Db,
  f: AuditFilter,
  after: { createdAt: Date; id: string } | null,
  size: number,
): Promise<AuditEntryRow[]> {
  let q = filtered(db, f).selectAll();
  if (after) q = q.where(sql<boolean>`(created_at, id) < (${after.createdAt}, ${after.id}::uuid)`);
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(size).execute();
}

/**
 * Deletes up to `batch` entries older than `days` days, in `trx`, which must
 * have named the period (trackway.audit_retention_days): the table's trigger
 * lets no other delete through. How many it deleted.
 */
export async function pruneOldEntries(trx: Db, days: number, batch: number): Promise<number> {
  await sql`select set_config('trackway.audit_retention_days', ${String(days)}, true)`.execute(trx);
  const r = await sql`delete from audit_entries where id in (
    select id from audit_entries where created_at < now() - make_interval(days => ${days})
    order by created_at limit ${batch})`.execute(trx);
  return Number(r.numAffectedRows ?? 0);
}

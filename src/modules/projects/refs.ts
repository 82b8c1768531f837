// Lookups of records this domain (and cycles) refer to by id. Reads the
// tables directly so projects and cycles do not depend on the teams module.
import { canSeeTeam, type TeamAccess } from '../../platform/access.js';
import type { Db } from '../../platform/db/database.js';
import type { TeamRow } from '../../platform/db/tables.js';
import { isUuid } from '../../platform/ids.js';

export { isUuid };

/** The workspace's first team (oldest live one): the default for new records. */
export function firstTeam(db: Db): Promise<TeamRow | undefined> {
  return db
    .selectFrom('teams')
    .selectAll()
    .where('archived_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

/** A team by id or by key (e.g. "ENG"). */
export function findTeamByRef(db: Db, ref: string): Promise<TeamRow | undefined> {
  const q = db.selectFrom('teams').selectAll();
  return (isUuid(ref) ? q.where('id', '=', ref) : q.where('key', '=', ref.toUpperCase())).executeTakeFirst();
}

/** The subset of `ids` that are live (not deleted) users. */
export async function existingUserIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return new Set();
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('id', 'in', valid)
    .where('deleted_at', 'is', null)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** Resolves team ids or keys to ids; returns the refs that match no team in `missing`. */
export async function resolveTeamRefs(
  db: Db,
  refs: readonly string[],
  access: TeamAccess,
): Promise<{ ids: string[]; missing: string[] }> {
  if (refs.length === 0) return { ids: [], missing: [] };
  const uuids = refs.filter(isUuid);
  const keys = refs.filter((r) => !isUuid(r)).map((r) => r.toUpperCase());
  const rows = await db
    .selectFrom('teams')
    .select(['id', 'key'])
    .where((eb) =>
      eb.or([
        ...(uuids.length ? [eb('id', 'in', uuids)] : []),
        ...(keys.length ? [eb('key', 'in', keys)] : []),
      ]),
    )
    .execute();
  const ids: string[] = [];
  const missing: string[] = [];
  for (const ref of refs) {
    const row = rows.find((r) => r.id === ref || r.key === ref.toUpperCase());
    // A team the caller may not see does not exist for them.
    if (row && canSeeTeam(access, row.id)) {
      if (!ids.includes(row.id)) ids.push(row.id);
    } else missing.push(ref);
  }
  return { ids, missing };
}

// Which tables an archive holds and in what order. The list comes from the
// database's catalogue, so a table a new migration adds is exported without
// anyone remembering to; only operational tables are left out, each by name
// with its reason, and the order follows the foreign keys so a restore never
// inserts a row before the row it points at.
import type { CatalogueTable } from './queries.js';

export const OPERATIONAL_TABLES: Record<string, string> = {
  schema_migrations:
    "migration bookkeeping: the target's own migrations write it (the archive records the version)",
  graphql_budget: 'request budgets per user and hour (rate-limit buckets): counters that restart anyway',
  auth_throttle: 'sign-in and registration throttles (rate-limit buckets)',
  file_chunks:
    "the database file store's bytes: every file travels as a files/<key> entry and is written to the target's own store, whichever it is",
};

/** The workspace's tables, parents before children (ties by name, so two exports of one schema agree). */
export function exportOrder(catalogue: CatalogueTable[]): CatalogueTable[] {
  const kept = catalogue.filter((t) => !(t.name in OPERATIONAL_TABLES));
  const byName = new Map(kept.map((t) => [t.name, t]));
  for (const t of kept) {
    if (t.primaryKey.length === 0)
      throw new Error(`table ${t.name} has no primary key: it cannot be read in pages`);
    for (const r of t.references) {
      if (!byName.has(r)) throw new Error(`table ${t.name} points at ${r}, which exports leave out`);
    }
  }
  const ordered: CatalogueTable[] = [];
  const done = new Set<string>();
  while (ordered.length < kept.length) {
    const ready = kept.filter((t) => !done.has(t.name) && t.references.every((r) => done.has(r)));
    if (ready.length === 0) {
      const left = kept.filter((t) => !done.has(t.name)).map((t) => t.name);
      throw new Error(`foreign keys form a cycle among ${left.join(', ')}`);
    }
    // One at a time, the first by name: the order depends only on the schema.
    const next = ready.sort((a, b) => (a.name < b.name ? -1 : 1))[0] as CatalogueTable;
    ordered.push(next);
    done.add(next.name);
  }
  return ordered;
}

// The rows each GraphQL list reads, as the runner takes them: a table's rows
// as `t`, and the columns and scope of lists that need one. How a nested
// list's rows hang off their parent is the read model's declaration of the
// relation (platform/read/entities.ts). The connections (graphql/connections.ts)
// add visibility, filter and window.
import { type RawBuilder, sql } from 'kysely';
import { ISSUE_COLUMNS } from '../db/tables.js';

type Sql = RawBuilder<unknown>;

/** A list over one table, its rows as `t`. */
export const tableRows = (table: string): Sql => sql`${sql.table(table)} as t`;

/** Issue lists read the issue's columns, not its search tsvectors. */
export const issueListColumns: Sql = sql.raw(ISSUE_COLUMNS.map((c) => `t.${c}`).join(', '));

/** Deleted accounts and apps' own users are never listed; suspended accounts only with includeDisabled. */
export const userListScope = (includeDisabled: boolean | null | undefined): Sql[] => [
  sql`t.deleted_at is null`,
  includeDisabled ? sql`t.status <> 'app'` : sql`t.status = 'active'`,
];

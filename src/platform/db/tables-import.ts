// Row types of the importers' tables (migration 0052, modules/import).
import type { ColumnType, Generated } from 'kysely';
import type { NullableTimestamp } from './column-types.js';

type Json<T> = ColumnType<T, string | undefined, string>;

export interface ImportRunsTable {
  id: Generated<string>;
  source: string;
  kind: 'linear' | 'csv' | 'github' | 'jira' | 'jira-xml';
  dry_run: Generated<boolean>;
  status: Generated<'running' | 'completed' | 'failed'>;
  counts: Json<Record<string, number>>;
  cursor: string | null;
  errors: Json<string[]>;
  report: ColumnType<unknown, string | null | undefined, string | null>;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  finished_at: NullableTimestamp;
}

export interface ImportRecordsTable {
  source: string;
  entity: string;
  external_id: string;
  local_id: string;
  run_id: string | null;
  created_at: Generated<Date>;
}

export interface ImportPendingTable {
  id: Generated<string>;
  source: string;
  waiting_for: string;
  kind: 'parent' | 'relation';
  issue_id: string;
  data: Json<Record<string, unknown>>;
  created_at: Generated<Date>;
}

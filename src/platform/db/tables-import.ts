// Row types of the importers' tables (migration 0052, modules/import) and of backup runs (0059).
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
  issues_read: Generated<number>;
  pages_read: Generated<number>;
  /** How much the source holds, in `total_unit`s; null when it does not say. */
  total: number | null;
  total_unit: 'issue' | 'page' | null;
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

/** Scheduled and asked-for backups (migration 0059, modules/backups). */
export interface BackupRunsTable {
  id: Generated<string>;
  trigger: 'schedule' | 'manual';
  slot: string | null;
  status: Generated<'pending' | 'running' | 'succeeded' | 'failed'>;
  target: string;
  archive: string;
  attempts: Generated<number>;
  lease_until: NullableTimestamp;
  bytes: number | null;
  sha256: string | null;
  manifest_sha256: string | null;
  error: string | null;
  deleted_by_retention: Generated<number>;
  pruned_at: NullableTimestamp;
  requested_by: string | null;
  created_at: Generated<Date>;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
}

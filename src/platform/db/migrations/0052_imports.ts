// Importers (modules/import, docs/migrate.md): each run of an import, the
// record of every imported thing by its original key (what makes a re-run
// create nothing twice), and the links that wait for an issue not yet written
// (a parent, a relation's other end).
export const name = 'imports';

export const up = /* sql */ `
create table import_runs (
  id uuid primary key default gen_random_uuid(),
  -- Which source, e.g. 'linear:https://tracker.example.com' or 'csv:tickets'.
  source text not null,
  kind text not null check (kind in ('linear', 'csv')),
  dry_run boolean not null default false,
  status text not null default 'running' check (status in ('running', 'completed', 'failed')),
  -- Counts of what was created and skipped, per entity.
  counts jsonb not null default '{}'::jsonb,
  -- Where the source's issue pages resume (an adapter's own cursor), null at the start.
  cursor text,
  -- The last errors (bounded), and the dry run's or the finished run's report.
  errors jsonb not null default '[]'::jsonb,
  report jsonb,
  created_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  finished_at timestamptz
);
create index import_runs_source on import_runs (source, created_at desc);

create table import_records (
  source text not null,
  entity text not null,
  external_id text not null,
  local_id uuid not null,
  run_id uuid references import_runs (id) on delete set null,
  created_at timestamptz not null default now(),
  primary key (source, entity, external_id)
);
create index import_records_local on import_records (local_id);

create table import_pending (
  id uuid primary key default gen_random_uuid(),
  source text not null,
  -- The external key of the issue this link waits for.
  waiting_for text not null,
  kind text not null check (kind in ('parent', 'relation')),
  -- The issue already written (the child, or the relation's end that exists).
  issue_id uuid not null references issues (id) on delete cascade,
  -- A relation's external id, type and direction.
  data jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now()
);
create index import_pending_waiting on import_pending (source, waiting_for);
`;

// Scheduled backups (modules/backups, docs/migrate.md "Scheduled backups"):
// every run, scheduled or asked for, one row. A scheduled run's `slot` names
// the interval it belongs to; the unique index lets only one of several
// instances open it, and the lease (as in the mail and webhook queues) lets a
// run whose process died be claimed again.
export const name = 'backups';

export const up = /* sql */ `
create table backup_runs (
  id uuid primary key default gen_random_uuid(),
  trigger text not null check (trigger in ('schedule', 'manual')),
  -- The interval a scheduled run belongs to, e.g. 'every-24h:20419'; null for a manual run.
  slot text,
  status text not null default 'pending' check (status in ('pending', 'running', 'succeeded', 'failed')),
  -- Where it was written ('directory:/srv/backups' or 's3:bucket/prefix') and the archive's name there.
  target text not null,
  archive text not null,
  attempts integer not null default 0,
  lease_until timestamptz,
  bytes bigint,
  -- SHA-256 of the whole archive, and of its manifest (which holds every entry's checksum).
  sha256 text,
  manifest_sha256 text,
  error text,
  deleted_by_retention integer not null default 0,
  -- When retention deleted this run's archive from its target.
  pruned_at timestamptz,
  requested_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz
);
create unique index backup_runs_slot on backup_runs (slot) where slot is not null;
create index backup_runs_due on backup_runs (created_at) where status in ('pending', 'running');
create index backup_runs_newest on backup_runs (created_at desc, id);
create index backup_runs_kept on backup_runs (target, created_at desc) where status = 'succeeded' and pruned_at is null;
`;

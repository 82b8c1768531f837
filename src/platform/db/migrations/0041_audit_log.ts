// The audit log (docs/identity.md, "Audit log"): who did what to the workspace's
// people, access and settings. Append-only in the database itself, not only in
// the services: UPDATE and TRUNCATE are always refused, and DELETE only for the
// retention job's transaction (it sets `trackway.audit_retention_days`) and only
// for entries older than that many days, at least one; so even a statement
// written by hand through the application's connection cannot rewrite or remove
// recent history.
export const name = 'audit_log';

export const up = /* sql */ `
create table audit_entries (
  id uuid primary key default gen_random_uuid(),
  created_at timestamptz not null default now(),
  -- One of the catalogue's types (modules/audit/catalog.ts), e.g. 'user.roleChanged'.
  type text not null,
  -- Who: a user (by session or API key), a SCIM client, the system, or nobody yet known (a failed sign-in).
  actor_kind text not null check (actor_kind in ('user', 'apiKey', 'scim', 'sso', 'system', 'anonymous')),
  -- No foreign key: an entry outlives the user it names, and must not change when they go.
  actor_id uuid,
  -- The actor's email or label when the entry was written.
  actor_label text not null default '',
  ip text,
  user_agent text,
  -- What it was done to.
  entity_type text,
  entity_id text,
  entity_label text,
  before jsonb,
  after jsonb,
  metadata jsonb not null default '{}'::jsonb
);

create index audit_entries_created on audit_entries (created_at desc, id desc);
create index audit_entries_actor on audit_entries (actor_id, created_at desc);
create index audit_entries_type on audit_entries (type, created_at desc);
create index audit_entries_entity on audit_entries (entity_type, entity_id, created_at desc);

create function audit_entries_append_only() returns trigger language plpgsql as $$
declare
  days integer := nullif(current_setting('trackway.audit_retention_days', true), '')::integer;
begin
  if tg_op = 'DELETE' and days is not null and days >= 1
     and old.created_at < now() - make_interval(days => days) then
    return old;
  end if;
  raise exception 'audit entries are append-only' using errcode = 'insufficient_privilege';
end $$;

create trigger audit_entries_append_only
  before update or delete on audit_entries
  for each row execute function audit_entries_append_only();

create function audit_entries_no_truncate() returns trigger language plpgsql as $$
begin
  raise exception 'audit entries are append-only' using errcode = 'insufficient_privilege';
end $$;

create trigger audit_entries_no_truncate
  before truncate on audit_entries
  for each statement execute function audit_entries_no_truncate();
`;

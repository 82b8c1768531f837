// SCIM 2.0 provisioning (modules/scim, docs/identity.md "Provisioning (SCIM)"):
// the bearer tokens identity providers use, and the identity provider's own id
// (externalId) for users and teams. Every column a SCIM filter reads is indexed:
// userName and emails.value read lower(users.email), which users already index.
export const name = 'scim';

export const up = /* sql */ `
create table scim_tokens (
  id uuid primary key default gen_random_uuid(),
  label text not null,
  -- SHA-256 of the secret; the secret itself is shown once, at creation.
  token_hash text not null unique,
  token_hint text not null,
  created_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);

alter table users add column external_id text;
create unique index users_external_id on users (external_id) where deleted_at is null and external_id is not null;

alter table teams add column external_id text;
create unique index teams_external_id on teams (external_id) where archived_at is null and external_id is not null;
create index teams_name_live on teams (name) where archived_at is null;
`;

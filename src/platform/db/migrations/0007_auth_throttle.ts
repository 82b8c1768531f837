// Sign-in and registration limits kept in the database, so that a check and
// its count are one atomic step and every instance sharing the database
// enforces one limit (src/platform/auth/login-limiter.ts), and the workspace's
// self-registration settings (open or invite-only, allowed email domains).
export const name = 'auth_throttle';

export const up = /* sql */ `
create table auth_throttle (
  scope text not null,
  key text not null,
  -- A bucket's fill level, or a back-off's failure count.
  count double precision not null default 0,
  -- When count last changed (or, for a known address, the last sign-in).
  last_at timestamptz not null,
  -- After this the row means nothing any more and may be deleted.
  expires_at timestamptz not null,
  primary key (scope, key)
);
create index auth_throttle_expires on auth_throttle (expires_at);

alter table workspace
  add column registration_open boolean not null default true,
  add column allowed_email_domains text[] not null default '{}';
`;

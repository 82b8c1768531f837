// OAuth apps acting under their own name (`actor=app`, docs/agents.md "Apps as
// actors"): one user row per such app, of status 'app' (never signs in, never
// listed, not a seat; every check that wants an active person already skips
// it), named by its OAuth client; and which grants were given with
// `actor=app`, read when the grant's access tokens are issued.
export const name = 'app_actor';

export const up = /* sql */ `
alter table users drop constraint users_status_check;
alter table users add constraint users_status_check check (status in ('active', 'suspended', 'app'));
alter table users add column app_client_id text unique;
alter table users add constraint users_app_client check ((status = 'app') = (app_client_id is not null));
create table oauth_app_actor_grants (
  grant_id text primary key,
  app_user_id uuid not null references users(id) on delete cascade,
  created_at timestamptz not null default now()
);
`;

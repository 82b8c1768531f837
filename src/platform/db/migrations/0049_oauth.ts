// The OAuth authorization server's store (modules/oauth, docs/agents.md):
// oidc-provider keeps every model (clients, grants, codes, access and refresh
// tokens, interactions, sessions) as a JSON payload under its model name and
// id. Lookups by grant (revoking a grant's tokens), by uid (sessions) and by
// user code follow the adapter interface; expired rows are never answered and
// are swept as new ones are written.
export const name = 'oauth';

export const up = /* sql */ `
create table oauth_store (
  model text not null,
  id text not null,
  payload jsonb not null,
  grant_id text,
  uid text,
  user_code text,
  -- Null: kept until removed (registered clients).
  expires_at timestamptz,
  consumed_at timestamptz,
  primary key (model, id)
);
create index oauth_store_grant on oauth_store (grant_id) where grant_id is not null;
create index oauth_store_uid on oauth_store (model, uid) where uid is not null;
create index oauth_store_user_code on oauth_store (model, user_code) where user_code is not null;
create index oauth_store_expires on oauth_store (expires_at) where expires_at is not null;
`;

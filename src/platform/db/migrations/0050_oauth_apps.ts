// OAuth apps (modules/oauth, docs/agents.md): which clients an admin
// registered (the others registered themselves through RFC 7591), and the
// lookups of grants by person and by app that the Settings and Admin lists and
// their revocations make (a grant is one JSON row of oauth_store).
export const name = 'oauth_apps';

export const up = /* sql */ `
create table oauth_admin_apps (
  client_id text primary key,
  registered_by uuid references users(id) on delete set null,
  registered_at timestamptz not null default now()
);
create index oauth_store_grant_account on oauth_store ((payload->>'accountId')) where model = 'Grant';
create index oauth_store_grant_client on oauth_store ((payload->>'clientId')) where model = 'Grant';
`;

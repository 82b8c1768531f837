// Single sign-on (modules/sso, docs/identity.md "Single sign-on"): which
// account each identity at a provider signs in as. The provider's subject is
// the link, not the email, which people and providers change. Settings live in
// the settings table (key 'sso'), the client secret sealed.
export const name = 'sso';

export const up = /* sql */ `
create table user_identities (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  issuer text not null,
  subject text not null,
  -- The email the provider last gave: shown to admins, never used to match.
  email text not null,
  created_at timestamptz not null default now(),
  last_sign_in_at timestamptz not null default now(),
  unique (issuer, subject)
);
create index user_identities_user on user_identities (user_id);
`;

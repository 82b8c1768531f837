// Sign-in sessions (docs/identity.md, "Sessions"): one row per sign-in, whose id
// every login token carries (`sid`), so a person can see where they are signed
// in and end one session without ending the others. Ending one (ended_at) or
// removing it tells every instance's credential cache at commit, through the
// trigger function of migration 0040, so the next request of that token is
// refused and its open change streams close. A new session epoch ends all of
// a user's sessions.
export const name = 'sessions';

export const up = /* sql */ `
create table sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  -- Written at most once a minute per session (modules/sessions/queries.ts touchSession).
  last_used_at timestamptz not null default now(),
  -- Where the sign-in came from; the user agent is cut to 512 characters.
  ip text not null default '',
  user_agent text,
  -- How: 'password', 'registration', 'passwordChange', 'sso'.
  method text not null default 'password',
  ended_at timestamptz,
  -- Who ended it (the owner, an admin); null when it ended on its own.
  ended_by uuid references users (id) on delete set null
);

-- A user's live sessions, newest use first (the Settings list, the admin's).
create index sessions_user_live on sessions (user_id, last_used_at desc, id) where ended_at is null;

-- A new session epoch (a password change or reset, a suspension, a deletion,
-- "sign out everywhere") retires every token issued before, so it ends every
-- session too, whoever wrote it: the lists never show a session that is dead.
create function sessions_end_with_epoch() returns trigger language plpgsql as $$
begin
  update sessions set ended_at = now() where user_id = new.id and ended_at is null;
  return null;
end $$;

create trigger users_end_sessions
  after update of session_epoch on users
  for each row when (new.session_epoch is distinct from old.session_epoch)
  execute function sessions_end_with_epoch();

create trigger sessions_credentials_changed
  after update of ended_at or delete on sessions
  for each row execute function credentials_changed();
`;

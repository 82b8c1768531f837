// Tells every instance's credential cache (platform/auth/credential-cache.ts)
// at commit that a user's access changed: a trigger rather than the services,
// so that every writer (a service, a bulk import, an operator's SQL) is
// covered. The payload is the user's id. Only the columns an authenticated
// caller is made of count (users: role, status, session epoch, deletion, and
// the name and email requests are attributed with); of api_keys, only a
// key's removal (its last use is written once a minute and is not one).
export const name = 'credential_notify';

export const up = /* sql */ `
create function credentials_changed() returns trigger language plpgsql as $$
begin
  -- Two statements: an expression naming old.user_id fails on a users row even where it is not taken.
  if tg_table_name = 'users' then
    perform pg_notify('trackway_credentials', old.id::text);
  else
    perform pg_notify('trackway_credentials', old.user_id::text);
  end if;
  return null;
end $$;

create trigger users_credentials_changed
  after update of role, status, session_epoch, deleted_at, name, email or delete on users
  for each row execute function credentials_changed();

create trigger api_keys_credentials_changed
  after update of user_id, key_hash or delete on api_keys
  for each row execute function credentials_changed();
`;

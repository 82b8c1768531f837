// A person's initials kept with their row, as their slug is (migration 0031):
// User.initials is read by the compiled GraphQL reads and by the resolvers'
// nodes alike, so this generated column is its one definition. The first
// letters of the first two words of the name, upper case; words are split on
// JavaScript's whitespace (\s), which the clients split names on too.
export const name = 'user_initials';

export const up = /* sql */ `
create function initials(name text) returns text
language sql immutable parallel safe
return (
  select upper(left(split_part(w.words, ' ', 1), 1)) || upper(left(split_part(w.words, ' ', 2), 1))
  from (
    select btrim(regexp_replace(coalesce(name, ''),
      '[\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]+', ' ', 'g'), ' ') as words
  ) w
);

alter table users add column initials text generated always as (initials(name)) stored;
`;

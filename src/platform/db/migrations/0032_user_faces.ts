// What stands for a person without a picture, kept with their row as their
// slug is (migration 0031): User.initials and User.avatarBackgroundColor are
// read by the compiled GraphQL reads and by the resolvers' nodes alike, so
// these generated columns are their one definition.
//
// initials: the first letters of the first two words of the name, upper
// case; words are split on JavaScript's whitespace (\s), as clients split them.
// avatar_color: a stable hue per id, `h = (h * 31 + code) % 360` over the
// characters of the id's text, as `hsl(h, 55%, 50%)`. Written as the sum
// of code * 31^(n - k) modulo 360, where 31^6 = 1 (mod 360), so the powers
// repeat every six characters.
export const name = 'user_faces';

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

create function avatar_color(id uuid) returns text
language sql immutable parallel safe
return (
  select 'hsl(' || (sum(ascii(substr(t.s, k, 1)) * (array[1, 31, 241, 271, 121, 151])[(length(t.s) - k) % 6 + 1]) % 360)
    || ', 55%, 50%)'
  from (select id::text as s) t, generate_series(1, length(t.s)) k
);

alter table users add column initials text generated always as (initials(name)) stored;
alter table users add column avatar_color text generated always as (avatar_color(id)) stored;
`;

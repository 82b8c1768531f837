// Slugs kept with their rows. An issue's url and branchName carry the slug of
// its title, and branchName the slug of a person's display name; made in the
// read (platform/read/json.ts) they were two thirds of the database's time on
// a page of issues (docs/benchmarks.md, "Slugs"). They are now generated
// columns, written when the title or name is, and `slug` is the one SQL
// definition of the rule that modules/issues/fields.ts slugify writes in
// JavaScript: accents folded (NFKD, combining marks dropped), lower case,
// runs of other characters as one dash, cut at a word end near `max`.
export const name = 'stored_slugs';

export const up = /* sql */ `
create function slug(text text, max integer) returns text
language sql immutable parallel safe
return (
  select case when length(z.s) <= max then z.s
    else rtrim(case when z.dash > max / 2 then left(z.s, z.dash) else left(z.s, max) end, '-') end
  from (
    select y.s, max + 1 - coalesce(nullif(strpos(reverse(left(y.s, max + 1)), '-'), 0), max + 2) as dash
    from (
      select trim(both '-' from regexp_replace(lower(regexp_replace(normalize(coalesce(text, ''), NFKD),
        '[\u0300-\u036f]', '', 'g')), '[^a-z0-9]+', '-', 'g')) as s
    ) y
  ) z
);

alter table issues add column title_slug text generated always as (slug(title, 40)) stored;
alter table users add column name_slug text generated always as (slug(display_name, 40)) stored;
`;

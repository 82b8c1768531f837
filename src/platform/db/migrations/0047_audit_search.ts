// The audit log's search and address filter (modules/audit/queries.ts): an
// admin's `ip` is an exact match on the address, and `q` a case-insensitive
// substring of the actor's label, the target's label or the type. One trigram
// GIN index over the three columns serves the search (each column's ILIKE is a
// scan of it, OR-ed as a bitmap), as titles' and descriptions' do for issues
// (0001, 0025); a search shorter than a trigram cannot use it (docs/identity.md
// says what such a search costs). Numbered 0047: 0046 is single sign-on's.
export const name = 'audit_search';

export const up = /* sql */ `
create index audit_entries_ip on audit_entries (ip, created_at desc);
create index audit_entries_search on audit_entries
  using gin (actor_label gin_trgm_ops, entity_label gin_trgm_ops, type gin_trgm_ops);
`;

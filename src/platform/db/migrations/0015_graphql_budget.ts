// GraphQL hourly budgets in the database rather than in process memory, so
// that every instance on one PostgreSQL charges one budget per user
// (src/graphql/rate-budget.ts). One row per user who has used GraphQL,
// rewritten by one upsert per request.
//
// Unlogged: a budget is worth less than the WAL its write would cost on every
// request; after a database crash the table comes back empty, which only
// hands everyone a fresh hour (what a restart did when budgets lived in
// memory). Fillfactor 50 leaves room on each page so that the rewrite of a
// row is a HOT update (no indexed column changes).
export const name = 'graphql_budget';

export const up = /* sql */ `
create unlogged table graphql_budget (
  user_id uuid primary key,
  -- Start of the current hour-long window; a request after its end starts a new one.
  window_start timestamptz not null,
  requests integer not null,
  complexity double precision not null,
  -- Whether the request that last wrote the row was charged (read back by that request).
  charged boolean not null
) with (fillfactor = 50);
`;

// Hourly budgets by kind of caller (src/graphql/rate-budget.ts): a person's
// own sessions in the web UI (a login token) and API clients (API keys) draw
// on budgets of their own, so a flooding key cannot lock its owner out of
// the UI, and the UI's reads never meet the budget meant for API clients.
// The table keeps its name; it now charges REST requests too.
export const name = 'budget_kinds';

export const up = /* sql */ `
alter table graphql_budget add column kind text not null default 'api'
  check (kind in ('api', 'session'));
alter table graphql_budget drop constraint graphql_budget_pkey;
alter table graphql_budget add primary key (user_id, kind);
`;

// How far an import run is (modules/import/runner.ts, docs/migrate.md): the
// issues and source pages it has read, kept with the cursor so a resumed run
// goes on counting, and how much the source holds when it says (issues in a
// file, the issues a Jira query finds, GitHub's last page); null when it does
// not. Runs are listed newest first: an index for that order.
export const name = 'import_progress';

export const up = /* sql */ `
alter table import_runs
  add column issues_read integer not null default 0,
  add column pages_read integer not null default 0,
  add column total integer check (total >= 0),
  add column total_unit text check (total_unit in ('issue', 'page')),
  add constraint import_runs_total_unit check ((total is null) = (total_unit is null));
create index import_runs_newest on import_runs (created_at desc, id desc);
`;

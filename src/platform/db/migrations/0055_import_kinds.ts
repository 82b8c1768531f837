// Import runs of the GitHub Issues importer (modules/import/github.ts). The
// check lists every importer's kind, Jira's included, so the migrations of the
// importers built side by side agree whichever is merged first.
export const name = 'import_kinds';

export const up = /* sql */ `
alter table import_runs drop constraint if exists import_runs_kind_check;
alter table import_runs add constraint import_runs_kind_check
  check (kind in ('linear', 'csv', 'github', 'jira'));
`;

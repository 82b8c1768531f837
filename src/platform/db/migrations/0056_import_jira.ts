// The Jira importer (modules/import/jira.ts) records its runs with kind 'jira'.
// 'github' is allowed here too: the GitHub importer is built alongside, and
// whichever of the two migrations runs last must keep both kinds.
export const name = 'import_jira';

export const up = /* sql */ `
alter table import_runs drop constraint import_runs_kind_check;
alter table import_runs add constraint import_runs_kind_check
  check (kind in ('linear', 'csv', 'jira', 'github'));
`;

// Jira's XML export (modules/import/jira-xml.ts) is a source of its own: its
// runs are recorded with kind 'jira-xml'.
export const name = 'import_jira_xml';

export const up = /* sql */ `
alter table import_runs drop constraint import_runs_kind_check;
alter table import_runs add constraint import_runs_kind_check
  check (kind in ('linear', 'csv', 'jira', 'github', 'jira-xml'));
`;

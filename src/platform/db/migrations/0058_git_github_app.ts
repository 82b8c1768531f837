// GitHub App credentials for back-link comments (modules/git/github-app.ts,
// docs/git.md "GitHub App"): the App's id, its private key (sealed like the
// other git secrets) and the installation id (null: found per repository
// through the API).
export const name = 'git_github_app';

export const up = /* sql */ `
alter table git_connections
  add column app_id text,
  add column app_private_key text,
  add column app_installation_id text;
`;

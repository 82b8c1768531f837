// The workspace's git branch name format (issues/branch-format.ts, docs/git.md
// "Branch names"), and the index that finds a pull request's attachments by
// the commit its checks report on (modules/git/checks.ts): check and status
// payloads name a repository and a head commit, not a pull request.
export const name = 'git_branch_format';

export const up = /* sql */ `
alter table workspace
  add column git_branch_format text not null default '{user.username}/{issue.identifier}-{issue.title}';

create index attachments_git_head on attachments (source_type, (metadata->>'repo'), (metadata->>'headSha'))
  where source_type in ('github', 'gitlab', 'gitea') and archived_at is null;
`;

// The issue list's estimate filter (the web UI's filter builder, GraphQL
// IssueFilter.estimate, REST filter=): every other filter the builder offers
// already had its index (due_date, creator_id, created_at, updated_at, parent_id...).
export const name = 'issues_estimate';

export const up = /* sql */ `
create index issues_estimate on issues (estimate);
`;

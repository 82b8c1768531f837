// One issue as its page shows it, read once under one key: the issue page and
// the inbox's preview pane share the cache, so an issue previewed in the inbox
// opens at once, and live.ts and the issue edits keep both up to date.
import { useQuery } from '@tanstack/react-query';
import { graphql } from '../gql';
import { gql } from './api';
import { keys } from './query-keys';

const IssueQuery = graphql(`
  query Issue($id: String!) {
    issue(id: $id) {
      id identifier title description priority estimate dueDate createdAt url
      state { id } team { id key } assignee { id } creator { name app } project { id } cycle { id }
      projectMilestone { id } parent { id identifier title }
      labelIds
      reactions { id emoji user { id name } }
      comments(first: 100) { nodes { id body createdAt editedAt archivedAt user { id name app } parent { id } reactions { id emoji user { id name } } } }
      attachments(first: 50) { nodes { id title url createdAt metadata sourceType } }
    }
  }
`);

/** The issue by id or identifier (the address's), under `keys.issues.detail`. */
export function useIssueDetail(id: string, enabled = true) {
  return useQuery({
    queryKey: keys.issues.detail(id),
    queryFn: async () => (await gql(IssueQuery, { id })).issue,
    enabled,
  });
}

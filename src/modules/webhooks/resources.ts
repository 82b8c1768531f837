// The kinds of change an endpoint may ask for: our names, as stored in
// webhooks.resource_types and shown by REST, and the third-party schema's
// type names, which GraphQL's Webhook.resourceTypes and its inputs use. One
// table for both doors (the read model's declaration and graphql/nodes.ts).
// Import-free of the read model: platform/read/entities.ts reads it.

export const RESOURCE_TYPES = [
  'issue',
  'comment',
  'project',
  'projectMilestone',
  'cycle',
  'label',
  'attachment',
  'relation',
  'reaction',
  'projectUpdate',
] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

/** Each kind's GraphQL name, by ours. */
export const GRAPHQL_RESOURCE_NAMES: Record<ResourceType, string> = {
  issue: 'Issue',
  comment: 'Comment',
  project: 'Project',
  projectMilestone: 'ProjectMilestone',
  cycle: 'Cycle',
  label: 'IssueLabel',
  attachment: 'Attachment',
  relation: 'IssueRelation',
  reaction: 'Reaction',
  projectUpdate: 'ProjectUpdate',
};

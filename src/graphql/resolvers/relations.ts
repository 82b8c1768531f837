// Issue relations over GraphQL: the root reads, the three mutations (through
// modules/relations/service.ts, so rules and events are those of REST), an
// issue's relations in both directions (one statement per direction for all
// issues of a page), and a resolver for every field of the relation types, so
// nothing here relies on the default property reader.
import * as relations from '../../modules/relations/service.js';
import type { IssueRelationRow } from '../../platform/db/tables.js';
import { currentSyncId } from '../../platform/outbox.js';
import type { ResolverMap } from '../build-schema.js';
import { type ListArgs, listConnection, lists, nested } from '../connections.js';
import type { GqlContext } from '../context.js';
import { issueRelationNode, node } from '../nodes.js';
import { belongsTo, mustLoad } from './helpers.js';

type Input = Record<string, unknown>;
type RelationNode = ReturnType<typeof issueRelationNode>;

const str = (v: unknown) => (v == null ? undefined : String(v));

const payload = async (g: GqlContext, row: IssueRelationRow) => ({
  success: true,
  lastSyncId: await currentSyncId(g.db),
  issueRelation: issueRelationNode(row),
});

export const relationResolvers: ResolverMap = {
  Query: {
    issueRelation: async (_s, a: { id: string }, g) =>
      issueRelationNode(await mustLoad<IssueRelationRow>(g, 'issueRelation', a.id, 'Issue relation')),
    issueRelations: (_s, a: ListArgs, g) => listConnection(g, lists.relations, a),
  },
  Mutation: {
    issueRelationCreate: async (_s, a: { input: Input }, g) => {
      const row = await relations.createRelation(g.app, g.actor, {
        id: str(a.input.id),
        issueId: String(a.input.issueId),
        relatedIssueId: String(a.input.relatedIssueId),
        type: String(a.input.type),
      });
      return payload(g, row);
    },
    issueRelationUpdate: async (_s, a: { id: string; input: Input }, g) => {
      const row = await relations.updateRelation(g.app, g.actor, a.id, {
        issueId: str(a.input.issueId),
        relatedIssueId: str(a.input.relatedIssueId),
        type: str(a.input.type),
      });
      return payload(g, row);
    },
    issueRelationDelete: async (_s, a: { id: string }, g) => {
      const row = await relations.deleteRelation(g.app, g.actor, a.id);
      return { success: true, lastSyncId: await currentSyncId(g.db), entityId: row.id };
    },
  },
  Issue: {
    relations: nested(lists.relations, 'issue.relations'),
    inverseRelations: nested(lists.relations, 'issue.inverseRelations'),
  },
  IssueRelation: {
    id: (n: RelationNode) => n.row.id,
    type: (n: RelationNode) => n.row.type,
    createdAt: (n: RelationNode) => n.row.created_at,
    updatedAt: (n: RelationNode) => n.row.updated_at,
    // Removing a relation deletes it; there is no archived state to report.
    archivedAt: () => null,
    issue: belongsTo('issue', (r: IssueRelationRow) => r.issue_id, node.issue),
    relatedIssue: belongsTo('issue', (r: IssueRelationRow) => r.related_issue_id, node.issue),
  },
  IssueRelationPayload: {
    issueRelation: (p: { issueRelation: RelationNode }) => p.issueRelation,
    lastSyncId: (p: { lastSyncId: number }) => p.lastSyncId,
    success: (p: { success: boolean }) => p.success,
  },
  IssueRelationConnection: {
    nodes: (c: { nodes: unknown[] }) => c.nodes,
    edges: (c: { edges: unknown[] }) => c.edges,
    pageInfo: (c: { pageInfo: unknown }) => c.pageInfo,
  },
  IssueRelationEdge: {
    node: (e: { node: unknown }) => e.node,
    cursor: (e: { cursor: string }) => e.cursor,
  },
};

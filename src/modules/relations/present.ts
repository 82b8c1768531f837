// The public shapes of issue relations: RELATION_VIEW, which every REST answer
// and relation event reads from the read model's declaration
// (platform/read/rest.ts), and what an issue's list adds to it. A relation is stored once, from its source issue (`issueId`) to its
// target (`relatedIssueId`); seen from the target, `blocks` reads "blocked by"
// and `duplicate` reads "duplicated by". `kind` names the relation as the
// issue it is listed under sees it.
import { Type } from 'typebox';
import type { IssueRelationRow, StateType } from '../../platform/db/tables.js';
import { issueRelation } from '../../platform/read/entities.js';
import { restView } from '../../platform/read/rest.js';

/** The stored types: the third-party schema's IssueRelationType values. */
export const RELATION_TYPES = ['blocks', 'duplicate', 'related', 'similar'] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

/** A relation as one of its issues sees it. */
export const RELATION_KINDS = [
  'blocks',
  'blocked_by',
  'duplicate',
  'duplicated_by',
  'related',
  'similar',
] as const;
export type RelationKind = (typeof RELATION_KINDS)[number];

const INVERSE: Record<RelationType, RelationKind> = {
  blocks: 'blocked_by',
  duplicate: 'duplicated_by',
  related: 'related',
  similar: 'similar',
};

/** The kind of `type` seen from its source (`outgoing`) or its target. */
export const kindOf = (type: RelationType, outgoing: boolean): RelationKind =>
  outgoing ? type : INVERSE[type];

/** A kind back to its stored type, and whether the listed issue is the target. */
export function typeOfKind(kind: RelationKind): { type: RelationType; inverse: boolean } {
  if (kind === 'blocked_by') return { type: 'blocks', inverse: true };
  if (kind === 'duplicated_by') return { type: 'duplicate', inverse: true };
  return { type: kind, inverse: false };
}

/** The other issue of a listed relation: enough to show and link it. */
export interface OtherIssue {
  id: string;
  identifier: string;
  title: string;
  team_id: string;
  state_id: string;
  state_name: string;
  state_type: StateType;
}

export type ListedRelation = IssueRelationRow & { other: OtherIssue };

/** What a relation listed under `issueId` adds to RELATION_VIEW: how that issue sees it, and the other issue. */
export function listedMembers(r: ListedRelation, issueId: string) {
  const outgoing = r.issue_id === issueId;
  return {
    kind: kindOf(r.type, outgoing),
    direction: outgoing ? ('outgoing' as const) : ('inverse' as const),
    issue: {
      id: r.other.id,
      identifier: r.other.identifier,
      title: r.other.title,
      teamId: r.other.team_id,
      state: { id: r.other.state_id, name: r.other.state_name, type: r.other.state_type },
    },
  };
}

const DateTime = Type.String({ format: 'date-time' });
const TypeSchema = Type.Union([
  Type.Literal('blocks'),
  Type.Literal('duplicate'),
  Type.Literal('related'),
  Type.Literal('similar'),
]);
export const KindSchema = Type.Union([
  ...TypeSchema.anyOf,
  Type.Literal('blocked_by'),
  Type.Literal('duplicated_by'),
]);

export const RelationSchema = Type.Object({
  id: Type.String(),
  type: TypeSchema,
  issueId: Type.String({ description: 'The source issue (the one that blocks, or the duplicate)' }),
  relatedIssueId: Type.String({ description: 'The target issue' }),
  creatorId: Type.Union([Type.String(), Type.Null()]),
  createdAt: DateTime,
  updatedAt: DateTime,
});

export const ListedRelationSchema = Type.Object({
  ...RelationSchema.properties,
  kind: KindSchema,
  direction: Type.Union([Type.Literal('outgoing'), Type.Literal('inverse')]),
  issue: Type.Object({
    id: Type.String(),
    identifier: Type.String(),
    title: Type.String(),
    teamId: Type.String(),
    state: Type.Object({ id: Type.String(), name: Type.String(), type: Type.String() }),
  }),
});

/** REST's relation over the read model's: the schema's keys in its order. */
export const RELATION_VIEW = restView(issueRelation, RelationSchema);

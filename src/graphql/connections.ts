// Connections: a list definition per entity (table, filter fields, how a row
// becomes a node) and the two ways to read one: a top-level list, or a nested
// list per parent batched across all parents of the page.
import { type RawBuilder, sql } from 'kysely';
import {
  type AttachmentRow,
  type CommentRow,
  type CustomViewRow,
  type CycleRow,
  ISSUE_COLUMNS,
  type IssueRelationRow,
  type IssueRow,
  type LabelRow,
  type MilestoneRow,
  type ProjectRow,
  type StateRow,
  type TeamRow,
  type UserRow,
  type WebhookRow,
} from '../platform/db/tables.js';
import {
  attachmentEntity,
  commentEntity,
  customViewEntity,
  cycleEntity,
  historyEntity,
  issueEntity,
  issueRelationEntity,
  labelEntity,
  membershipEntity,
  projectEntity,
  projectMilestoneEntity,
  teamEntity,
  userEntity,
  webhookEntity,
  workflowStateEntity,
} from '../platform/list/entities.js';
import type { EntitySpec } from '../platform/list/filter.js';
import { type TimeKey, timeKey } from '../platform/list/order.js';
import { listWhere } from '../platform/list/query.js';
import { listPage, listPages, type Page } from '../platform/list/runner.js';
import { type PageArgs, pageWindow } from '../platform/list/window.js';
import type { Resolver } from './build-schema.js';
import type { GqlContext } from './context.js';
import {
  attachmentNode,
  commentNode,
  cycleNode,
  issueNode,
  issueRelationNode,
  labelNode,
  milestoneNode,
  projectNode,
  stateNode,
  teamNode,
  userNode,
  viewNode,
  webhookOut,
} from './nodes.js';
import { planKey, planned, withPlan } from './plan/fields.js';
import type { PagePlan } from './plan/page.js';

type Sql = RawBuilder<unknown>;

export interface ListDef {
  table: string;
  entity: EntitySpec;
  archivable: boolean;
  /** Columns of t to read, when not all of them (default `t.*`). */
  columns?: Sql;
  /** Conditions every read of this list applies (e.g. no deleted users). */
  scope?: (args: ListArgs) => Sql[];
  // biome-ignore lint/suspicious/noExplicitAny: each list's rows have their own table type
  node: (row: any, g: GqlContext) => unknown;
}

export type ListArgs = PageArgs & {
  filter?: Record<string, unknown> | null;
  includeDisabled?: boolean | null;
};

export const lists = {
  issues: {
    table: 'issues',
    entity: issueEntity,
    archivable: true,
    columns: sql.raw(ISSUE_COLUMNS.map((c) => `t.${c}`).join(', ')),
    node: (r: IssueRow, g) => issueNode(r, g.app.config.publicUrl),
  },
  comments: {
    table: 'comments',
    entity: commentEntity,
    archivable: true,
    node: (r: CommentRow) => commentNode(r),
  },
  projects: {
    table: 'projects',
    entity: projectEntity,
    archivable: true,
    node: (r: ProjectRow, g) => projectNode(r, g.app.config.publicUrl),
  },
  milestones: {
    table: 'project_milestones',
    entity: projectMilestoneEntity,
    archivable: false,
    node: (r: MilestoneRow) => milestoneNode(r),
  },
  customViews: {
    table: 'custom_views',
    entity: customViewEntity,
    archivable: true,
    node: (r: CustomViewRow) => viewNode(r),
  },
  cycles: {
    table: 'cycles',
    entity: cycleEntity,
    archivable: true,
    node: (r: CycleRow, g) => cycleNode(r, g.now),
  },
  teams: { table: 'teams', entity: teamEntity, archivable: true, node: (r: TeamRow) => teamNode(r) },
  states: {
    table: 'workflow_states',
    entity: workflowStateEntity,
    archivable: true,
    node: (r: StateRow) => stateNode(r),
  },
  labels: { table: 'labels', entity: labelEntity, archivable: true, node: (r: LabelRow) => labelNode(r) },
  users: {
    table: 'users',
    entity: userEntity,
    archivable: false,
    // Deleted accounts are never listed; suspended ones only with includeDisabled.
    scope: (args) => [sql`t.deleted_at is null`, ...(args.includeDisabled ? [] : [sql`t.status = 'active'`])],
    node: (r: UserRow, g) => userNode(r, g.actor.id, g.app.config.publicUrl),
  },
  attachments: {
    table: 'attachments',
    entity: attachmentEntity,
    archivable: true,
    node: (r: AttachmentRow) => attachmentNode(r),
  },
  relations: {
    table: 'issue_relations',
    entity: issueRelationEntity,
    archivable: false,
    node: (r: IssueRelationRow) => issueRelationNode(r),
  },
  webhooks: {
    table: 'webhooks',
    entity: webhookEntity,
    archivable: true,
    node: (r: WebhookRow) => webhookOut(r),
  },
  memberships: {
    table: 'team_memberships',
    entity: membershipEntity,
    archivable: true,
    node: (r: {
      id: string;
      owner: boolean;
      sort_order: number;
      created_at: Date;
      updated_at: Date;
      archived_at: Date | null;
    }) => ({
      id: r.id,
      row: r,
      owner: r.owner,
      sortOrder: r.sort_order,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      archivedAt: r.archived_at,
    }),
  },
  history: {
    table: 'issue_history',
    entity: historyEntity,
    archivable: false,
    node: (r: HistoryRow) => historyNode(r),
  },
} satisfies Record<string, ListDef>;

/**
 * Issue history rows keep `changes` as { field: { from, to } } with REST field
 * names (stateId, title, labelIds, ...); the schema names them fromX/toX.
 */
function historyNode(r: HistoryRow) {
  const node: Record<string, unknown> = {
    id: r.id,
    row: r,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    actorId: r.actor_id,
  };
  const changes = (r.changes ?? {}) as Record<string, { from?: unknown; to?: unknown } | undefined>;
  for (const [field, change] of Object.entries(changes)) {
    if (typeof change !== 'object' || change === null) continue;
    const name = field.charAt(0).toUpperCase() + field.slice(1);
    node[`from${name}`] = change.from ?? null;
    node[`to${name}`] = change.to ?? null;
  }
  const labels = changes.labelIds;
  if (labels) {
    const from = new Set((labels.from as string[] | undefined) ?? []);
    const to = new Set((labels.to as string[] | undefined) ?? []);
    node.addedLabelIds = [...to].filter((id) => !from.has(id));
    node.removedLabelIds = [...from].filter((id) => !to.has(id));
  }
  if (changes.archivedAt) node.archived = changes.archivedAt.to != null;
  return node;
}

interface HistoryRow {
  id: string;
  created_at: Date;
  updated_at: Date;
  actor_id: string | null;
  issue_id: string;
  changes: unknown;
}

/** A connection's order: newest first by its orderBy, read under alias t. */
export const connectionOrder = (key: TimeKey) => timeKey(key, 'desc');

export function toConnection<R>(page: Page<R>, def: ListDef, g: GqlContext) {
  const nodes = page.rows.map((r) => def.node(r, g));
  return {
    nodes,
    get edges() {
      return nodes.map((node, i) => ({ node, cursor: page.cursor(i) }));
    },
    pageInfo: page.pageInfo,
  };
}

/**
 * What every read of a list applies: the caller's visibility (the entity's
 * rule, platform/access.ts), the list's own scope, and the filter argument.
 */
export async function listConditions(g: GqlContext, def: ListDef, args: ListArgs): Promise<Sql[]> {
  return listWhere({
    entity: def.entity,
    access: await g.access(),
    filter: args.filter,
    scope: def.scope?.(args) ?? [],
    now: g.now,
    actorId: g.actor.id,
  });
}

/**
 * A top-level list, optionally narrowed by `where` (over alias t). A read
 * plan (plan/page.ts) adds what its nodes select to the page's statement.
 */
export async function listConnection(
  g: GqlContext,
  def: ListDef,
  args: ListArgs,
  where: Sql[] = [],
  plan?: PagePlan,
  countAll = false,
) {
  const w = pageWindow(args);
  const page = await listPage<Record<string, unknown>>(
    g.db,
    {
      from: sql`${sql.table(def.table)} as t`,
      where: [...(await listConditions(g, def, args)), ...where],
      archivable: def.archivable,
      includeArchived: args.includeArchived,
      ...(def.columns ? { columns: def.columns } : {}),
    },
    connectionOrder(w.key),
    w,
    { extra: plan?.columns, total: countAll },
  );
  plan?.attach(page.rows);
  // Assigned, not spread: `edges` stays a getter made only when asked for.
  return Object.assign(toConnection(page, def, g), { totalCount: page.total });
}

export interface Relation {
  /** Unique name of the relation, for batching. */
  key: string;
  /** FROM clause with the listed rows as t (default: the list's table). */
  from?: Sql;
  /** SQL of the parent id for each listed row. */
  parentKey: Sql;
  where?: Sql[];
}

/**
 * A resolver for a nested list: one statement per relation for all parents,
 * or none when the parent's page read it (plan/page.ts).
 */
export function nested(def: ListDef, rel: Relation, parentId?: (src: { id: string }) => string): Resolver {
  const batched = async (src: { id: string }, args: ListArgs, g: GqlContext) => {
    const loader = g.loaders.pages(rel.key, args, async (ids) => {
      const w = pageWindow(args);
      return listPages(
        g.db,
        {
          from: rel.from ?? sql`${sql.table(def.table)} as t`,
          parentKey: rel.parentKey,
          where: [...(await listConditions(g, def, args)), ...(rel.where ?? [])],
          archivable: def.archivable,
          includeArchived: args.includeArchived,
          ...(def.columns ? { columns: def.columns } : {}),
        },
        ids,
        connectionOrder(w.key),
        w,
      );
    });
    return toConnection(await loader.load(parentId ? parentId(src) : src.id), def, g);
  };
  const resolve: Resolver = (src, args: ListArgs, g, info) => {
    const read = planned(src.row, planKey(info.fieldName, args));
    return read ? toConnection(read as Page<unknown>, def, g) : batched(src, args, g);
  };
  // Keyed by the parent's own id, the list can be read with the parent's page.
  return parentId ? resolve : withPlan(resolve, { kind: 'list', def, rel });
}

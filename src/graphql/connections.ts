// Connections: a list definition per entity (table, filter fields, its node
// from nodes.ts) and the two ways to read one: a top-level list, or a nested
// list per parent batched across all parents of the page.
import type { RawBuilder } from 'kysely';
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
  projectUpdateEntity,
  teamEntity,
  userEntity,
  webhookEntity,
  workflowStateEntity,
} from '../platform/list/entities.js';
import type { EntitySpec } from '../platform/list/filter.js';
import { type TimeKey, timeKey } from '../platform/list/order.js';
import { listWhere } from '../platform/list/query.js';
import { listPage, listPages, type Page } from '../platform/list/runner.js';
import { issueListColumns, tableRows, userListScope } from '../platform/list/sources.js';
import { type PageArgs, pageWindow } from '../platform/list/window.js';
import * as declared from '../platform/read/entities.js';
import type { Entity, Via } from '../platform/read/model.js';
import type { Resolver } from './build-schema.js';
import type { GqlContext } from './context.js';
import { type NodeScope, node } from './nodes.js';

type Sql = RawBuilder<unknown>;

export interface ListDef {
  table: string;
  entity: EntitySpec;
  archivable: boolean;
  /** Columns of t to read, when not all of them (default `t.*`). */
  columns?: Sql;
  /** Conditions every read of this list applies (e.g. no deleted users). */
  scope?: (args: ListArgs) => Sql[];
  /** How a row becomes its node (nodes.ts). */
  // biome-ignore lint/suspicious/noExplicitAny: each list's rows have their own table type
  node: (row: any, g: NodeScope) => unknown;
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
    columns: issueListColumns,
    node: node.issue,
  },
  comments: { table: 'comments', entity: commentEntity, archivable: true, node: node.comment },
  projects: { table: 'projects', entity: projectEntity, archivable: true, node: node.project },
  milestones: {
    table: 'project_milestones',
    entity: projectMilestoneEntity,
    archivable: false,
    node: node.milestone,
  },
  projectUpdates: {
    table: 'project_updates',
    entity: projectUpdateEntity,
    archivable: true,
    node: node.projectUpdate,
  },
  customViews: { table: 'custom_views', entity: customViewEntity, archivable: true, node: node.view },
  cycles: { table: 'cycles', entity: cycleEntity, archivable: true, node: node.cycle },
  teams: { table: 'teams', entity: teamEntity, archivable: true, node: node.team },
  states: { table: 'workflow_states', entity: workflowStateEntity, archivable: true, node: node.state },
  labels: { table: 'labels', entity: labelEntity, archivable: true, node: node.label },
  users: {
    table: 'users',
    entity: userEntity,
    archivable: false,
    scope: (args) => userListScope(args.includeDisabled),
    node: node.user,
  },
  attachments: { table: 'attachments', entity: attachmentEntity, archivable: true, node: node.attachment },
  relations: {
    table: 'issue_relations',
    entity: issueRelationEntity,
    archivable: false,
    node: node.issueRelation,
  },
  webhooks: { table: 'webhooks', entity: webhookEntity, archivable: true, node: node.webhook },
  memberships: {
    table: 'team_memberships',
    entity: membershipEntity,
    archivable: true,
    node: node.membership,
  },
  history: { table: 'issue_history', entity: historyEntity, archivable: false, node: node.history },
} satisfies Record<string, ListDef>;

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

/** A top-level list, optionally narrowed by `where` (over alias t). */
export async function listConnection(
  g: GqlContext,
  def: ListDef,
  args: ListArgs,
  where: Sql[] = [],
  countAll = false,
) {
  const w = pageWindow(args);
  const page = await listPage<Record<string, unknown>>(
    g.db,
    {
      from: tableRows(def.table),
      where: [...(await listConditions(g, def, args)), ...where],
      archivable: def.archivable,
      includeArchived: args.includeArchived,
      ...(def.columns ? { columns: def.columns } : {}),
    },
    connectionOrder(w.key),
    w,
    { total: countAll },
  );
  // Assigned, not spread: `edges` stays a getter made only when asked for.
  return Object.assign(toConnection(page, def, g), { totalCount: page.total });
}

/** The parents whose nested lists the read model declares, by the first part of a nested list's key. */
const declaredParents: Record<string, Entity> = {
  issue: declared.issue,
  user: declared.user,
  team: declared.team,
  state: declared.workflowState,
  label: declared.label,
  project: declared.project,
  milestone: declared.milestone,
  cycle: declared.cycle,
  comment: declared.comment,
};

/**
 * How the rows of nested list `key` (`type.field`) hang off their parent: the
 * read model's declaration of the relation (the compiled reads use the same
 * one, so the two paths cannot join differently).
 */
function nestedSource(key: string): Via {
  const [parent = '', field = ''] = key.split('.');
  const relation = declaredParents[parent]?.fields[field];
  if (relation?.kind === 'many' && 'via' in relation) return relation.via;
  throw new Error(`no nested list ${key}`);
}

/**
 * A resolver for a nested list (`type.field` of its parent): one statement per
 * relation and arguments for all parents of a page (the request's page loaders
 * batch them), never one per parent.
 */
export function nested(def: ListDef, key: string): Resolver {
  const rel = nestedSource(key);
  return async (src: { id: string }, args: ListArgs, g: GqlContext) => {
    const loader = g.loaders.pages(key, args, async (ids) => {
      const w = pageWindow(args);
      return listPages(
        g.db,
        {
          from: rel.from ?? tableRows(def.table),
          parentKey: rel.parentKey,
          where: await listConditions(g, def, args),
          archivable: def.archivable,
          includeArchived: args.includeArchived,
          ...(def.columns ? { columns: def.columns } : {}),
        },
        ids,
        connectionOrder(w.key),
        w,
      );
    });
    return toConnection(await loader.load(src.id), def, g);
  };
}

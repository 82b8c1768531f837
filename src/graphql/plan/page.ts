// A page's read plan: the relations its nodes select, read in the page's own
// statement as correlated subqueries (to-one rows and nested pages as JSON),
// so a page of issues with their state, assignee, labels and comments is one
// statement instead of one per relation, and every field of the page then
// resolves without a promise. Each subquery is the read the field's loader
// would make, with the same visibility rule (loaders.ts `visibleById` for
// rows by id, connections.ts `listConditions` for nested lists); a field the
// plan cannot read (a wrapped resolver, arguments that fail to compile)
// is left to its resolver, which loads it in a batch as before.

import type { GraphQLResolveInfo } from 'graphql';
import { type RawBuilder, sql } from 'kysely';
import { pageJson, pageOfRows } from '../../platform/list/runner.js';
import { pageWindow } from '../../platform/list/window.js';
import { connectionOrder, type ListArgs, listConditions } from '../connections.js';
import type { GqlContext } from '../context.js';
import { BY_ID_TABLE, visibleById } from '../loaders.js';
import { asksOnlyId } from '../resolvers/helpers.js';
import { type FieldPlan, planKey, planOf } from './fields.js';
import { revive, timestampColumns } from './json-rows.js';
import { nodeSelections } from './selection.js';

type Sql = RawBuilder<unknown>;
type Row = Record<string, unknown>;

export interface PagePlan {
  /** Columns to add to the page's statement, over its row `page`. */
  columns: Sql[];
  /** Leaves what the columns read on each row, under `__plan`, for the field resolvers. */
  attach(rows: Row[]): void;
}

const PAGE = sql.ref('page');

/** The plan for the connection `info` resolves, or none when it selects nothing the plan reads. */
export async function planPage(g: GqlContext, info: GraphQLResolveInfo): Promise<PagePlan | undefined> {
  if (!g.app.config.graphqlReadPlan) return undefined;
  const selected = nodeSelections(info);
  if (!selected) return undefined;
  const reads: { key: string; column: Sql; read: (v: unknown) => unknown }[] = [];
  const keys = new Set<string>();
  let stamps: Map<string, string[]> | undefined;
  for (const { node, def, args } of selected.fields) {
    const plan = planOf(def.resolve);
    if (!plan) continue;
    const key = planKey(def.name, args);
    if (keys.has(key)) continue;
    // A relation asked for its id alone is answered from the foreign key (helpers.ts belongsTo).
    if (plan.kind === 'toOne' && plan.foreignKey && selectsIdOnly(info, node)) continue;
    stamps ??= await timestampColumns(g.db);
    const read = await compile(g, plan, args as ListArgs, stamps);
    if (!read) continue;
    keys.add(key);
    reads.push({ key, ...read, column: sql`${read.column} as ${sql.ref(`__plan_${reads.length}`)}` });
  }
  if (!reads.length) return undefined;
  return {
    columns: reads.map((r) => r.column),
    attach(rows) {
      for (const row of rows) {
        const values: Row = {};
        reads.forEach((r, i) => {
          values[r.key] = r.read(row[`__plan_${i}`]);
        });
        row.__plan = values;
      }
    },
  };
}

async function compile(
  g: GqlContext,
  plan: FieldPlan,
  args: ListArgs,
  stamps: Map<string, string[]>,
): Promise<{ column: Sql; read: (v: unknown) => unknown } | undefined> {
  if (plan.kind === 'column') return { column: plan.sql(PAGE, await g.access()), read: (v) => v };
  if (plan.kind === 'toOne') {
    const table = BY_ID_TABLE[plan.loader];
    const byId = visibleById(table, sql`= ${sql.ref(`page.${plan.column}`)}`, await g.access());
    const columns = stamps.get(table);
    return {
      column: sql`(select to_json(x) from (${byId}) as x)`,
      read: (v) => (v == null ? null : revive(v as Row, columns)),
    };
  }
  const { def, rel } = plan;
  try {
    // The conditions the resolver's batched read applies, tied to this row instead of a list of parents.
    const where = [...(await listConditions(g, def, args)), ...(rel.where ?? [])];
    const w = pageWindow(args);
    const order = connectionOrder(w.key);
    const column = pageJson(
      {
        from: rel.from ?? sql`${sql.table(def.table)} as t`,
        where: [...where, sql`${rel.parentKey} = page.id`],
        archivable: def.archivable,
        includeArchived: args.includeArchived,
        ...(def.columns ? { columns: def.columns } : {}),
      },
      order,
      w,
    );
    const columns = stamps.get(def.table);
    return {
      column,
      read: (v) =>
        pageOfRows(
          (v as Row[]).map((r) => revive(r, columns)),
          order,
          w,
        ),
    };
  } catch {
    // Arguments the list refuses (a bad cursor, an unknown filter field): the resolver reports them, at its own path.
    return undefined;
  }
}

function selectsIdOnly(info: GraphQLResolveInfo, node: GraphQLResolveInfo['fieldNodes'][number]): boolean {
  return asksOnlyId({ ...info, fieldNodes: [node] });
}

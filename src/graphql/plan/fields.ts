// What a field resolver can tell a page's read plan about itself, and how
// it then finds the value the plan read. A resolver built by `belongsTo`,
// `nested` or `fromColumn` registers how its value is read in SQL; the plan
// (page.ts) reads the selected ones in the page's statement and leaves each
// value on the row under `__plan`, keyed as `planKey` says; the resolver
// answers from there without a load, or loads as usual when nothing is there.
import type { RawBuilder } from 'kysely';
import type { TeamAccess } from '../../platform/access.js';
import type { Resolver } from '../build-schema.js';
import type { ListDef, Relation } from '../connections.js';
import type { ByIdLoader } from '../loaders.js';

type Sql = RawBuilder<unknown>;

export type FieldPlan =
  /** A to-one relation through a foreign key column of the source row. */
  | { kind: 'toOne'; loader: ByIdLoader; column: string; foreignKey: boolean }
  /** A nested connection (a page per parent). */
  | { kind: 'list'; def: ListDef; rel: Relation }
  /** A value computed in SQL from the source row, named `page` (what the field's loader would read). */
  | { kind: 'column'; sql: (page: Sql, access: TeamAccess) => Sql };

const plans = new WeakMap<Resolver, FieldPlan>();

/** Registers how a resolver's value can be read in its page's statement. */
export function withPlan(resolver: Resolver, plan: FieldPlan): Resolver {
  plans.set(resolver, plan);
  return resolver;
}

export const planOf = (resolver: Resolver | undefined) => (resolver ? plans.get(resolver) : undefined);

/** The key a planned value is kept under: the field's name, and its arguments when it has any. */
export const planKey = (field: string, args: object) =>
  Object.keys(args).length ? `${field}:${JSON.stringify(args)}` : field;

/** What the plan read for this field of this row; undefined when it read nothing for it. */
export function planned(row: { __plan?: Record<string, unknown> } | undefined, key: string): unknown {
  return row?.__plan?.[key];
}

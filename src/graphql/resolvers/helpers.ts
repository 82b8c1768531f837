// Small building blocks shared by the resolver modules.
import { type GraphQLResolveInfo, Kind, type SelectionSetNode } from 'graphql';
import type { RawBuilder } from 'kysely';
import type { TeamAccess } from '../../platform/access.js';
import { notFound } from '../../platform/errors.js';
import type { Resolver } from '../build-schema.js';
import type { GqlContext } from '../context.js';
import type { ByIdLoader, Loaders } from '../loaders.js';
import { planned, withPlan } from '../plan/fields.js';

/**
 * A to-one relation: reads the key from the source row and loads it (batched;
 * the loader leaves out rows the caller may not see, which answer null).
 * `foreignKey` (the default) says the key is a column with a foreign key
 * constraint, so it always names a row: `assignee { id }` then needs no read
 * when the caller surely sees that row. `sameTeam` says it is in the source's
 * team (an issue's state, a comment's issue), so whoever sees the source sees
 * it; users are in every member's directory. Keys recorded elsewhere (history
 * entries) may name a deleted row.
 */
export function belongsTo<R>(
  loader: ByIdLoader,
  // biome-ignore lint/suspicious/noExplicitAny: the source row's table differs per relation
  key: string | ((row: any) => string | null | undefined),
  node: (row: R, g: GqlContext) => unknown,
  { foreignKey = true, sameTeam = false }: { foreignKey?: boolean; sameTeam?: boolean } = {},
): Resolver {
  const load = (id: string, g: GqlContext) =>
    (g.loaders[loader] as Loaders['user']).load(id).then((row) => (row ? node(row as R, g) : null));
  const fk = typeof key === 'string' ? (row: Record<string, string | null>) => row[key] : key;
  const resolve: Resolver = (src, _args, g, info) => {
    const id = fk(src.row);
    if (!id) return null;
    // Read with the page (plan/page.ts): null when the caller may not see it, as the loader answers.
    const read = planned(src.row, info.fieldName);
    if (read !== undefined) return read === null ? null : node(read as R, g);
    if (!foreignKey || !asksOnlyId(info)) return load(id, g);
    if (sameTeam) return { id };
    const seesIt = (access: TeamAccess) => access.all || (loader === 'user' && !access.guest);
    const known = g.knownAccess();
    if (known) return seesIt(known) ? { id } : load(id, g);
    return g.access().then((access) => (seesIt(access) ? { id } : load(id, g)));
  };
  // A key in a column of the source row can be read with its page.
  return typeof key === 'string'
    ? withPlan(resolve, { kind: 'toOne', loader, column: key, foreignKey })
    : resolve;
}

const ID_ONLY = new Set(['id', '__typename']);
const onlyIdCache = new WeakMap<object, boolean>();

/**
 * Whether a field selects nothing but `id` and `__typename`, through fragments
 * too. Documents are cached (execute.ts), so the answer is kept per AST node;
 * selections with directives are never treated as id-only.
 */
export function asksOnlyId(info: GraphQLResolveInfo): boolean {
  const first = info.fieldNodes[0];
  if (!first || info.fieldNodes.length > 1) return false;
  let known = onlyIdCache.get(first);
  if (known === undefined) {
    known = selectsOnlyId(first.selectionSet, info.fragments, new Set());
    onlyIdCache.set(first, known);
  }
  return known;
}

function selectsOnlyId(
  set: SelectionSetNode | undefined,
  fragments: GraphQLResolveInfo['fragments'],
  seen: Set<string>,
): boolean {
  if (!set) return false;
  return set.selections.every((sel) => {
    if (sel.directives?.length) return false;
    if (sel.kind === Kind.FIELD) return ID_ONLY.has(sel.name.value);
    if (sel.kind === Kind.INLINE_FRAGMENT) return selectsOnlyId(sel.selectionSet, fragments, seen);
    const name = sel.name.value;
    if (seen.has(name)) return true;
    seen.add(name);
    return selectsOnlyId(fragments[name]?.selectionSet, fragments, seen);
  });
}

/** Loads one record by id for a top-level field, or fails with "<What> not found". */
export async function mustLoad<R>(g: GqlContext, loader: ByIdLoader, id: string, what: string): Promise<R> {
  const row = (await (g.loaders[loader] as Loaders['user']).load(id)) as R | null;
  if (!row) throw notFound(what);
  return row;
}

/**
 * A field a page's plan can read as one SQL column over the row
 * (`page`): `load` answers when the plan did not, `answer` turns the column's
 * value into the field's.
 */
export function fromColumn<V>(
  load: Resolver,
  column: (page: RawBuilder<unknown>, access: TeamAccess) => RawBuilder<unknown>,
  // biome-ignore lint/suspicious/noExplicitAny: the source node differs per type
  answer: (value: V, src: any) => unknown = (v) => v,
): Resolver {
  const resolve: Resolver = (src, args, g, info) => {
    const read = planned(src.row, info.fieldName);
    return read !== undefined ? answer(read as V, src) : load(src, args, g, info);
  };
  return withPlan(resolve, { kind: 'column', sql: column });
}

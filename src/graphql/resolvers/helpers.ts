// Small building blocks shared by the resolver modules.
import { notFound } from '../../platform/errors.js';
import type { Resolver } from '../build-schema.js';
import type { GqlContext } from '../context.js';
import type { ByIdLoader, Loaders } from '../loaders.js';

/**
 * A to-one relation: reads the key from the source row and loads the row in
 * the request's batch for that table (one statement for every parent of a
 * page); the loader leaves out rows the caller may not see, which answer null.
 */
export function belongsTo<R>(
  loader: ByIdLoader,
  // biome-ignore lint/suspicious/noExplicitAny: the source row's table differs per relation
  key: string | ((row: any) => string | null | undefined),
  node: (row: R, g: GqlContext) => unknown,
): Resolver {
  const fk = typeof key === 'string' ? (row: Record<string, string | null>) => row[key] : key;
  return (src, _args, g) => {
    const id = fk(src.row);
    if (!id) return null;
    return (g.loaders[loader] as Loaders['user']).load(id).then((row) => (row ? node(row as R, g) : null));
  };
}

/** Loads one record by id for a top-level field, or fails with "<What> not found". */
export async function mustLoad<R>(g: GqlContext, loader: ByIdLoader, id: string, what: string): Promise<R> {
  const row = (await (g.loaders[loader] as Loaders['user']).load(id)) as R | null;
  if (!row) throw notFound(what);
  return row;
}

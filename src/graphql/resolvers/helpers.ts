// Small building blocks shared by the resolver modules.
import { notFound } from '../../platform/errors.js';
import type { Resolver } from '../build-schema.js';
import type { GqlContext } from '../context.js';
import type { Loaders } from '../loaders.js';

type ByIdLoader =
  | 'user'
  | 'team'
  | 'state'
  | 'project'
  | 'cycle'
  | 'label'
  | 'issue'
  | 'comment'
  | 'attachment';

/** A to-one relation: reads the foreign key from the source row and loads it (batched). */
export function belongsTo<R>(
  loader: ByIdLoader,
  // biome-ignore lint/suspicious/noExplicitAny: the source row's table differs per relation
  fk: (row: any) => string | null | undefined,
  node: (row: R, g: GqlContext) => unknown,
): Resolver {
  return async (src, _args, g) => {
    const id = fk(src.row);
    if (!id) return null;
    const row = (await (g.loaders[loader] as Loaders['user']).load(id)) as R | null;
    return row ? node(row, g) : null;
  };
}

/** Loads one record by id for a top-level field, or fails with "<What> not found". */
export async function mustLoad<R>(g: GqlContext, loader: ByIdLoader, id: string, what: string): Promise<R> {
  const row = (await (g.loaders[loader] as Loaders['user']).load(id)) as R | null;
  if (!row) throw notFound(what);
  return row;
}

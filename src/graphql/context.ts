// What every resolver receives for one request: the app, the caller, the
// request's clock and its DataLoaders (which batch and cache by-id loads).
import type { Actor, AppContext } from '../platform/context.js';
import type { Db } from '../platform/db/database.js';
import { createLoaders, type Loaders } from './loaders.js';

export interface GqlContext {
  app: AppContext;
  db: Db;
  actor: Actor;
  /** One clock per request: relative dates and cycle states agree within it. */
  now: Date;
  loaders: Loaders;
}

export function createGqlContext(app: AppContext, actor: Actor): GqlContext {
  return { app, db: app.db, actor, now: new Date(), loaders: createLoaders(app.db) };
}

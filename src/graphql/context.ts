// What every resolver receives for one request: the app, the caller, the
// request's clock and its DataLoaders (which batch and cache by-id loads).
import { teamAccess } from '../modules/teams/access.js';
import type { TeamAccess } from '../platform/access.js';
import { type Actor, type AppContext, authorOf } from '../platform/context.js';
import type { Db } from '../platform/db/database.js';
import { createLoaders, type Loaders } from './loaders.js';

export interface GqlContext {
  app: AppContext;
  db: Db;
  actor: Actor;
  /** One clock per request: relative dates and cycle states agree within it. */
  now: Date;
  loaders: Loaders;
  /** The teams the caller sees, read once per request (platform/access.ts). */
  access: () => Promise<TeamAccess>;
  /**
   * Who `viewer` and `isMe` are: the caller, or for an app acting under its
   * own name (actor=app) the app's user, as the third-party tracker answers.
   */
  viewerId: string;
}

export function createGqlContext(app: AppContext, actor: Actor): GqlContext {
  let known: TeamAccess | undefined;
  const access = async () => {
    known ??= await teamAccess(app.db, actor);
    return known;
  };
  // An admin's access needs no read.
  if (actor.role === 'admin') known = { all: true, userId: actor.id };
  return {
    app,
    db: app.db,
    actor,
    now: new Date(),
    loaders: createLoaders(app.db, access),
    access,
    viewerId: authorOf(actor).id,
  };
}

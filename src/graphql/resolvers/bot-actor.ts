// ActorBot: the app that wrote a record under its own name (an OAuth app
// authorized with actor=app, docs/agents.md "Apps as actors"). The record's
// author is the app's own user (status 'app'); botActor names the app, and is
// null for what a person wrote.
import type { UserRow } from '../../platform/db/tables.js';
import type { Resolver } from '../build-schema.js';

/** The fields an ActorBot carries here (schema/held.ts). */
export const ACTOR_BOT_FIELDS = ['id', 'name', 'type', 'subType', 'avatarUrl', 'userDisplayName'] as const;

const actorBot = (u: UserRow) => ({
  id: u.app_client_id,
  name: u.name,
  type: 'oauthClient',
  subType: null,
  avatarUrl: u.avatar_url,
  userDisplayName: null,
});

/** botActor of a record whose author's id is at `key` (loaded in the request's batch, under the user rule). */
export function botActor(key: (row: never) => string | null | undefined): Resolver {
  return async (src, _args, g) => {
    const id = key(src.row as never);
    if (!id) return null;
    const user = (await g.loaders.user.load(id)) as UserRow | null;
    return user?.status === 'app' ? actorBot(user) : null;
  };
}

// The caller's team access, read once per request: which teams they see.
// Every read of team data applies it through platform/access.ts, whose
// `userSeesTeam` is the rule the read itself uses.
import { canSeeTeam, type TeamAccess } from '../../platform/access.js';
import type { Actor } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import type { TeamRow } from '../../platform/db/tables.js';
import { findTeamByIdOrKey, visibleTeamIds } from './queries.js';

// An Actor object lives for one request (the auth hook makes a new one each
// time), so this remembers the answer for exactly that request.
const perRequest = new WeakMap<Actor, Promise<TeamAccess>>();

/**
 * The teams `actor` may see. Admins: all, without a read. Members: public
 * teams and the private ones they belong to. Guests: the teams they belong to.
 * Pass the transaction when called inside one (PGlite has one connection).
 */
export function teamAccess(db: Db, actor: Actor): Promise<TeamAccess> {
  if (actor.role === 'admin') return Promise.resolve({ all: true, userId: actor.id });
  let access = perRequest.get(actor);
  if (!access) {
    access = readAccess(db, actor);
    perRequest.set(actor, access);
    access.catch(() => perRequest.delete(actor));
  }
  return access;
}

async function readAccess(db: Db, actor: Actor): Promise<TeamAccess> {
  const teamIds = await visibleTeamIds(db, actor);
  return { all: false, userId: actor.id, guest: actor.role === 'guest', teamIds: new Set(teamIds) };
}

/**
 * A team by id or key (current or former) that the caller may see; a team
 * they may not see is undefined, exactly like an unknown one.
 */
export async function findVisibleTeam(
  db: Db,
  idOrKey: string,
  access: TeamAccess,
): Promise<TeamRow | undefined> {
  const team = await findTeamByIdOrKey(db, idOrKey);
  return team && canSeeTeam(access, team.id) ? team : undefined;
}

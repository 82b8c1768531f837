// Every connected user's standing, in one query per batch of the shared feed
// (hub.ts): their row (role, status, session epoch), the teams they see now
// (platform/access.ts `userSeesTeam`, the rule every door applies),
// and their API keys' hashes. Loaded after the batch was read, so it is at
// least as new as every event in it: a removal from a team that committed
// before an event is seen by the batch that holds the event.
import { fullAccess, type TeamAccess } from '../../platform/access.js';
import type { Db } from '../../platform/db/database.js';
import type { Role } from '../../platform/db/tables.js';
import type { StreamCredential } from './credential.js';
import { grantRows } from './queries.js';

export interface UserGrant {
  role: Role;
  active: boolean;
  sessionEpoch: number;
  keyHashes: ReadonlySet<string>;
  /** The user's live sign-in sessions. */
  sessionIds: ReadonlySet<string>;
  teamIds: ReadonlySet<string>;
}

export type Grants = ReadonlyMap<string, UserGrant>;

/** The live users among `userIds`, with what a stream needs of each. */
export async function loadGrants(db: Db, userIds: readonly string[]): Promise<Grants> {
  const rows = await grantRows(db, userIds);
  return new Map(
    rows.map((r) => [
      r.id,
      {
        role: r.role,
        active: r.status === 'active',
        sessionEpoch: Number(r.session_epoch),
        keyHashes: new Set(r.key_hashes),
        sessionIds: new Set(r.session_ids),
        teamIds: new Set(r.team_ids),
      },
    ]),
  );
}

/**
 * The caller's access from the batch's grants, when those vouch for the
 * credential exactly as the full check would; otherwise undefined.
 */
export async function grantedAccess(
  grants: Grants,
  credential: StreamCredential,
): Promise<TeamAccess | undefined> {
  const id = credential.actor.id;
  const g = grants.get(id);
  if (!g?.active) return undefined;
  if (credential.epoch !== null && credential.epoch !== g.sessionEpoch) return undefined;
  if (credential.keyHash !== null && !g.keyHashes.has(credential.keyHash)) return undefined;
  if (credential.sessionId !== null && !g.sessionIds.has(credential.sessionId)) return undefined;
  if (!(await credential.signed())) return undefined;
  return g.role === 'admin'
    ? fullAccess(id)
    : { all: false, userId: id, guest: g.role === 'guest', teamIds: g.teamIds };
}

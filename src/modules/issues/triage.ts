// Where a new issue lands when its team triages (docs/triage.md). With the
// team's triageEnabled on, an issue created by someone outside the team (a
// member or admin without a membership of it) or by an OAuth app acting under
// its own name goes to the team's triage state, whatever state was asked
// for; the team's own members keep the state they chose. Guests cannot
// create issues (policy.ts). Importers keep the source's states: they move
// history, they are not intake (import/runner.ts passes keepState).
import type { Actor } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import type { StateRow, TeamRow } from '../../platform/db/tables.js';
import { firstStateOfType } from '../states/queries.js';
import { findMembership } from '../teams/queries.js';
import { pickLiveState } from './checks.js';

/** Whether an issue this actor creates in this team waits in triage. */
export async function landsInTriage(
  db: Db,
  actor: Pick<Actor, 'id' | 'app'>,
  team: Pick<TeamRow, 'id' | 'triage_enabled'>,
): Promise<boolean> {
  if (!team.triage_enabled) return false;
  if (actor.app) return true;
  return !(await findMembership(db, team.id, actor.id));
}

/** The team's live triage state, share-locked (archiving it waits); none when it has none. */
export const triageState = (db: Db, teamId: string): Promise<StateRow | undefined> =>
  pickLiveState(db, () => firstStateOfType(db, teamId, 'triage'));

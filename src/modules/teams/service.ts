// Team rules: anyone signed in reads teams; admins create them. A new team gets
// the default workflow and every active account as a member.
import { DEFAULT_STATES } from '../../first-start.js';
import type { Actor, AppContext } from '../../platform/context.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import type { TeamRow } from '../../platform/db/tables.js';
import { conflict, invalidField } from '../../platform/errors.js';
import { assertAdmin } from '../users/policy.js';
import { TEAM_KEY } from './ids.js';
import * as q from './queries.js';

export interface TeamCreateInput {
  key: string;
  name: string;
  description?: string | null;
  color?: string | null;
}

const keyTaken = (key: string) => conflict(`A team with key ${key} already exists`);

export async function listTeams(ctx: AppContext, _actor: Actor): Promise<TeamRow[]> {
  return q.listTeams(ctx.db);
}

export async function createTeam(ctx: AppContext, actor: Actor, input: TeamCreateInput): Promise<TeamRow> {
  assertAdmin(actor);
  if (!TEAM_KEY.test(input.key)) {
    throw invalidField('key', 'must be 1-7 upper-case letters or digits, starting with a letter');
  }
  const name = input.name.trim();
  if (!name) throw invalidField('name', 'must not be blank');
  if (await q.findTeamByIdOrKey(ctx.db, input.key)) throw keyTaken(input.key);
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const team = await q.insertTeam(trx, {
        key: input.key,
        name,
        description: input.description ?? null,
        color: input.color ?? null,
      });
      await trx
        .insertInto('workflow_states')
        .values(DEFAULT_STATES.map((s, i) => ({ ...s, team_id: team.id, position: i, description: null })))
        .execute();
      await q.addActiveUsers(trx, team.id);
      return team;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw keyTaken(input.key);
    throw err;
  }
}

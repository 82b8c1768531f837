// SQL fixtures for the projects, cycles and attachments tests: issues are
// inserted directly so these tests do not depend on the issues module.
import type { TestApp } from './support/harness.js';

let seq = 1000;

export async function engTeam(t: TestApp) {
  return t.ctx.db.selectFrom('teams').selectAll().where('key', '=', 'ENG').executeTakeFirstOrThrow();
}

/** Creates a team with SQL (the teams REST may not exist yet) and a state per type. */
export async function createTeam(t: TestApp, key: string) {
  const team = await t.ctx.db
    .insertInto('teams')
    .values({ key, name: `Team ${key}` })
    .returningAll()
    .executeTakeFirstOrThrow();
  await t.ctx.db
    .insertInto('workflow_states')
    .values(
      (['backlog', 'started', 'completed', 'canceled'] as const).map((type, i) => ({
        team_id: team.id,
        name: type,
        type,
        color: '#aaaaaa',
        position: i,
      })),
    )
    .execute();
  return team;
}

export async function stateOf(
  t: TestApp,
  teamId: string,
  type: 'backlog' | 'started' | 'completed' | 'canceled',
) {
  return t.ctx.db
    .selectFrom('workflow_states')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('type', '=', type)
    .orderBy('position')
    .executeTakeFirstOrThrow();
}

/** Inserts an issue in a state of the given type. */
export async function insertIssue(
  t: TestApp,
  opts: {
    type?: 'backlog' | 'started' | 'completed' | 'canceled';
    projectId?: string | null;
    cycleId?: string | null;
    teamId?: string;
  } = {},
) {
  const teamId = opts.teamId ?? (await engTeam(t)).id;
  const team = await t.ctx.db
    .selectFrom('teams')
    .select('key')
    .where('id', '=', teamId)
    .executeTakeFirstOrThrow();
  const state = await stateOf(t, teamId, opts.type ?? 'backlog');
  const number = ++seq;
  const identifier = `${team.key}-${number}`;
  const issue = await t.ctx.db
    .insertInto('issues')
    .values({
      team_id: teamId,
      number,
      identifier,
      title: `Issue ${number}`,
      state_id: state.id,
      project_id: opts.projectId ?? null,
      cycle_id: opts.cycleId ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await t.ctx.db.insertInto('issue_identifiers').values({ identifier, issue_id: issue.id }).execute();
  return issue;
}

export async function setFlag(t: TestApp, key: string, enabled: boolean) {
  const res = await t.patch(`/api/admin/flags/${key}`, { enabled }, t.adminToken);
  if (res.status !== 200) throw new Error(`flag ${key}: ${res.status} ${JSON.stringify(res.body)}`);
}

export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

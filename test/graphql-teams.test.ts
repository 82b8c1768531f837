// Team management through a real @linear/sdk client: teamCreate, teamUpdate
// (a key change keeps old identifiers), teamDelete (archives), teamUnarchive,
// teamMembershipCreate/Update/Delete, team.members and user.teamMemberships, and
// workflowStateCreate/Update/Archive.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ForbiddenLinearError, InvalidInputLinearError, type LinearClient } from '@linear/sdk';
import { apiKeyFor, sdk, startGraphqlApp } from './graphql-helpers.js';
import type { TestApp } from './support/harness.js';

let t: TestApp;
let base: string;
let client: LinearClient;
let memberClient: LinearClient;
let member: { token: string; user: any };
before(async () => {
  ({ t, base, client } = await startGraphqlApp());
  member = await t.register('Mia Member');
  memberClient = sdk(base, await apiKeyFor(t, member.token));
});
after(() => t.close());

describe('teams through the SDK', () => {
  test('create with the held settings; unheld ones are ignored', async () => {
    const created = await client.createTeam({
      name: 'Platform',
      key: 'PLAT',
      description: 'Infra',
      color: '#123456',
      icon: 'Server',
      timezone: 'Europe/Berlin',
      cyclesEnabled: false,
      cycleDuration: 2,
      triageEnabled: true,
    });
    assert.equal(created.success, true);
    assert.ok(created.lastSyncId >= 0);
    const team = (await created.team)!;
    assert.equal(team.key, 'PLAT');
    assert.equal(team.timezone, 'Europe/Berlin');
    assert.equal(team.cyclesEnabled, false);
    assert.equal(team.private, false);
    // triageEnabled is held: the team gets its triage state.
    assert.equal(team.triageEnabled, true);
    assert.equal((await team.triageIssueState)?.type, 'triage');
    assert.deepEqual((await team.states()).nodes.map((s) => s.name).sort(), [
      'Backlog',
      'Canceled',
      'Done',
      'Duplicate',
      'In Progress',
      'In Review',
      'Todo',
      'Triage',
    ]);
    // Without a key, one is made from the name.
    const derived = (await (await client.createTeam({ name: 'Design studio' })).team)!;
    assert.equal(derived.key, 'DES');
  });

  test('a key change: ENG-style identifiers keep resolving and new issues take the new key', async () => {
    const team = (await (await client.createTeam({ name: 'Old', key: 'OLD' })).team)!;
    const issue = (await (await client.createIssue({ teamId: team.id, title: 'Before' })).issue)!;
    assert.equal(issue.identifier, 'OLD-1');
    const updated = await client.updateTeam(team.id, { key: 'NEW', name: 'New', autoClosePeriod: 3 });
    assert.equal((await updated.team)!.key, 'NEW');
    for (const ident of ['OLD-1', 'NEW-1']) {
      const found = await client.issue(ident);
      assert.equal(found.id, issue.id);
      assert.equal(found.identifier, 'NEW-1');
    }
    assert.ok((await client.issue(issue.id)).previousIdentifiers.includes('OLD-1'));
    const next = (await (await client.createIssue({ teamId: team.id, title: 'After' })).issue)!;
    assert.equal(next.identifier, 'NEW-2');
    // The team answers to its former key too.
    assert.equal((await client.team('OLD')).id, team.id);
  });

  test('invalid and taken keys are invalid input', async () => {
    await assert.rejects(() => client.createTeam({ name: 'x', key: 'lower' }), InvalidInputLinearError);
    await assert.rejects(() => client.createTeam({ name: 'x', key: 'ENG' }), InvalidInputLinearError);
    await assert.rejects(() => client.createTeam({ name: '12' }), InvalidInputLinearError);
    const team = (await (await client.createTeam({ name: 'Keys', key: 'KEYS' })).team)!;
    await assert.rejects(() => client.updateTeam(team.id, { key: 'ENG' }), InvalidInputLinearError);
    await assert.rejects(
      () => client.updateTeam(team.id, { timezone: 'Nowhere/Land' }),
      InvalidInputLinearError,
    );
    assert.equal((await client.team(team.id)).key, 'KEYS');
  });

  test('teamDelete archives (issues stay); teamUnarchive restores', async () => {
    const team = (await (await client.createTeam({ name: 'Temp', key: 'TMP' })).team)!;
    const issue = (await (await client.createIssue({ teamId: team.id, title: 'Stays' })).issue)!;
    const del = await client.deleteTeam(team.id);
    assert.equal(del.success, true);
    assert.equal(del.entityId, team.id);
    assert.ok((await client.team(team.id)).archivedAt);
    assert.equal((await client.issue(issue.id)).id, issue.id);
    const back = await client.unarchiveTeam(team.id);
    assert.equal((await back.entity)!.archivedAt, undefined);
  });

  test('memberships: create, list both ways, delete', async () => {
    const team = (await (await client.createTeam({ name: 'Club', key: 'CLUB', private: true })).team)!;
    const viewer = await client.viewer;
    assert.deepEqual(
      (await team.members()).nodes.map((u) => u.id),
      [viewer.id],
    );
    const created = await client.createTeamMembership({
      teamId: team.id,
      userId: member.user.id,
      owner: true,
    });
    const membership = (await created.teamMembership)!;
    assert.equal(membership.owner, true);
    assert.deepEqual(
      (await team.members()).nodes.map((u) => u.id).sort(),
      [viewer.id, member.user.id].sort(),
    );
    const mine = await (await memberClient.viewer).teamMemberships();
    const inClub = mine.nodes.find((m) => m.id === membership.id);
    assert.ok(inClub);
    assert.equal(inClub.teamId, team.id);

    await assert.rejects(
      () => client.createTeamMembership({ teamId: team.id, userId: member.user.id }),
      InvalidInputLinearError,
    );
    const updated = await client.updateTeamMembership(membership.id, { owner: false, sortOrder: 2 });
    assert.equal((await updated.teamMembership)!.sortOrder, 2);
    assert.equal((await client.teamMembership(membership.id)).owner, false);
    const del = await client.deleteTeamMembership(membership.id);
    assert.equal(del.entityId, membership.id);
    assert.deepEqual(
      (await team.members()).nodes.map((u) => u.id),
      [viewer.id],
    );
  });

  test('members may not manage teams or memberships', async () => {
    const team = (await client.teams()).nodes.find((x) => x.key === 'ENG')!;
    await assert.rejects(() => memberClient.createTeam({ name: 'Mine', key: 'MINE' }), ForbiddenLinearError);
    await assert.rejects(() => memberClient.updateTeam(team.id, { name: 'Mine' }), ForbiddenLinearError);
    await assert.rejects(() => memberClient.deleteTeam(team.id), ForbiddenLinearError);
    await assert.rejects(
      () => memberClient.createTeamMembership({ teamId: team.id, userId: member.user.id }),
      ForbiddenLinearError,
    );
    const mine = (await (await memberClient.viewer).teamMemberships()).nodes[0]!;
    await assert.rejects(() => memberClient.deleteTeamMembership(mine.id), ForbiddenLinearError);
    await assert.rejects(
      () => memberClient.updateTeamMembership(mine.id, { owner: true }),
      ForbiddenLinearError,
    );
    assert.equal((await client.team(team.id)).name, 'Engineering');
  });
});

describe('workflow states through the SDK', () => {
  test('create, update, archive an empty state', async () => {
    const team = (await (await client.createTeam({ name: 'Flow', key: 'FLOW' })).team)!;
    const created = await client.createWorkflowState({
      teamId: team.id,
      name: 'Blocked',
      color: '#FF0000',
      type: 'started',
      description: 'Waiting on others',
    });
    assert.equal(created.success, true);
    const state = await created.workflowState;
    assert.equal(state!.name, 'Blocked');
    assert.equal(state!.type, 'started');
    assert.equal(state!.color, '#ff0000');
    assert.equal((await state!.team)!.id, team.id);

    await client.updateWorkflowState(state!.id, { name: 'On hold', position: 2.5 });
    const again = await client.workflowState(state!.id);
    assert.equal(again.name, 'On hold');
    assert.equal(again.position, 2.5);

    const archived = await client.archiveWorkflowState(state!.id);
    assert.equal(archived.success, true);
    assert.ok((await archived.entity)!.archivedAt);
    const live = (await team.states()).nodes.map((s) => s.id);
    assert.equal(live.includes(state!.id), false);
  });

  test('archiving a state with issues, or the last of its type, is invalid input', async () => {
    const team = (await (await client.createTeam({ name: 'Busy', key: 'BUSY' })).team)!;
    const states = (await team.states()).nodes;
    const review = states.find((s) => s.name === 'In Review')!;
    await client.createIssue({ teamId: team.id, title: 'Under review', stateId: review.id });
    await assert.rejects(() => client.archiveWorkflowState(review.id), InvalidInputLinearError);
    const backlog = states.find((s) => s.type === 'backlog')!;
    await assert.rejects(() => client.archiveWorkflowState(backlog.id), InvalidInputLinearError);
    await assert.rejects(
      () => client.createWorkflowState({ teamId: team.id, name: 'X', color: '#000000', type: 'doing' }),
      InvalidInputLinearError,
    );
    assert.equal((await client.workflowState(review.id)).archivedAt, undefined);
  });

  test('members may not manage states', async () => {
    const state = (await client.workflowStates()).nodes[0]!;
    await assert.rejects(
      () =>
        memberClient.createWorkflowState({
          teamId: state.teamId!,
          name: 'X',
          color: '#000000',
          type: 'started',
        }),
      ForbiddenLinearError,
    );
    await assert.rejects(
      () => memberClient.updateWorkflowState(state.id, { name: 'X' }),
      ForbiddenLinearError,
    );
    await assert.rejects(() => memberClient.archiveWorkflowState(state.id), ForbiddenLinearError);
  });
});

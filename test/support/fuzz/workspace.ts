// A populated workspace for the fuzz tests: three callers (admin, member,
// guest) whose own accounts are kept out of the id pool, so generated requests
// cannot sign them out, and one record of every kind for requests to reach.
import type { TestApp } from '../harness.js';
import type { IdPool } from './values.js';

export interface FuzzWorkspace {
  pool: IdPool;
  callers: { role: 'admin' | 'member' | 'guest'; token: string }[];
}

/** The record under `key` of a successful answer. */
function must(res: { status: number; body: any }, key: string): any {
  if (res.status >= 300) throw new Error(`${key}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body[key];
}

export async function fuzzWorkspace(t: TestApp): Promise<FuzzWorkspace> {
  const admin = t.adminToken;
  const member = await t.userWithRole('member');
  const guest = await t.userWithRole('guest', { teams: ['ENG'] });
  const bystander = await t.userWithRole('member');

  const team = must(await t.get('/api/teams', admin), 'teams');
  const teamId = team[0].id as string;
  const issue = must(await t.post('/api/issues', { title: 'Fuzz target', teamId }, admin), 'issue');
  const child = must(
    await t.post('/api/issues', { title: 'Fuzz child', teamId, parentId: issue.id }, member.token),
    'issue',
  );
  const comment = must(
    await t.post(`/api/issues/${issue.id}/comments`, { body: 'first' }, guest.token),
    'comment',
  );
  const project = must(
    await t.post('/api/projects', { name: 'Fuzz project', teamIds: [teamId] }, admin),
    'project',
  );
  const cycle = must(
    await t.post(
      '/api/cycles',
      { teamId, startsAt: '2026-01-05T00:00:00Z', endsAt: '2026-01-19T00:00:00Z' },
      admin,
    ),
    'cycle',
  );
  const file = must(
    await t.request('POST', '/api/files', {
      token: member.token,
      payload: Buffer.from('hello'),
      headers: { 'content-type': 'text/plain', 'x-filename': 'hello.txt' },
    }),
    'file',
  );
  const hook = must(
    await t.post('/api/admin/webhooks', { url: 'http://127.0.0.1:9/hook', label: 'fuzz' }, admin),
    'webhook',
  );
  // An OAuth app, so that the routes naming a client id reach a real one.
  const oauthApp = must(
    await t.post(
      '/api/admin/oauth/apps',
      { name: 'Fuzz app', redirectUris: ['http://127.0.0.1:9/cb'] },
      admin,
    ),
    'clientId',
  );
  const labels = must(await t.get('/api/labels', admin), 'labels');
  const states = must(await t.get(`/api/workflow-states?teamId=${teamId}`, admin), 'workflowStates');

  const ids = [
    teamId,
    issue.id,
    child.id,
    comment.id,
    project.id,
    cycle.id,
    file.id,
    hook.id,
    bystander.user.id,
    ...(labels as any[]).slice(0, 2).map((l) => l.id),
    ...(states as any[]).slice(0, 2).map((s) => s.id),
  ].filter((x): x is string => typeof x === 'string');

  return {
    pool: { uuids: ids, keys: [issue.identifier, child.identifier, 'ENG', oauthApp].filter(Boolean) },
    callers: [
      { role: 'admin', token: admin },
      { role: 'member', token: member.token },
      { role: 'guest', token: guest.token },
    ],
  };
}

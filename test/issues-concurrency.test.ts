import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

test('50 parallel creates over real HTTP get the numbers 1..50 with no gaps', async () => {
  const { token } = await t.register('Racer');
  const team = await t.post('/api/teams', { key: 'RACE', name: 'Race' }, t.adminToken);
  assert.equal(team.status, 201);
  const base = await t.listen();
  const responses = await Promise.all(
    Array.from({ length: 50 }, (_, n) =>
      fetch(`${base}/api/issues`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ title: `Parallel ${n}`, teamId: 'RACE' }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any })),
    ),
  );
  assert.deepEqual(
    responses.filter((r) => r.status !== 201),
    [],
  );
  const numbers = responses.map((r) => r.body.issue.number).sort((a, b) => a - b);
  assert.deepEqual(
    numbers,
    Array.from({ length: 50 }, (_, i) => i + 1),
  );
  const identifiers = new Set(responses.map((r) => r.body.issue.identifier));
  assert.equal(identifiers.size, 50);
  const listed = await t.get('/api/issues?teamId=RACE&limit=1', token);
  assert.equal(listed.body.pageInfo.total, 50);
  const teamAfter = await t.get('/api/teams/RACE', token);
  assert.equal(teamAfter.body.team.lastIssueNumber, 50);
});

// A member's batches through the real @linear/sdk client: the team-access read
// happens inside the batch's transaction. It used to run on a connection of its
// own, which on PGlite (one connection) waited for the transaction forever:
// the second issue of a member's batch hung the server.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { LinearClient } from '@linear/sdk';
import { apiKeyFor, sdk } from './graphql-helpers.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let member: LinearClient;
let memberId: string;
let teamId: string;

before(async () => {
  t = await startTestApp();
  const base = await t.listen();
  const m = await t.userWithRole('member', { teams: ['ENG'] });
  memberId = m.user.id;
  member = sdk(base, await apiKeyFor(t, m.token));
  teamId = (await member.teams()).nodes[0]!.id;
});
after(() => t.close());

/** Fails instead of waiting for ever when the server hangs. */
const soon = <T>(p: Promise<T>, what: string) =>
  Promise.race([
    p,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} hung`)), 15_000).unref()),
  ]);

test('a member creates three issues in one batch and assigns all three to themself', async () => {
  const created = await soon(
    member.createIssueBatch({ issues: [1, 2, 3].map((n) => ({ teamId, title: `Member batch ${n}` })) }),
    'issueBatchCreate',
  );
  const ids = (await Promise.all(created.issues)).map((i) => i.id);
  assert.equal(ids.length, 3);
  const updated = await soon(
    member.updateIssueBatch(ids, { assigneeId: memberId, priority: 2 }),
    'issueBatchUpdate',
  );
  assert.equal(updated.success, true);
  for (const id of ids) {
    const issue = (await t.get(`/api/issues/${id}`, t.adminToken)).body.issue;
    assert.equal(issue.assigneeId, memberId);
    assert.equal(issue.priority, 2);
  }
});

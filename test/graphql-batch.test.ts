// issueBatchCreate / issueBatchUpdate through the real @linear/sdk client:
// all of a batch or none of it, refusals naming the item, a bound on size.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { InvalidInputLinearError, type LinearClient } from '@linear/sdk';
import { startGraphqlApp } from './graphql-helpers.js';
import type { TestApp } from './support/harness.js';

let t: TestApp;
let client: LinearClient;
let teamId: string;

before(async () => {
  ({ t, client, teamId } = await startGraphqlApp());
});
after(() => t.close());

const total = async () =>
  (await t.get('/api/issues?limit=1&includeArchived=true', t.adminToken)).body.pageInfo.total;

describe('issueBatchCreate', () => {
  test('creates every issue, numbered in order, with their fields', async () => {
    const res = await client.createIssueBatch({
      issues: [
        { teamId, title: 'Batch one', priority: 1 },
        { teamId, title: 'Batch two', description: 'second' },
        { teamId, title: 'Batch three' },
      ],
    });
    assert.equal(res.success, true);
    const issues = await Promise.all(res.issues);
    assert.deepEqual(
      issues.map((i) => i.title),
      ['Batch one', 'Batch two', 'Batch three'],
    );
    const numbers = issues.map((i) => i.number);
    assert.deepEqual(numbers, [numbers[0], numbers[0]! + 1, numbers[0]! + 2]);
    assert.equal(issues[0]!.priority, 1);
    assert.equal((await client.issue(issues[1]!.id)).description, 'second');
  });

  test('one bad item refuses the whole batch, naming the item', async () => {
    const before = await total();
    const err = await client
      .createIssueBatch({
        issues: [
          { teamId, title: 'Fine' },
          { teamId: 'NOPE', title: 'Bad team' },
        ],
      })
      .catch((e) => e);
    assert.ok(err instanceof InvalidInputLinearError, String(err));
    assert.match(err.message, /issues\[1\]/);
    assert.equal(await total(), before, 'nothing was created');
  });

  test('an empty batch, or one over 50 issues, is invalid input', async () => {
    await assert.rejects(() => client.createIssueBatch({ issues: [] }), InvalidInputLinearError);
    const many = Array.from({ length: 51 }, (_, i) => ({ teamId, title: `Many ${i}` }));
    await assert.rejects(() => client.createIssueBatch({ issues: many }), /at most 50/);
  });
});

describe('issueBatchUpdate', () => {
  test('changes every issue alike; added labels join each issue its own', async () => {
    const label = (await (await client.createIssueLabel({ name: 'Batch label', teamId })).issueLabel)!;
    const other = (await (await client.createIssueLabel({ name: 'Kept', teamId })).issueLabel)!;
    const created = await Promise.all(
      (
        await client.createIssueBatch({
          issues: [
            { teamId, title: 'Update A', labelIds: [other.id] },
            { teamId, title: 'Update B' },
          ],
        })
      ).issues,
    );
    const ids = created.map((i) => i.id);
    const res = await client.updateIssueBatch(ids, { priority: 2, addedLabelIds: [label.id] });
    assert.equal(res.success, true);
    for (const id of ids) assert.equal((await client.issue(id)).priority, 2);
    assert.deepEqual([...(await client.issue(ids[0]!)).labelIds].sort(), [label.id, other.id].sort());
    assert.deepEqual((await client.issue(ids[1]!)).labelIds, [label.id]);
  });

  test('an unknown id refuses the whole batch, naming it, and changes nothing', async () => {
    const issue = (await (await client.createIssue({ teamId, title: 'Untouched', priority: 4 })).issue)!;
    const unknown = '00000000-0000-4000-8000-000000000000';
    const err = await client.updateIssueBatch([issue.id, unknown], { priority: 1 }).catch((e) => e);
    assert.ok(err instanceof InvalidInputLinearError, String(err));
    assert.match(err.message, /ids\[1\]/);
    assert.equal((await client.issue(issue.id)).priority, 4);
  });
});

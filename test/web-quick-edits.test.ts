// Quick edits (issue 26) show their result before the server answers
// (web/src/lib/issue-edit-choices.ts). Property: for any issues with any labels and
// any label picked in the menu, the labels the web shows at once are the ones
// the server saves from the write the web sends (one issue: issueUpdate with
// the whole list; several: issueBatchUpdate adding or removing one label).
// And the shortcut table never gives one key two meanings in one place.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { changeFor, choices, type EditableIssue, type EditRef } from '../web/src/lib/issue-edit-choices.js';
import { keyLabel, SHORTCUTS } from '../web/src/lib/keys.js';
import { startTestApp, type TestApp } from './support/harness.js';

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 12);
let t: TestApp;
let ref: EditRef;
let teamId: string;
const pool: string[] = [];

before(async () => {
  t = await startTestApp();
  const team = (await t.get('/api/teams', t.adminToken)).body.teams.find(
    (x: { key: string }) => x.key === 'ENG',
  );
  teamId = team.id;
  for (const name of ['Red', 'Green', 'Blue']) {
    const made = await t.post(
      '/api/labels',
      { name: `Quick ${name}`, color: '#aa3344', teamId },
      t.adminToken,
    );
    assert.equal(made.status, 201, JSON.stringify(made.body));
    pool.push(made.body.label.id);
  }
  // Only what `choices('labels')` reads: the labels and their teams.
  ref = {
    labels: pool.map((id, n) => ({ id, name: `Quick ${n}`, color: '#aa3344', teamId })),
  } as unknown as EditRef;
});
after(() => t.close());

const gql = async (query: string, variables: Record<string, unknown>) => {
  const res = await t.post('/graphql', { query, variables }, t.adminToken);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.errors, undefined, JSON.stringify(res.body.errors));
  return res.body.data;
};

test('the labels a quick edit shows at once are the labels the server saves', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.subarray([0, 1, 2]), { minLength: 1, maxLength: 4 }),
      fc.integer({ min: 0, max: 2 }),
      async (labelSets, picked) => {
        const issues: EditableIssue[] = [];
        for (const set of labelSets) {
          const made = await t.post(
            '/api/issues',
            { teamId, title: 'Quick labels', labelIds: set.map((n) => pool[n]) },
            t.adminToken,
          );
          assert.equal(made.status, 201, JSON.stringify(made.body));
          const i = made.body.issue;
          issues.push({ ...i, labelIds: [...i.labelIds] });
        }
        const choice = choices('labels', issues, ref).find((c) => c.value === pool[picked])!;
        const { input, local } = changeFor('labels', choice, issues);
        if (issues.length === 1)
          await gql(
            'mutation($id: String!, $input: IssueUpdateInput!) { issueUpdate(id: $id, input: $input) { success } }',
            {
              id: issues[0]!.id,
              input,
            },
          );
        else
          await gql(
            'mutation($ids: [UUID!]!, $input: IssueUpdateInput!) { issueBatchUpdate(ids: $ids, input: $input) { success } }',
            {
              ids: issues.map((i) => i.id),
              input,
            },
          );
        for (const i of issues) {
          const shown = (typeof local === 'function' ? local(i) : local).labelIds ?? i.labelIds;
          const saved = (await t.get(`/api/issues/${i.id}`, t.adminToken)).body.issue.labelIds as string[];
          assert.deepEqual([...saved].sort(), [...shown].sort());
          // The picked label comes off when every issue had it, else goes on every one.
          assert.equal(saved.includes(pool[picked]!), !choice.checked);
        }
      },
    ),
    { numRuns: RUNS },
  );
});

test('no key means two things in one place, and every key has a name to show', () => {
  const seen = new Set<string>();
  for (const s of SHORTCUTS)
    for (const key of s.keys) {
      const place = `${s.where}: ${key}`;
      assert.ok(!seen.has(place), `${place} is bound twice`);
      seen.add(place);
      assert.ok(keyLabel(key).trim().length > 0, key);
    }
  // Keys that work anywhere cannot be taken by a page.
  const anywhere = SHORTCUTS.filter((s) => s.where === 'Anywhere').flatMap(
    (s) => s.keys as readonly string[],
  );
  for (const s of SHORTCUTS.filter((x) => x.where !== 'Anywhere' && x.where !== 'In a menu'))
    for (const key of s.keys) assert.ok(!anywhere.includes(key), `${s.id} takes ${key}, a key for anywhere`);
});

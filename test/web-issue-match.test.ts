// The web UI puts a changed issue into its cached lists by judging the list's
// filter in the browser (web/src/lib/issue-match.ts) instead of reading the
// list again (issue 24, finding 13). Property: for any filter of the shapes the
// UI builds, whenever the browser says yes or no, the server's list agrees.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { matchesFilter } from '../web/src/lib/issue-match.js';
import { startTestApp, type TestApp } from './support/harness.js';

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 12) * 4;
const NO_ID = '00000000-0000-0000-0000-000000000000';
let t: TestApp;
type Issue = Parameters<typeof matchesFilter>[1];
type IssueFilter = Parameters<typeof matchesFilter>[0];
const issues: Issue[] = [];
let stateIds: string[] = [];
let labelIds: string[] = [];
let userIds: string[] = [];
let teamId = '';

const titles = new Map<string, string>();
const toIssue = (i: any): Issue => ({
  id: i.id,
  priority: i.priority,
  stateId: i.stateId,
  teamId: i.teamId,
  assigneeId: i.assigneeId,
  projectId: i.projectId,
  cycleId: i.cycleId,
  labelIds: i.labelIds,
});

before(async () => {
  t = await startTestApp();
  const token = t.adminToken;
  const member = await t.register('Mia Matcher');
  teamId = (await t.get('/api/teams/ENG', token)).body.team.id;
  stateIds = (await t.get('/api/workflow-states?teamId=ENG', token)).body.workflowStates.map(
    (s: any) => s.id,
  );
  labelIds = (await t.get('/api/labels', token)).body.labels.map((l: any) => l.id).slice(0, 3);
  userIds = [(await t.get('/api/auth/me', token)).body.user.id, member.user.id];
  for (let n = 0; n < 16; n++) {
    const res = await t.post(
      '/api/issues',
      {
        teamId: 'ENG',
        title: `Matched ${n}`,
        priority: n % 5,
        stateId: stateIds[n % stateIds.length],
        ...(n % 3 ? { assigneeId: userIds[n % 2] } : {}),
        labelIds: labelIds.filter((_, i) => (n >> i) & 1),
      },
      token,
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    issues.push(toIssue(res.body.issue));
    titles.set(res.body.issue.id, res.body.issue.title);
  }
});
after(() => t?.close());

const ref = (ids: string[]) =>
  fc.oneof(
    fc.constant({ null: true }),
    fc.constant({ null: false }),
    fc.constantFrom(...ids, NO_ID).map((id) => ({ id: { eq: id } })),
    fc.constantFrom(...ids, NO_ID).map((id) => ({ id: { neq: id } })),
    fc.subarray([...ids, NO_ID]).map((ids) => ({ id: { in: ids } })),
  );

/** The filters the UI builds (toIssueFilter, serverGroups, board columns), nested with and/or. */
function filters(): fc.Arbitrary<IssueFilter> {
  const leaf = fc.oneof(
    fc.constant({} as IssueFilter),
    fc.constant({ team: { id: { eq: teamId } } }),
    ref(stateIds).map((state) => ({ state })),
    ref(userIds).map((assignee) => ({ assignee })),
    fc.constantFrom(...labelIds, NO_ID).map((id) => ({ labels: { some: { id: { eq: id } } } })),
    fc.integer({ min: 0, max: 4 }).map((p) => ({ priority: { eq: p } })),
    fc.constant({ project: { null: true } }),
    fc.constant({ cycle: { null: true } }),
    fc.constant({ searchableContent: { contains: 'Matched' } }),
  ) as fc.Arbitrary<IssueFilter>;
  return fc.letrec<{ f: IssueFilter }>((tie) => ({
    f: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.array(tie('f'), { minLength: 1, maxLength: 3 }).map((and) => ({ and })),
      fc.array(tie('f'), { minLength: 1, maxLength: 3 }).map((or) => ({ or })),
    ),
  })).f;
}

test('the browser judges a list filter as the server does, or says it cannot tell', async () => {
  let judged = 0;
  await fc.assert(
    fc.asyncProperty(filters(), async (filter) => {
      const q = new URLSearchParams({ limit: '250', filter: JSON.stringify(filter) });
      const res = await t.get(`/api/issues?${q}`, t.adminToken);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const listed = new Set(res.body.issues.map((i: any) => i.id));
      for (const issue of issues) {
        const verdict = matchesFilter(filter, issue);
        if (verdict === undefined) continue;
        judged++;
        assert.equal(
          verdict,
          listed.has(issue.id),
          `${titles.get(issue.id)} under ${JSON.stringify(filter)}`,
        );
      }
    }),
    { numRuns: RUNS },
  );
  assert.ok(judged > 0, 'some filters were judged in the browser');
});

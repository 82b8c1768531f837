// One search: REST `q`, GraphQL `searchIssues(term:)`, the older
// `issueSearch(query:)` and the IssueFilter field `searchableContent` (what
// the UI's search box sends) answer the same
// issues for the same words, and only issues the caller may see.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { gql } from './graphql-helpers.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let base: string;
let member: { token: string };
const ids: Record<string, string> = {};

before(async () => {
  t = await startTestApp();
  base = await t.listen();
  member = await t.userWithRole('member');
  const hidden = await t.post('/api/teams', { name: 'Hidden', key: 'HID', private: true }, t.adminToken);
  assert.equal(hidden.status, 201, JSON.stringify(hidden.body));
  const issues: [string, string, string | undefined][] = [
    ['cafe', 'Café report for Q3', undefined],
    ['deploy', 'Deploy the reporting service', 'Rolls out the café dashboards'],
    ['other', 'Unrelated chore', 'nothing to see, follows up OPS-42'],
    ['secret', 'Café report of the hidden team', 'HID'],
  ];
  for (const [name, title, extra] of issues) {
    const body =
      extra === 'HID'
        ? { title, teamId: hidden.body.team.id }
        : { title, ...(extra ? { description: extra } : {}) };
    const res = await t.post('/api/issues', body, t.adminToken);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    ids[name] = res.body.issue.id;
  }
});

after(() => t.close());

const sorted = (list: string[]) => [...list].sort();

async function throughEachDoor(term: string, token: string) {
  const rest = await t.get(`/api/issues?q=${encodeURIComponent(term)}`, token);
  assert.equal(rest.status, 200, JSON.stringify(rest.body));
  const auth = `Bearer ${token}`;
  const search = await gql(
    base,
    auth,
    'query($t: String!) { searchIssues(term: $t) { nodes { id } totalCount } }',
    {
      t: term,
    },
  );
  assert.equal(search.body.errors, undefined, JSON.stringify(search.body.errors));
  const filtered = await gql(base, auth, 'query($f: IssueFilter) { issues(filter: $f) { nodes { id } } }', {
    f: { searchableContent: { contains: term } },
  });
  assert.equal(filtered.body.errors, undefined, JSON.stringify(filtered.body.errors));
  const older = await gql(base, auth, 'query($q: String) { issueSearch(query: $q) { nodes { id } } }', {
    q: term,
  });
  assert.equal(older.body.errors, undefined, JSON.stringify(older.body.errors));
  return {
    rest: sorted(rest.body.issues.map((i: { id: string }) => i.id)),
    restTotal: rest.body.pageInfo.total as number,
    search: sorted(search.body.data.searchIssues.nodes.map((i: { id: string }) => i.id)),
    searchTotal: search.body.data.searchIssues.totalCount as number,
    filter: sorted(filtered.body.data.issues.nodes.map((i: { id: string }) => i.id)),
    issueSearch: sorted(older.body.data.issueSearch.nodes.map((i: { id: string }) => i.id)),
  };
}

test('the three doors find the same issues: word prefixes, accents and case folded, title and description', async () => {
  const cases: [string, string[]][] = [
    ['cafe', ['cafe', 'deploy']],
    ['CAFÉ rep', ['cafe', 'deploy']],
    ['report q3', ['cafe']],
    ['dash', ['deploy']],
    ['zebra', []],
    // A key in text is the word "ops" and the signed number "-42" to PostgreSQL's parser.
    ['OPS-42', ['other']],
    ['ops-4', ['other']],
    ['OPS-43', []],
  ];
  for (const [term, expected] of cases) {
    const found = await throughEachDoor(term, member.token);
    const want = sorted(expected.map((k) => ids[k]!));
    assert.deepEqual(found.rest, want, `REST q=${term}`);
    assert.deepEqual(found.search, want, `searchIssues ${term}`);
    assert.deepEqual(found.filter, want, `searchableContent ${term}`);
    assert.deepEqual(found.issueSearch, want, `issueSearch ${term}`);
    assert.equal(found.restTotal, want.length);
    assert.equal(found.searchTotal, want.length);
  }
});

test('an admin finds the private team’s issue; a member outside it does not, through any door', async () => {
  const admin = await throughEachDoor('hidden', t.adminToken);
  assert.deepEqual(admin.rest, [ids['secret']]);
  assert.deepEqual(admin.search, [ids['secret']]);
  assert.deepEqual(admin.filter, [ids['secret']]);
  const outsider = await throughEachDoor('hidden', member.token);
  assert.deepEqual(outsider, {
    rest: [],
    restTotal: 0,
    search: [],
    searchTotal: 0,
    filter: [],
    issueSearch: [],
  });
});

test('notContains keeps the issues without the words; text without words matches everything', async () => {
  const auth = `Bearer ${member.token}`;
  const q = 'query($f: IssueFilter) { issues(filter: $f) { nodes { id } } }';
  const without = await gql(base, auth, q, { f: { searchableContent: { notContains: 'café' } } });
  const got = without.body.data.issues.nodes.map((i: { id: string }) => i.id);
  assert.ok(got.includes(ids['other']));
  assert.ok(!got.includes(ids['cafe']) && !got.includes(ids['deploy']));
  const blank = await gql(base, auth, q, { f: { searchableContent: { contains: ' -- ' } } });
  assert.ok(blank.body.data.issues.nodes.length >= 3);
  const wrong = await gql(base, auth, q, { f: { searchableContent: { contains: 5 } } });
  assert.equal(wrong.body.errors?.[0]?.extensions?.type, 'invalid input');
});

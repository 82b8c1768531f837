// GraphQL's attachmentLinkGitHubPR / attachmentLinkGitLabMR / attachmentLinkURL
// through the real @linear/sdk client: they write the attachment a webhook
// writes (one function, modules/git/links.ts), so a later delivery about the
// same pull request updates that link rather than adding one; a guest outside
// the issue's team is refused; and no input makes the endpoint fail.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LinearClient } from '@linear/sdk';
import fc from 'fast-check';
import { connect, deliverAndWait, gitAttachments, githubExample } from './git-support.js';
import { apiKeyFor, gql, sdk, startGraphqlApp } from './graphql-helpers.js';
import type { TestApp } from './support/harness.js';

let t: TestApp;
let base: string;
let key: string;
let client: LinearClient;
let teamId: string;

before(async () => {
  ({ t, base, key, client, teamId } = await startGraphqlApp());
});
after(() => t.close());

const newIssue = async (title: string) => (await (await client.createIssue({ teamId, title })).issue)!;
const METADATA_KEYS = [
  'author',
  'branch',
  'host',
  'link',
  'number',
  'repo',
  'status',
  'targetBranch',
  'title',
  'url',
];

describe('attachmentLink mutations', () => {
  test('attachmentLinkGitHubPR links with the webhook shape, and a later delivery updates that same link', async () => {
    const issue = await newIssue('Linked by hand');
    const url = 'https://github.com/Codertocat/Hello-World/pull/901';
    const payload = await client.attachmentLinkGitHubPR(issue.id, url, {
      title: 'By hand',
      linkKind: 'links' as never,
    });
    assert.equal(payload.success, true);
    const attachment = (await payload.attachment)!;
    assert.equal(attachment.sourceType, 'github');
    assert.equal(attachment.url, url);
    assert.equal(attachment.subtitle, 'codertocat/hello-world#901');
    assert.deepEqual(Object.keys(attachment.metadata).sort(), METADATA_KEYS);
    assert.equal(attachment.metadata['link'], 'ref');
    assert.equal(attachment.metadata['status'], 'open');
    assert.equal(attachment.metadata['number'], 901);

    const engId = (await t.get('/api/teams/ENG', t.adminToken)).body.team.id;
    const github = await connect(t, 'github', [{ fullName: 'Codertocat/Hello-World', teamId: engId }]);
    const p = githubExample('pull_request', 'opened');
    p.number = 901;
    p.pull_request.number = 901;
    p.pull_request.html_url = url;
    p.pull_request.title = `Refs ${issue.identifier}`;
    p.pull_request.body = null;
    p.pull_request.head.ref = 'by-hand';
    await deliverAndWait(t, 'github', github.secret, 'pull_request', p);
    const links = await gitAttachments(t, issue.id);
    assert.equal(links.length, 1, 'the delivery updated the link the mutation made');
    assert.equal(links[0].id, attachment.id);
    // The delivery adds the head commit checks report on (docs/git.md "Checks").
    assert.deepEqual(Object.keys(links[0].metadata).sort(), [...METADATA_KEYS, 'headSha'].sort());
    assert.equal(links[0].metadata.branch, 'by-hand');
    assert.equal(links[0].metadata.author, p.pull_request.user.login);
  });

  test('attachmentLinkGitLabMR and attachmentLinkURL', async () => {
    const issue = await newIssue('Two links');
    const mr = await client.attachmentLinkGitLabMR(
      issue.identifier,
      17,
      'Group/Sub/Project',
      'https://gitlab.example.com/group/sub/project/-/merge_requests/17',
    );
    const a = (await mr.attachment)!;
    assert.equal(a.sourceType, 'gitlab');
    assert.equal(a.title, '#17');
    assert.equal(a.metadata['repo'], 'group/sub/project');
    assert.equal(a.metadata['number'], 17);
    assert.deepEqual(Object.keys(a.metadata).sort(), METADATA_KEYS);

    const link = await client.attachmentLinkURL(issue.id, 'https://docs.example.com/spec', {
      title: 'The spec',
    });
    const l = (await link.attachment)!;
    assert.equal(l.title, 'The spec');
    assert.equal(l.url, 'https://docs.example.com/spec');
    assert.equal(l.sourceType ?? null, null);
    const untitled = (await (
      await client.attachmentLinkURL(issue.id, 'https://example.com/a/b')
    ).attachment)!;
    assert.equal(untitled.title, 'example.com/a/b');
  });

  test('bad input is an invalid-input error naming the argument, and nothing is written', async () => {
    const issue = await newIssue('Bad links');
    const cases: [string, Record<string, unknown>, string][] = [
      [
        'mutation($i: String!, $u: String!) { attachmentLinkGitHubPR(issueId: $i, url: $u) { success } }',
        { i: issue.id, u: 'https://github.com/a/b/issues/3' },
        'url',
      ],
      [
        'mutation($i: String!, $u: String!) { attachmentLinkGitLabMR(issueId: $i, url: $u, projectPathWithNamespace: "x", number: 1) { success } }',
        { i: issue.id, u: 'https://gitlab.com/a/b/-/merge_requests/1' },
        'projectPathWithNamespace',
      ],
      [
        'mutation($i: String!, $u: String!) { attachmentLinkGitLabMR(issueId: $i, url: $u, projectPathWithNamespace: "a/b", number: 1.5) { success } }',
        { i: issue.id, u: 'https://gitlab.com/a/b/-/merge_requests/1' },
        'number',
      ],
      [
        'mutation($i: String!, $u: String!) { attachmentLinkURL(issueId: $i, url: $u) { success } }',
        { i: issue.id, u: 'javascript:alert(1)' },
        'url',
      ],
    ];
    for (const [query, variables, field] of cases) {
      const res = await gql(base, key, query, variables);
      assert.equal(res.status, 200);
      assert.ok(res.body.errors?.length, JSON.stringify(res.body));
      assert.match(JSON.stringify(res.body.errors), new RegExp(field));
    }
    assert.equal(
      (await t.get(`/api/issues/${issue.id}/attachments`, t.adminToken)).body.attachments.length,
      0,
    );
  });

  test("a guest, and a member outside the issue's private team, are refused and nothing is linked", async () => {
    await t.post('/api/teams', { key: 'HID', name: 'Hidden team', private: true }, t.adminToken);
    const hidden = (await (await client.createIssue({ teamId: 'HID', title: 'Not for outsiders' })).issue)!;
    const guest = await t.userWithRole('guest', { teams: ['HID'] });
    const guestClient = sdk(base, await apiKeyFor(t, guest.token));
    await assert.rejects(
      guestClient.attachmentLinkGitHubPR(hidden.id, 'https://github.com/a/b/pull/1'),
      /Guests cannot change attachments/,
    );
    const member = await t.userWithRole('member');
    const memberClient = sdk(base, await apiKeyFor(t, member.token));
    await assert.rejects(
      memberClient.attachmentLinkGitHubPR(hidden.id, 'https://github.com/a/b/pull/1'),
      /issue/i,
    );
    await assert.rejects(
      memberClient.attachmentLinkGitLabMR(
        hidden.identifier,
        1,
        'a/b',
        'https://gitlab.com/a/b/-/merge_requests/1',
      ),
      /issue/i,
    );
    await assert.rejects(memberClient.attachmentLinkURL(hidden.id, 'https://example.com/x'), /issue/i);
    assert.equal(
      (await t.get(`/api/issues/${hidden.id}/attachments`, t.adminToken)).body.attachments.length,
      0,
    );
  });

  test('property: any arguments are answered without an internal error', async () => {
    const issue = await newIssue('Fuzzed links');
    const arg = fc.oneof(
      fc.string(),
      fc.webUrl(),
      fc.constantFrom(issue.id, issue.identifier, 'https://github.com/a/b/pull/9'),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          i: arg,
          u: arg,
          p: arg,
          t: fc.option(fc.string()),
          n: fc.oneof(fc.integer(), fc.double()),
        }),
        async (v) => {
          for (const query of [
            'mutation($i: String!, $u: String!, $t: String) { attachmentLinkGitHubPR(issueId: $i, url: $u, title: $t) { success } }',
            'mutation($i: String!, $u: String!, $p: String!, $n: Float!, $t: String) { attachmentLinkGitLabMR(issueId: $i, url: $u, projectPathWithNamespace: $p, number: $n, title: $t) { success } }',
            'mutation($i: String!, $u: String!, $t: String) { attachmentLinkURL(issueId: $i, url: $u, title: $t) { success } }',
          ]) {
            const res = await gql(base, key, query, v);
            assert.ok(res.status < 500, `${res.status} ${JSON.stringify(res.body)}`);
            const internal = (res.body.errors ?? []).filter(
              (e: any) => e?.extensions?.type === 'internal error',
            );
            assert.deepEqual(internal, [], JSON.stringify(v));
          }
        },
      ),
      { numRuns: 30 },
    );
  });
});

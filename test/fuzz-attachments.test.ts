// Property-based guard over attachment URLs and the file rule (issue 24,
// finding 2): URLs built around a private team's file id (other hosts,
// schemes, ports, cases, paths, queries, fragments, credentials, encodings),
// sent over REST (create and PATCH) and GraphQL by a member who cannot read
// the file and by one who can. Whatever the outsider sends, nobody new reads
// the file; whatever makes it readable through an attachment is exactly the
// file's real URL, attached by a reader.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { insertIssue } from './projects.fixtures.js';
import { hostileString } from './support/fuzz/values.js';
import { startTestApp, type TestApp } from './support/harness.js';

/** A lone surrogate cannot be percent-encoded (encodeURIComponent throws); a client would send U+FFFD. */
const wellFormed = (s: string) =>
  s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 12);

describe('fuzz: attachment URLs and the file rule', () => {
  let t: TestApp;
  let insider: { token: string };
  let outsider: { token: string };
  let guest: { token: string };
  let secTeamId: string;
  let engTeamId: string;

  before(async () => {
    t = await startTestApp();
    secTeamId = (await t.post('/api/teams', { key: 'FZS', name: 'Secret', private: true }, t.adminToken)).body
      .team.id;
    engTeamId = (await t.get('/api/teams/ENG', t.adminToken)).body.team.id;
    insider = await t.userWithRole('member', { teams: ['FZS'] });
    outsider = await t.userWithRole('member');
    guest = await t.userWithRole('guest', { teams: ['ENG'] });
  });
  after(() => t.close());

  /** A fresh file of the insider's, attached on a private issue: readable by FZS only. */
  async function privateFile() {
    const up = await t.request('POST', '/api/files', {
      payload: 'secret',
      headers: { 'content-type': 'text/plain' },
      token: insider.token,
    });
    const issue = await insertIssue(t, { teamId: secTeamId });
    await t.post(`/api/issues/${issue.id}/attachments`, { title: 's', url: up.body.file.url }, insider.token);
    return up.body.file.id as string;
  }

  /** URLs that name the file `id` somewhere, mostly not as its real download URL. */
  const urlAround = (publicUrl: string) =>
    fc
      .record({
        origin: fc.constantFrom(
          publicUrl,
          publicUrl.toUpperCase().replace('HTTP:', 'http:'),
          `${publicUrl}:80`,
          publicUrl.replace('http:', 'https:'),
          'https://anything',
          'http://trackway.test.evil.example',
          'http://user:pw@trackway.test',
          'http://127.0.0.1',
        ),
        prefix: fc.constantFrom('', '/x', '/api/files/..', '/API', '//'),
        upper: fc.boolean(),
        suffix: fc.constantFrom('', '/', '?a=1', '#f', '?', '%20', '/..', '.png', ';x'),
        encoded: fc.boolean(),
        junk: fc.option(hostileString, { nil: undefined }),
      })
      .map((p) => (id: string) => {
        let fileId = p.upper ? id.toUpperCase() : id;
        if (p.encoded) fileId = fileId.replace(/-/g, '%2D');
        return `${p.origin}${p.prefix}/api/files/${fileId}${p.suffix}${p.junk ? encodeURIComponent(wellFormed(p.junk)) : ''}`;
      });

  /** Whether the URL is the file's real download address: our origin, exactly its path. */
  const isRealUrl = (url: string, id: string) => {
    try {
      const u = new URL(url);
      const base = new URL(t.config.publicUrl);
      return (
        u.origin === base.origin &&
        !u.search &&
        !u.hash &&
        !u.username &&
        u.pathname.toLowerCase() === `/api/files/${id}`
      );
    } catch {
      return false;
    }
  };

  const attachVia = async (how: 'rest' | 'patch' | 'graphql', url: string, token: string) => {
    const issue = await insertIssue(t, { teamId: engTeamId });
    if (how === 'rest') return t.post(`/api/issues/${issue.id}/attachments`, { title: 'f', url }, token);
    if (how === 'patch') {
      const a = await t.post(
        `/api/issues/${issue.id}/attachments`,
        { title: 'f', url: 'https://example.com/start' },
        token,
      );
      return t.patch(`/api/attachments/${a.body.attachment.id}`, { url }, token);
    }
    return t.post(
      '/graphql',
      {
        query: 'mutation($i: AttachmentCreateInput!) { attachmentCreate(input: $i) { success } }',
        variables: { i: { issueId: issue.id, title: 'f', url } },
      },
      token,
    );
  };

  test('an outsider never makes a file readable; a reader does only with its real URL', async () => {
    const request = fc.record({
      url: urlAround(t.config.publicUrl),
      how: fc.constantFrom<'rest' | 'patch' | 'graphql'>('rest', 'patch', 'graphql'),
      byReader: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ url, how, byReader }) => {
        const id = await privateFile();
        const u = url(id);
        const res = await attachVia(how, u, byReader ? insider.token : outsider.token);
        assert.ok(res.status < 500, `${how} ${u}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        const guestReads = (await t.get(`/api/files/${id}`, guest.token)).status;
        const outsiderReads = (await t.get(`/api/files/${id}`, outsider.token)).status;
        if (!byReader) {
          assert.equal(guestReads, 404, `${how} ${u} by the outsider let the guest read`);
          assert.equal(outsiderReads, 404, `${how} ${u} let the outsider read`);
        } else {
          const carried = res.status < 300 && isRealUrl(u.trim(), id);
          assert.equal(guestReads, carried ? 200 : 404, `${how} ${u} by a reader`);
        }
      }),
      { numRuns: RUNS * 4, includeErrorInReport: true },
    );
  });
});

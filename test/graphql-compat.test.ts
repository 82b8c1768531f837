// The shared compatibility checker against the live schema, the two-step
// upload through GraphQL, and bounded SQL statements per query (no N+1).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { runGraphql } from '../src/graphql/execute.js';
import { graphqlSchema } from '../src/graphql/routes.js';
import { gql, sdk, startGraphqlApp } from './graphql-helpers.js';
import type { TestApp } from './support/harness.js';
import { StatementCounter } from './support/statement-counter.js';

let t: TestApp;
let base: string;
let key: string;

before(async () => {
  ({ t, base, key } = await startGraphqlApp());
});
after(() => t.close());

const checker = path.resolve('../shared/tools/linear-sdk-compat.mjs');

describe('compatibility', () => {
  test('every @linear/sdk operation in the shared surface validates', {
    skip: !fs.existsSync(checker) && 'needs ../shared/tools (the shared compatibility checker)',
  }, async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [
      checker,
      '--url',
      `${base}/graphql`,
      '--token',
      key,
    ]);
    const last = stdout.trim().split('\n').pop();
    assert.equal(last, '78/78 SDK operations validate');
  });
});

describe('two-step upload', () => {
  test('fileUpload, PUT the bytes, attachmentCreate with the assetUrl, read it back', async () => {
    const client = sdk(base, key);
    const teamId = (await client.teams()).nodes[0]!.id;
    const issue = (await (await client.createIssue({ teamId, title: 'With a file' })).issue)!;
    const bytes = Buffer.from('hello, attachment');
    const up = await client.fileUpload('text/plain', 'hello.txt', bytes.length);
    assert.equal(up.success, true);
    const file = up.uploadFile!;
    // The returned headers include Content-Type; add only the credentials.
    const headers: Record<string, string> = { authorization: `Bearer ${t.adminToken}` };
    for (const h of file.headers) headers[h.key] = h.value;
    const put = await fetch(file.uploadUrl.replace(t.config.publicUrl, base), {
      method: 'PUT',
      headers,
      body: bytes,
    });
    assert.ok(put.status < 300, `PUT answered ${put.status} ${await put.text()}`);
    const created = await client.createAttachment({
      issueId: issue.id,
      title: 'hello.txt',
      url: file.assetUrl,
    });
    const attachment = (await created.attachment)!;
    assert.equal(attachment.url, file.assetUrl);
    const listed = await (await client.issue(issue.id)).attachments();
    assert.deepEqual(
      listed.nodes.map((a) => a.url),
      [file.assetUrl],
    );
    const download = await fetch(file.assetUrl.replace(t.config.publicUrl, base), {
      headers: { authorization: `Bearer ${t.adminToken}` },
    });
    assert.equal(await download.text(), 'hello, attachment');
    assert.equal((await client.deleteAttachment(attachment.id)).entityId, attachment.id);
  });
});

/** The caller of runGraphql for the SDK's viewer (the admin behind the API key). */
const adminActor = (viewer: { id: string; name: string; email: string }) => ({
  id: viewer.id,
  role: 'admin' as const,
  name: viewer.name,
  email: viewer.email,
  via: 'apiKey' as const,
});

describe('statements per query', () => {
  test('50 issues with state, assignee, labels, comments and project cost as many statements as 5', async () => {
    const client = sdk(base, key);
    await t.post('/api/teams', { key: 'NPLUS', name: 'Counting' }, t.adminToken);
    const viewer = await client.viewer;
    const project = (await (await client.createProject({ name: 'Counted', teamIds: ['NPLUS'] })).project)!;
    // Bulk fixture in SQL: 50 issues, each with an assignee, two labels, two comments and the project.
    await sql`
      insert into issues (team_id, number, identifier, title, state_id, assignee_id, creator_id, project_id, created_at)
      select tm.id, 1000 + n, 'NPLUS-' || (1000 + n), 'Counted ' || n,
        (select id from workflow_states where team_id = tm.id order by position limit 1),
        ${viewer.id}::uuid, ${viewer.id}::uuid, ${project.id}::uuid, now() - n * interval '1 second'
      from teams tm, generate_series(1, 50) n where tm.key = 'NPLUS'`.execute(t.ctx.db);
    await sql`
      insert into issue_labels (issue_id, label_id)
      select i.id, l.id from issues i, (select id from labels order by created_at limit 2) l
      where i.identifier like 'NPLUS-%'`.execute(t.ctx.db);
    await sql`
      insert into comments (issue_id, user_id, body)
      select i.id, ${viewer.id}::uuid, b from issues i, unnest(array['one', 'two']) b
      where i.identifier like 'NPLUS-%'`.execute(t.ctx.db);
    const query = `query($n: Int) { issues(first: $n, filter: { team: { key: { eq: "NPLUS" } } }) { nodes {
      identifier state { name type } assignee { name email } labels { nodes { name } }
      comments(first: 10) { nodes { body user { name } } } project { name lead { name } } team { key } } } }`;
    const schema = graphqlSchema();
    // A member's reads carry the visibility rule in the same statements, plus one read of their teams.
    const member = (await t.userWithRole('member')).user;
    const actors = {
      admin: adminActor(viewer),
      member: { ...adminActor(member), id: member.id, role: 'member' as const },
    };
    for (const [who, actor] of Object.entries(actors)) {
      const counts: Record<number, number> = {};
      for (const n of [5, 50]) {
        const counter = new StatementCounter();
        // A new actor object is a new request: its teams are read again.
        const res = await runGraphql(
          schema,
          { ...t.ctx, db: t.ctx.db.withPlugin(counter) },
          { ...actor },
          {
            query,
            variables: { n },
          },
        );
        assert.equal(res.body.errors, undefined, JSON.stringify(res.body.errors));
        const nodes = (res.body.data as { issues: { nodes: { comments: { nodes: unknown[] } }[] } }).issues
          .nodes;
        assert.equal(nodes.length, n);
        assert.ok(nodes.every((x) => x.comments.nodes.length === 2));
        counts[n] = counter.count;
      }
      console.log(`# statements (${who}): 5 issues -> ${counts[5]}, 50 issues -> ${counts[50]}`);
      assert.equal(counts[50], counts[5]);
      // Every field is declared, so the whole answer is one compiled statement (graphql/compiled.ts);
      // a member's teams are read once more.
      assert.equal(counts[50], who === 'admin' ? 1 : 2, `${counts[50]} statements`);
    }
  });

  test('a relation selected by id alone is answered from the foreign key, without a read', async () => {
    const viewer = await sdk(base, key).viewer;
    const actor = adminActor(viewer);
    const schema = graphqlSchema();
    const run = async (query: string) => {
      const counter = new StatementCounter();
      const res = await runGraphql(schema, { ...t.ctx, db: t.ctx.db.withPlugin(counter) }, actor, { query });
      assert.equal(res.body.errors, undefined, JSON.stringify(res.body.errors));
      type Node = Record<string, { id: string; name?: string } | string | null>;
      return {
        nodes: (res.body.data as { issues: { nodes: Node[] } }).issues.nodes,
        statements: counter.count,
      };
    };
    const filter = 'filter: { team: { key: { eq: "NPLUS" } } }';
    // Fragments and __typename count as "id alone" too, as @linear/sdk sends them.
    const idOnly = await run(`query { issues(first: 20, ${filter}) { nodes { id
      assignee { id } team { ...T } state { __typename id } project { ... on Project { id } } parent { id } } } }
      fragment T on Team { id __typename }`);
    assert.equal(idOnly.statements, 1);
    assert.equal(idOnly.nodes.length, 20);
    const rows = await t.ctx.db
      .selectFrom('issues')
      .select(['id', 'assignee_id', 'team_id', 'state_id', 'project_id'])
      .where('identifier', 'like', 'NPLUS-%')
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const n of idOnly.nodes) {
      const row = byId.get(n.id as string)!;
      assert.deepEqual({ ...(n.assignee as object) }, { id: row.assignee_id });
      assert.deepEqual({ ...(n.team as object) }, { id: row.team_id, __typename: 'Team' });
      assert.deepEqual({ ...(n.state as object) }, { __typename: 'WorkflowState', id: row.state_id });
      assert.deepEqual({ ...(n.project as object) }, { id: row.project_id });
      assert.equal(n.parent, null);
    }
    // Any other field of the relation reads the row, in the same compiled statement.
    const named = await run(
      `{ issues(first: 20, ${filter}) { nodes { id assignee { id name } team { id } } } }`,
    );
    assert.equal(named.statements, 1);
    assert.ok(named.nodes.every((n) => typeof (n.assignee as { name: string }).name === 'string'));
  });

  test('the HTTP endpoint answers the same query with a cost header', async () => {
    const res = await gql(base, key, '{ issues(first: 5) { nodes { id state { name } } } }');
    assert.equal(res.status, 200);
    // 1 + 5 x (1 per node + 0.1 id + 1 state + 0.1 name)
    assert.equal(res.headers.get('x-complexity'), '12');
  });
});

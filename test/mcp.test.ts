// The MCP server at /mcp, driven by the official SDK client over a real
// socket: API keys and login tokens, the tools end to end, who sees and may
// change what (the visibility fixture's world: four roles and their oracle),
// refusals as tool errors, and a property over random arguments for every
// tool: a result or a tool error, never a crash, and a refused call changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import fc from 'fast-check';
import { changedTables, digest, tablesToWatch } from './support/fuzz/digest.js';
import { hostileJson } from './support/fuzz/values.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { buildWorld, ROLES, type World } from './support/visibility-fixture.js';

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 12);
const TOOLS = [
  'search_issues',
  'get_issue',
  'create_issue',
  'update_issue',
  'add_comment',
  'my_issues',
  'list_notifications',
  'mark_notification_read',
  'list_teams',
  'list_users',
  'list_projects',
  'list_milestones',
  'list_cycles',
  'list_labels',
  'list_states',
];

let t: TestApp;
let base: string;
let world: World;
const clients: Client[] = [];

async function connect(credential: string): Promise<Client> {
  const client = new Client({ name: 'trackway-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${credential}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function keyOf(token: string): Promise<string> {
  const res = await t.post('/api/api-keys', { label: 'mcp' }, token);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.key;
}

interface Answer {
  isError: boolean;
  text: string;
  json: any;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Answer> {
  const res = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: { type: string; text: string }[];
  };
  const text = res.content.map((c) => c.text).join('');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { isError: res.isError === true, text, json };
}

/** A tool call that must succeed. */
async function ok(client: Client, name: string, args: Record<string, unknown> = {}) {
  const res = await call(client, name, args);
  assert.equal(res.isError, false, `${name} ${JSON.stringify(args)}: ${res.text}`);
  return res.json;
}

/** A tool call that must be refused, with its message. */
async function refused(client: Client, name: string, args: Record<string, unknown>) {
  const res = await call(client, name, args);
  assert.equal(res.isError, true, `${name} ${JSON.stringify(args)} should be refused: ${res.text}`);
  assert.doesNotMatch(res.text, /on our side/, res.text);
  return res.text;
}

before(async () => {
  t = await startTestApp({ graphqlRequestsPerHour: 1e6, graphqlComplexityPerHour: 1e12 });
  base = await t.listen();
  world = await buildWorld(t);
});

after(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await t?.close();
});

describe('the endpoint', () => {
  test('no credential is 401 with a Bearer challenge; a bad one too', async () => {
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const none = await t.request('POST', '/mcp', { body });
    assert.equal(none.status, 401);
    assert.match(String(none.headers['www-authenticate']), /^Bearer /);
    const bad = await t.request('POST', '/mcp', { body, token: 'tw_nope' });
    assert.equal(bad.status, 401);
    assert.match(String(bad.headers['www-authenticate']), /^Bearer /);
  });

  test('GET and DELETE are 405 (stateless: no session, no server-sent stream)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await t.request(method, '/mcp', { token: t.adminToken });
      assert.equal(res.status, 405, method);
      assert.equal(res.headers['allow'], 'POST');
    }
  });

  test('a login token works as an API key does, and a call spends the hourly budget', async () => {
    const client = await connect(t.adminToken);
    const teams = await ok(client, 'list_teams');
    assert.ok(teams.teams.some((x: any) => x.key === 'ENG'));
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${t.adminToken}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(res.status, 200);
    assert.ok(res.headers.get('x-ratelimit-requests-remaining'), 'the budget headers are sent');
    await res.text();
  });
});

describe('tools with an API key', () => {
  let admin: Client;
  let member: Client;
  let memberEmail: string;

  before(async () => {
    admin = await connect(await keyOf(t.adminToken));
    const m = await t.userWithRole('member');
    memberEmail = m.email;
    member = await connect(await keyOf(m.token));
  });

  test('lists its tools, each with a description, an example and an object schema', async () => {
    const { tools } = await admin.listTools();
    assert.deepEqual(tools.map((x) => x.name).sort(), [...TOOLS].sort());
    for (const tool of tools) {
      assert.match(tool.description ?? '', /Example: \{/, tool.name);
      assert.equal(tool.inputSchema.type, 'object', tool.name);
    }
    const templates = await admin.listResourceTemplates();
    assert.deepEqual(
      templates.resourceTemplates.map((r) => r.uriTemplate),
      ['trackway://issue/{identifier}', 'trackway://project/{id}'],
    );
  });

  test('search, create, update, comment, then the assignee lists and marks a notification read', async () => {
    const before = await ok(admin, 'search_issues', { team: 'ENG', limit: 2 });
    assert.ok(before.total >= 1);
    assert.ok(before.issues.length <= 2);
    if (before.total > 2) {
      const next = await ok(admin, 'search_issues', { team: 'ENG', limit: 2, cursor: before.nextCursor });
      assert.notEqual(next.issues[0].identifier, before.issues[0].identifier, 'the cursor moves on');
    }

    const created = await ok(admin, 'create_issue', {
      team: 'ENG',
      title: 'MCP: login times out on Safari',
      description: 'Steps: open, wait.',
      priority: 2,
      labels: ['bug'],
      assignee: 'me',
    });
    assert.match(created.identifier, /^ENG-\d+$/);
    assert.deepEqual(created.labels, ['Bug']);
    assert.match(created.priority, /^High/);
    assert.match(created.assignee, /admin/i);

    const updated = await ok(admin, 'update_issue', {
      issue: created.identifier,
      state: 'in progress',
      assignee: memberEmail,
      addLabels: ['Feature'],
    });
    assert.match(updated.state, /^In Progress/);
    assert.match(updated.assignee, new RegExp(memberEmail.replace(/[.+]/g, '\\$&')));
    assert.deepEqual([...updated.labels].sort(), ['Bug', 'Feature']);

    const comment = await ok(admin, 'add_comment', { issue: created.identifier, body: 'Looking into it.' });
    assert.equal(comment.issue, created.identifier);

    const found = await ok(admin, 'search_issues', { text: 'Safari', team: 'ENG' });
    assert.ok(found.issues.some((i: any) => i.identifier === created.identifier));
    const mine = await ok(member, 'my_issues');
    assert.ok(mine.issues.some((i: any) => i.identifier === created.identifier));

    const detail = await ok(admin, 'get_issue', { issue: created.identifier });
    assert.equal(detail.description, 'Steps: open, wait.');
    assert.equal(detail.comments[0].body, 'Looking into it.');
    assert.ok(detail.recentHistory.length >= 1, 'the state change is in the history');
    const resource = await admin.readResource({ uri: `trackway://issue/${created.identifier}` });
    assert.equal(
      JSON.parse(String((resource.contents[0] as { text: string }).text)).identifier,
      created.identifier,
    );

    const inbox = await ok(member, 'list_notifications', { unreadOnly: true });
    const note = inbox.notifications.find((n: any) => String(n.issue).startsWith(created.identifier));
    assert.ok(note, JSON.stringify(inbox));
    const marked = await ok(member, 'mark_notification_read', { id: note.id });
    assert.equal(marked.marked, 1);
    const after = await ok(member, 'list_notifications', { unreadOnly: true });
    assert.ok(!after.notifications.some((n: any) => n.id === note.id));
  });

  test('refusals are tool errors that say what to do next', async () => {
    const issue = (await ok(admin, 'search_issues', { team: 'ENG', limit: 1 })).issues[0].identifier;
    const state = await refused(admin, 'update_issue', { issue, state: 'Reviw' });
    assert.match(state, /No state named 'Reviw' in ENG; states are: .*In Progress/);
    assert.match(await refused(admin, 'get_issue', { issue: 'ENG-99999' }), /not found.*search_issues/i);
    assert.match(await refused(admin, 'create_issue', { team: 'ENG' }), /title/);
    assert.match(await refused(admin, 'update_issue', { issue }), /Nothing to change/);
    assert.match(await refused(admin, 'search_issues', { assignee: 'nobody-at-all' }), /No person/);
    assert.match(await refused(admin, 'no_such_tool', {}), /tools are: search_issues/);
    await assert.rejects(admin.readResource({ uri: 'trackway://issue/ENG-99999' }));
  });

  test('update_issue adds and removes relations by identifier or id, through the relations service', async () => {
    const make = async (title: string) =>
      (await ok(admin, 'create_issue', { team: 'ENG', title })).identifier;
    const [a, b, c, d] = [await make('Rel A'), await make('Rel B'), await make('Rel C'), await make('Rel D')];
    const dId = (await t.get(`/api/issues/${d}`, t.adminToken)).body.issue.id;
    const seen = async (issue: string) =>
      (await ok(admin, 'get_issue', { issue })).relations.map((r: any) => `${r.kind} ${r.issue}`).sort();

    await ok(admin, 'update_issue', {
      issue: a,
      addRelations: [
        { type: 'blocks', issue: b },
        { type: 'blocked_by', issue: c },
        { type: 'related', issue: dId },
      ],
    });
    assert.deepEqual(await seen(a), [`blocked_by ${c}`, `blocks ${b}`, `related ${d}`]);
    // REST reads the same relations from the other ends.
    const fromB = await t.get(`/api/issues/${b}/relations`, t.adminToken);
    assert.deepEqual(
      fromB.body.relations.map((r: any) => r.kind),
      ['blocked_by'],
    );
    assert.deepEqual(await seen(c), [`blocks ${a}`]);

    await ok(admin, 'update_issue', {
      issue: a,
      title: 'Rel A, renamed',
      removeRelations: [
        { type: 'blocked_by', issue: c },
        { type: 'related', issue: d },
      ],
      addRelations: [{ type: 'duplicate', issue: c }],
    });
    assert.deepEqual(await seen(a), [`blocks ${b}`, `duplicate ${c}`]);
    assert.equal((await ok(admin, 'get_issue', { issue: a })).title, 'Rel A, renamed');

    // What is not there (or runs the other way), an issue related to itself, an unknown kind: refused.
    const before = await seen(a);
    assert.match(
      await refused(admin, 'update_issue', { issue: a, removeRelations: [{ type: 'blocked_by', issue: b }] }),
      /not found/i,
    );
    assert.match(
      await refused(admin, 'update_issue', { issue: a, addRelations: [{ type: 'related', issue: a }] }),
      /itself/,
    );
    await refused(admin, 'update_issue', { issue: a, addRelations: [{ type: 'parent_of', issue: b }] });
    await refused(admin, 'update_issue', {
      issue: a,
      addRelations: [{ type: 'related', issue: 'ENG-99999' }],
    });
    assert.deepEqual(await seen(a), before);
  });

  test('update_issue takes a cycle by id, number, "current" or "next"', async () => {
    const team = await t.post('/api/teams', { name: 'MCP Cycles', key: 'MCY' }, t.adminToken);
    assert.equal(team.status, 201, JSON.stringify(team.body));
    const DAY = 86_400_000;
    const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();
    const cycle = async (from: number, to: number) => {
      const res = await t.post(
        '/api/cycles',
        { teamId: 'MCY', startsAt: at(from), endsAt: at(to) },
        t.adminToken,
      );
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.cycle as { id: string; number: number };
    };
    // Made out of order: "next" is the upcoming cycle that starts first, not the last made.
    const current = await cycle(-2, 5);
    const later = await cycle(20, 27);
    const next = await cycle(6, 13);
    const issue = (await ok(admin, 'create_issue', { team: 'MCY', title: 'Cycle hopper', cycle: 'current' }))
      .identifier;
    const cycleOf = async () => (await t.get(`/api/issues/${issue}`, t.adminToken)).body.issue.cycleId;
    assert.equal(await cycleOf(), current.id);
    await ok(admin, 'update_issue', { issue, cycle: 'next' });
    assert.equal(await cycleOf(), next.id);
    await ok(admin, 'update_issue', { issue, cycle: later.number });
    assert.equal(await cycleOf(), later.id);
    await ok(admin, 'update_issue', { issue, cycle: current.id });
    assert.equal(await cycleOf(), current.id);
    await ok(admin, 'update_issue', { issue, cycle: null });
    assert.equal(await cycleOf(), null);
    assert.match(
      await refused(admin, 'update_issue', { issue, cycle: 99 }),
      /No cycle '99' in MCY; cycles are:/,
    );
    assert.equal(await cycleOf(), null);
  });
});

describe('update_issue is all or nothing; cycles are named alike everywhere', () => {
  let admin: Client;
  before(async () => {
    admin = await connect(await keyOf(t.adminToken));
  });

  test('a refused relation leaves the fields, the labels and the other relations as they were', async () => {
    const make = async (title: string) =>
      (await ok(admin, 'create_issue', { team: 'ENG', title })).identifier as string;
    const [a, b, c] = [await make('Tx A'), await make('Tx B'), await make('Tx C')];
    await ok(admin, 'update_issue', { issue: a, addRelations: [{ type: 'related', issue: b }] });
    const tables = (await tablesToWatch(t.ctx.db)).filter(unwatched);
    const refusedCalls: Record<string, unknown>[] = [
      // The field update comes first, then a relation that cannot exist: all undone.
      {
        issue: a,
        title: 'Tx A, renamed',
        priority: 1,
        addRelations: [{ type: 'blocks', issue: 'ENG-99999' }],
      },
      // A valid relation, then one to itself.
      {
        issue: a,
        title: 'Tx A, renamed',
        addRelations: [
          { type: 'blocks', issue: c },
          { type: 'related', issue: a },
        ],
      },
      // A removal that works, then one of a relation that is not there.
      {
        issue: a,
        labels: ['Bug'],
        removeRelations: [
          { type: 'related', issue: b },
          { type: 'duplicate', issue: c },
        ],
      },
      // The same pair twice: the second is a conflict, the first is undone with it.
      {
        issue: a,
        state: 'In Progress',
        addRelations: [
          { type: 'duplicate', issue: c },
          { type: 'duplicate', issue: c },
        ],
      },
    ];
    for (const args of refusedCalls) {
      const before = await digest(t.ctx.db, tables);
      await refused(admin, 'update_issue', args);
      assert.deepEqual(
        changedTables(before, await digest(t.ctx.db, tables)),
        [],
        `${JSON.stringify(args)} was refused but changed`,
      );
    }
    const now = await ok(admin, 'get_issue', { issue: a });
    assert.equal(now.title, 'Tx A');
    assert.deepEqual(
      now.relations.map((r: any) => `${r.kind} ${r.issue}`),
      [`related ${b}`],
    );
    // The same edits, each possible: one call does them all.
    await ok(admin, 'update_issue', {
      issue: a,
      title: 'Tx A, renamed',
      removeRelations: [{ type: 'related', issue: b }],
      addRelations: [{ type: 'blocks', issue: c }],
    });
    const done = await ok(admin, 'get_issue', { issue: a });
    assert.equal(done.title, 'Tx A, renamed');
    assert.deepEqual(
      done.relations.map((r: any) => `${r.kind} ${r.issue}`),
      [`blocks ${c}`],
    );
  });

  test('search_issues takes a cycle as update_issue does: current, next, previous, number, name or id', async () => {
    const team = await t.post('/api/teams', { name: 'MCP Search Cycles', key: 'MSC' }, t.adminToken);
    assert.equal(team.status, 201, JSON.stringify(team.body));
    const DAY = 86_400_000;
    const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();
    const cycle = async (from: number, to: number, name?: string) => {
      const res = await t.post(
        '/api/cycles',
        { teamId: 'MSC', startsAt: at(from), endsAt: at(to), ...(name ? { name } : {}) },
        t.adminToken,
      );
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.cycle as { id: string; number: number };
    };
    // Out of order, with an older past cycle: "previous" is the one that ended last.
    const current = await cycle(-2, 5, 'Harbour');
    const previous = await cycle(-12, -3);
    const older = await cycle(-30, -20);
    const next = await cycle(6, 13);
    const issueIn: Record<string, string> = {};
    for (const [name, c] of Object.entries({ current, previous, older, next })) {
      const made = await ok(admin, 'create_issue', { team: 'MSC', title: `In ${name}`, cycle: c.number });
      issueIn[c.id] = made.identifier;
    }
    const found = async (ref: string | number, withTeam = true) =>
      (await ok(admin, 'search_issues', { ...(withTeam ? { team: 'MSC' } : {}), cycle: ref })).issues.map(
        (i: any) => i.identifier,
      );
    for (const [ref, c] of [
      ['current', current],
      ['NEXT', next],
      ['previous', previous],
      [older.number, older],
      [String(next.number), next],
      ['harbour', current],
      [previous.id, previous],
    ] as const) {
      assert.deepEqual(await found(ref), [issueIn[c.id]], `cycle ${ref}`);
    }
    // An id needs no team; the relative names and numbers do, and say so.
    assert.deepEqual(await found(older.id, false), [issueIn[older.id]]);
    assert.match(await refused(admin, 'search_issues', { cycle: 'current' }), /give team too/);
    assert.match(await refused(admin, 'search_issues', { cycle: 3 }), /give team too/);
    assert.match(
      await refused(admin, 'search_issues', { team: 'MSC', cycle: 'constructor' }),
      /No cycle 'constructor' in MSC; cycles are:/,
    );
    // update_issue reads the same names through the same parser.
    const issue = issueIn[current.id]!;
    await ok(admin, 'update_issue', { issue, cycle: 'previous' });
    assert.deepEqual((await found('previous')).sort(), [issueIn[previous.id], issue].sort());
  });
});

describe('who sees and changes what (the visibility world)', () => {
  const clientOf: Partial<Record<(typeof ROLES)[number], Client>> = {};
  const issueRecords = () => world.records.filter((r) => r.kind === 'issue');
  before(async () => {
    for (const role of ROLES) clientOf[role] = await connect(await keyOf(world.tokens[role]));
  });

  test('search_issues lists exactly the issues each role sees', async () => {
    for (const role of ROLES) {
      const seen = new Set<string>();
      let cursor: string | null = null;
      do {
        const page: any = await ok(clientOf[role]!, 'search_issues', {
          includeArchived: true,
          limit: 50,
          ...(cursor ? { cursor } : {}),
        });
        for (const i of page.issues) seen.add(i.id);
        cursor = page.nextCursor;
      } while (cursor);
      const expected = new Set(
        issueRecords()
          .filter((r) => world.visible[role].has(r.id))
          .map((r) => r.id),
      );
      // Issues the other tests created after the world was built are not the oracle's.
      const known = new Set(issueRecords().map((r) => r.id));
      const extra = [...seen].filter((id) => known.has(id) && !expected.has(id));
      assert.deepEqual(extra, [], `${role} sees issues out of sight`);
      for (const id of expected) assert.ok(seen.has(id), `${role} misses ${id}`);
    }
  });

  test('get_issue reads an issue by identifier only where its team is seen, and leaks nothing of others', async () => {
    for (const role of ROLES) {
      for (const rec of issueRecords()) {
        const ref = rec.aliases.find((a) => /^[A-Z]+-\d+$/.test(a)) ?? rec.id;
        const res = await call(clientOf[role]!, 'get_issue', { issue: ref });
        if (world.visible[role].has(rec.id)) {
          assert.equal(res.isError, false, `${role} reads ${rec.label}: ${res.text}`);
          for (const word of world.secretWords[role]) {
            assert.ok(!res.text.includes(word), `${role} reading ${rec.label} learns "${word}"`);
          }
        } else {
          assert.equal(res.isError, true, `${role} must not read ${rec.label}`);
          assert.match(res.text, /not found/i);
        }
      }
    }
  });

  test('a guest cannot write outside its teams, nor create issues at all; a member not in a private team', async () => {
    const tables = await tablesToWatch(t.ctx.db);
    const before = await digest(t.ctx.db, tables.filter(unwatched));
    const guest = clientOf.guest!;
    await refused(guest, 'create_issue', { team: 'PUB', title: 'Guest issue' });
    await refused(guest, 'create_issue', { team: 'PRV', title: 'Guest issue' });
    await refused(guest, 'add_comment', { issue: 'PRV-1', body: 'hello' });
    await refused(guest, 'update_issue', { issue: 'ENG-1', title: 'taken over' });
    await refused(clientOf.outsider!, 'update_issue', { issue: 'PRV-1', title: 'taken over' });
    await refused(clientOf.outsider!, 'add_comment', { issue: 'VLT-1', body: 'hello' });
    const after = await digest(t.ctx.db, tables.filter(unwatched));
    assert.deepEqual(changedTables(before, after), []);
    // What a guest may do: comment where it sees the issue.
    const pub = (await ok(guest, 'search_issues', { team: 'PUB', limit: 1 })).issues[0];
    await ok(guest, 'add_comment', { issue: pub.identifier, body: 'a guest comments' });
  });
});

/** Tables a credential's use touches by design (an API key's last use, a session's), not a call's work. */
const unwatched = (table: string) => !/^(api_keys|sessions|audit_log.*)$/.test(table);

describe('any arguments', () => {
  test('every tool answers a result or a tool error, and a refused call changes nothing', async () => {
    const member = await connect(await keyOf(world.tokens.outsider));
    const guest = await connect(await keyOf(world.tokens.guest));
    const tables = (await tablesToWatch(t.ctx.db)).filter(unwatched);
    const refs = fc.constantFrom(
      'ENG-1',
      'PRV-1',
      'PUB-1',
      'VLT-1',
      'ENG',
      'PRV',
      'me',
      'Bug',
      'In Progress',
      'none',
    );
    const value = fc.oneof(refs, hostileJson, fc.integer(), fc.constant(null), fc.boolean());
    const keys = fc.constantFrom(
      'team',
      'issue',
      'title',
      'state',
      'assignee',
      'labels',
      'project',
      'cycle',
      'milestone',
      'parent',
      'priority',
      'text',
      'limit',
      'cursor',
      'body',
      'replyTo',
      'id',
      'all',
      'query',
      'dueDate',
      'estimate',
      'addLabels',
      'removeLabels',
      'offset',
      'unreadOnly',
      'includeArchived',
      'description',
      'status',
    );
    const args = fc.dictionary(keys, value, { maxKeys: 4 });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...TOOLS), args, fc.boolean(), async (name, a, asGuest) => {
        const before = await digest(t.ctx.db, tables);
        let res: Answer;
        try {
          res = await call(asGuest ? guest : member, name, a);
        } catch (err) {
          // The app's JSON parser refuses a body with __proto__ keys on every route (400), by design.
          assert.ok(JSON.stringify(a).includes('__proto__'), `${name} ${JSON.stringify(a)}: ${err}`);
          assert.equal((err as { code?: number }).code, 400);
          return;
        }
        assert.doesNotMatch(res.text, /on our side/, `${name} ${JSON.stringify(a)}: ${res.text}`);
        if (res.isError) {
          const after = await digest(t.ctx.db, tables);
          assert.deepEqual(
            changedTables(before, after),
            [],
            `${name} ${JSON.stringify(a)} refused but changed`,
          );
        } else {
          assert.ok(res.json !== undefined, `${name}: the answer is JSON`);
        }
      }),
      { numRuns: RUNS * TOOLS.length },
    );
  });

  test('update_issue with random relations and cycles: a result or a tool error, and a refusal changes nothing', async () => {
    const admin = await connect(await keyOf(t.adminToken));
    const outsider = await connect(await keyOf(world.tokens.outsider));
    const guest = await connect(await keyOf(world.tokens.guest));
    const callers = [admin, outsider, guest];
    const tables = (await tablesToWatch(t.ctx.db)).filter(unwatched);
    const issues = ['ENG-1', 'ENG-2', 'PRV-1', 'PUB-1', 'PUB-2', 'VLT-1', 'ENG-99999', world.ids['pub1']!];
    const ref = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...issues) },
      { weight: 1, arbitrary: hostileJson },
      { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
    );
    const kind = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.constantFrom(
          'blocks',
          'blocked_by',
          'related',
          'duplicate',
          'duplicated_by',
          'similar',
        ),
      },
      { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.constant(null)) },
    );
    const relation = fc.oneof(
      { weight: 6, arbitrary: fc.record({ type: kind, issue: ref }) },
      { weight: 1, arbitrary: fc.record({ type: kind, issue: ref, extra: hostileJson }) },
      { weight: 1, arbitrary: hostileJson },
    );
    const relations = fc.oneof(
      { weight: 5, arbitrary: fc.array(relation, { maxLength: 4 }) },
      { weight: 1, arbitrary: hostileJson },
    );
    const cycle = fc.oneof(
      fc.constantFrom('current', 'next', 'previous', 'none', 'Current', 'constructor', '__proto__', null),
      fc.integer({ min: -2, max: 30 }),
      fc.constantFrom(world.ids['ENGcycle']!, world.ids['PRVcycle']!, world.ids['PUBcycle']!, 'nebula cycle'),
      fc.string({ maxLength: 12 }),
      hostileJson,
    );
    const args = fc.record(
      {
        issue: fc.constantFrom('ENG-1', 'PUB-1', 'PRV-1', 'VLT-1', 'PUB-2'),
        title: fc.string({ minLength: 1, maxLength: 20 }),
        addRelations: relations,
        removeRelations: relations,
        cycle,
      },
      { requiredKeys: ['issue'] },
    );
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 2 }), args, async (who, a) => {
        const before = await digest(t.ctx.db, tables);
        const what = `update_issue ${JSON.stringify(a)} as ${['admin', 'outsider', 'guest'][who]}`;
        let res: Answer;
        try {
          res = await call(callers[who]!, 'update_issue', a);
        } catch (err) {
          // The app's JSON parser refuses a body with __proto__ keys on every route (400), by design.
          assert.ok(JSON.stringify(a).includes('__proto__'), `${what}: a protocol error ${err}`);
          assert.equal((err as { code?: number }).code, 400, what);
          return;
        }
        assert.doesNotMatch(res.text, /on our side/, `${what}: ${res.text}`);
        if (res.isError)
          assert.deepEqual(
            changedTables(before, await digest(t.ctx.db, tables)),
            [],
            `${what}: refused but changed`,
          );
        else assert.equal(who === 2, false, `${what}: a guest edited an issue`);
      }),
      { numRuns: RUNS * 10 },
    );
  });
});

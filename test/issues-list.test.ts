import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listIssuesJson } from '../src/modules/issues/list.js';
import { teamAccess } from '../src/modules/teams/access.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { StatementCounter } from './support/statement-counter.js';

let t: TestApp;

/** The REST page as its JSON text says it. */
async function listIssues(...args: Parameters<typeof listIssuesJson>) {
  const page = JSON.parse(await listIssuesJson(...args)) as {
    issues: { id: string; teamId: string }[];
    pageInfo: { total: number };
  };
  return { issues: page.issues, total: page.pageInfo.total };
}
let member: { token: string; user: any };
let states: Record<string, any>;
let labels: Record<string, any>;
const NO_ID = '00000000-0000-0000-0000-000000000000';
const created: any[] = [];

const list = async (qs: string) => {
  const res = await t.get(`/api/issues${qs}`, member.token);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
};
const titles = (body: any) => body.issues.map((i: any) => i.title);

before(async () => {
  t = await startTestApp();
  member = await t.register('Lin Lister');
  const s = await t.get('/api/workflow-states?teamId=ENG', member.token);
  states = Object.fromEntries(s.body.workflowStates.map((x: any) => [x.name, x]));
  const l = await t.get('/api/labels', member.token);
  labels = Object.fromEntries(l.body.labels.map((x: any) => [x.name, x]));
  const specs = [
    { title: 'Café opening hours', description: 'Update the sign', priority: 3, dueDate: '2030-03-01' },
    { title: 'Broken elevator', description: 'Stuck between floors near the café', priority: 1 },
    {
      title: 'Quarterly report',
      description: 'Numbers for the board meeting',
      priority: 0,
      dueDate: '2030-01-01',
    },
    {
      title: 'Refactor authentication',
      priority: 2,
      stateId: '@Todo',
      assigneeId: '@me',
      labelIds: ['@Bug'],
      dueDate: '2030-02-01',
    },
    { title: 'Write release notes', priority: 4, labelIds: ['@Feature', '@Bug'] },
  ];
  for (const spec of specs) {
    const body: any = { ...spec };
    if (body.stateId) body.stateId = states[body.stateId.slice(1)].id;
    if (body.assigneeId) body.assigneeId = member.user.id;
    if (body.labelIds) body.labelIds = body.labelIds.map((n: string) => labels[n.slice(1)].id);
    const res = await t.post('/api/issues', body, member.token);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    created.push(res.body.issue);
  }
});
after(() => t.close());

describe('GET /api/issues: order and pagination', () => {
  test('newest first by default, with integer pageInfo', async () => {
    const body = await list('');
    assert.deepEqual(
      titles(body),
      [...created].reverse().map((i) => i.title),
    );
    assert.deepEqual(body.pageInfo, { total: 5, limit: 50, offset: 0, nextCursor: null });
  });

  test('limit and offset page through without overlap', async () => {
    const a = await list('?limit=2');
    const b = await list('?limit=2&offset=2');
    const c = await list('?limit=2&offset=4');
    const { nextCursor, ...offsets } = a.pageInfo;
    assert.deepEqual(offsets, { total: 5, limit: 2, offset: 0 });
    assert.equal(typeof nextCursor, 'string');
    assert.equal(b.pageInfo.offset, 2);
    assert.equal(c.pageInfo.nextCursor, null);
    const all = [...titles(a), ...titles(b), ...titles(c)];
    assert.deepEqual(all, titles(await list('')));
    assert.equal((await list('?offset=10')).issues.length, 0);
  });

  test('sort=createdAt&order=asc, priority, dueDate (nulls last), updatedAt', async () => {
    assert.deepEqual(
      titles(await list('?sort=createdAt&order=asc')),
      created.map((i) => i.title),
    );
    assert.deepEqual(
      (await list('?sort=priority&order=asc')).issues.map((i: any) => i.priority),
      [0, 1, 2, 3, 4],
    );
    assert.deepEqual(
      (await list('?sort=priority')).issues.map((i: any) => i.priority),
      [4, 3, 2, 1, 0],
    );
    assert.deepEqual(
      (await list('?sort=dueDate&order=asc')).issues.map((i: any) => i.dueDate),
      ['2030-01-01', '2030-02-01', '2030-03-01', null, null],
    );
    await t.patch(`/api/issues/${created[0].id}`, { estimate: 1 }, member.token);
    assert.equal(titles(await list('?sort=updatedAt'))[0], created[0].title);
  });

  for (const qs of [
    'limit=0',
    'limit=-1',
    'limit=251',
    'limit=abc',
    'offset=-1',
    'sort=title',
    'order=up',
    'priority=7',
  ]) {
    test(`400 for ${qs}`, async () => {
      const res = await t.get(`/api/issues?${qs}`, member.token);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'VALIDATION_FAILED');
    });
  }

  test('includeArchived=true alone lists everything', async () => {
    assert.equal((await list('?includeArchived=true')).pageInfo.total, 5);
  });

  test('limit=250 is allowed', async () => {
    assert.equal((await list('?limit=250')).pageInfo.limit, 250);
  });
});

describe('GET /api/issues: filters', () => {
  test('exact-match filters', async () => {
    assert.deepEqual(titles(await list(`?stateId=${states['Todo'].id}`)), ['Refactor authentication']);
    assert.deepEqual(titles(await list(`?assigneeId=${member.user.id}`)), ['Refactor authentication']);
    assert.equal((await list('?assigneeId=null')).pageInfo.total, 4);
    assert.deepEqual(titles(await list('?priority=1')), ['Broken elevator']);
    assert.deepEqual(titles(await list(`?labelId=${labels['Bug'].id}`)), [
      'Write release notes',
      'Refactor authentication',
    ]);
    assert.equal((await list('?teamId=ENG')).pageInfo.total, 5);
    assert.equal((await list(`?teamId=${created[0].teamId}&priority=4`)).pageInfo.total, 1);
    assert.equal((await list(`?projectId=${NO_ID}`)).pageInfo.total, 0);
    assert.equal((await list('?cycleId=null')).pageInfo.total, 5);
  });

  test('400 for malformed ids and unknown team keys', async () => {
    for (const qs of ['stateId=abc', 'assigneeId=abc', 'labelId=1', 'teamId=NOPE']) {
      const res = await t.get(`/api/issues?${qs}`, member.token);
      assert.equal(res.status, 400, qs);
    }
  });

  test('unknown query parameters are refused', async () => {
    assert.equal((await t.get('/api/issues?color=red', member.token)).status, 400);
  });
});

describe('GET /api/issues: search', () => {
  test('finds by a word of the description', async () => {
    assert.deepEqual(titles(await list('?q=board')), ['Quarterly report']);
  });

  test('finds by a prefix of a title word', async () => {
    assert.deepEqual(titles(await list('?q=authent')), ['Refactor authentication']);
    assert.deepEqual(titles(await list('?q=quart')), ['Quarterly report']);
  });

  test('ignores case and accents both ways', async () => {
    for (const q of ['cafe', 'CAFE', 'café', 'CAFÉ', 'Caf']) {
      const body = await list(`?q=${encodeURIComponent(q)}`);
      assert.deepEqual([...titles(body)].sort(), ['Broken elevator', 'Café opening hours'], q);
    }
    assert.deepEqual(titles(await list(`?q=${encodeURIComponent('ÉLEVATOR')}`)), ['Broken elevator']);
  });

  test('ranks title matches above description matches', async () => {
    assert.deepEqual(titles(await list('?q=cafe')), ['Café opening hours', 'Broken elevator']);
  });

  test('every word must match; combines with filters and paging', async () => {
    assert.deepEqual(titles(await list('?q=cafe%20sign')), ['Café opening hours']);
    assert.equal((await list('?q=cafe%20nothinglikethis')).pageInfo.total, 0);
    const body = await list('?q=cafe&priority=1');
    assert.deepEqual(titles(body), ['Broken elevator']);
    const paged = await list('?q=cafe&limit=1&offset=1');
    assert.deepEqual(paged.pageInfo, { total: 2, limit: 1, offset: 1, nextCursor: null });
    assert.equal(paged.issues.length, 1);
  });

  test('punctuation and query syntax are harmless', async () => {
    for (const q of ["caf'e", 'cafe & | ! ( ) :*', "'", '\\', '<->', 'a:b']) {
      const res = await t.get(`/api/issues?q=${encodeURIComponent(q)}`, member.token);
      assert.equal(res.status, 200, q);
    }
    // Only punctuation: no words, so no search filter at all.
    assert.equal((await list(`?q=${encodeURIComponent('!!! ...')}`)).pageInfo.total, 5);
  });

  test('an explicit sort overrides ranking', async () => {
    assert.deepEqual(titles(await list('?q=cafe&sort=createdAt&order=desc')), [
      'Broken elevator',
      'Café opening hours',
    ]);
  });

  test('renaming updates the search index', async () => {
    await t.patch(`/api/issues/${created[4].id}`, { description: 'Mention the xylophone' }, member.token);
    assert.deepEqual(titles(await list('?q=xylo')), ['Write release notes']);
  });
});

describe('query count', () => {
  test('a page costs the same few queries whatever its size (no per-row queries)', async () => {
    const counter = new StatementCounter();
    const counting = t.ctx.db.withPlugin(counter);
    const ctx = { ...t.ctx, db: counting };
    const actor = {
      id: member.user.id,
      role: 'member' as const,
      name: 'Lin',
      email: 'x@y.z',
      via: 'session' as const,
    };
    // The caller's teams are read once per request, before any list.
    await teamAccess(ctx.db, actor);
    counter.count = 0;
    const small = await listIssues(ctx, actor, { limit: 1 });
    const smallCount = counter.count;
    counter.count = 0;
    const big = await listIssues(ctx, actor, { limit: 250 });
    assert.equal(small.issues.length, 1);
    assert.ok(big.issues.length > 1);
    assert.equal(counter.count, smallCount);
    // Rows, label ids, branch names and the total come in one statement.
    assert.equal(counter.count, 1);
    // Past the last page the total is counted on its own.
    counter.count = 0;
    const beyond = await listIssues(ctx, actor, { limit: 10, offset: 10_000 });
    assert.deepEqual(beyond.issues, []);
    assert.equal(beyond.total, big.total);
    assert.equal(counter.count, 2);
    // A team named by key is looked up once, then known.
    const team = (await t.get<{ teams: { id: string; key: string }[] }>('/api/teams', member.token)).body
      .teams[0]!;
    counter.count = 0;
    const byKey = await listIssues(ctx, actor, { filters: { teamId: team.key.toLowerCase() }, limit: 5 });
    const again = await listIssues(ctx, actor, { filters: { teamId: team.key }, limit: 5 });
    assert.deepEqual(
      again.issues.map((i) => i.id),
      byKey.issues.map((i) => i.id),
    );
    assert.ok(byKey.issues.every((i) => i.teamId === team.id));
    assert.equal(counter.count, 3);
  });
});

// REST keyset paging: GET /api/issues?after=<pageInfo.nextCursor>.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let token: string;

const list = async (qs: string) => {
  const res = await t.get(`/api/issues${qs}`, token);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as { issues: { id: string; title: string }[]; pageInfo: Record<string, unknown> };
};
const ids = (body: { issues: { id: string }[] }) => body.issues.map((i) => i.id);

/** Every page of a list by cursor: the ids in order, and how many pages it took. */
async function walk(qs: string, limit: number) {
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const body = await list(`?limit=${limit}${qs}${cursor ? `&after=${encodeURIComponent(cursor)}` : ''}`);
    pages++;
    seen.push(...ids(body));
    cursor = body.pageInfo.nextCursor as string | null;
    assert.ok(pages < 100);
  } while (cursor);
  return { seen, pages };
}

before(async () => {
  t = await startTestApp();
  token = t.adminToken;
  for (let i = 0; i < 23; i++) {
    // Repeated priorities and due dates, and some without a due date: ties and empties to page across.
    const dueDate = i % 3 === 0 ? undefined : `2027-0${1 + (i % 4)}-1${i % 2}`;
    const res = await t.post('/api/issues', { title: `Keyset ${i}`, priority: i % 5, dueDate }, token);
    assert.equal(res.status, 201, JSON.stringify(res.body));
  }
  // Touch a few, so updatedAt differs from createdAt order.
  const all = await list('?limit=250');
  for (const issue of all.issues.filter((_, i) => i % 4 === 0)) {
    assert.equal((await t.patch(`/api/issues/${issue.id}`, { priority: 1 }, token)).status, 200);
  }
});
after(() => t.close());

describe('keyset paging', () => {
  test('walks the whole list in order, without gaps or repeats, and the last page says so', async () => {
    const everything = ids(await list('?limit=250'));
    assert.equal(everything.length, 23);
    const { seen, pages } = await walk('', 5);
    assert.deepEqual(seen, everything);
    assert.equal(pages, 5);
    const last = await list('?limit=250');
    assert.equal(last.pageInfo.nextCursor, null);
    assert.equal(last.pageInfo.total, 23);
  });

  test('works for sort=createdAt and sort=updatedAt in both directions', async () => {
    for (const qs of ['&sort=createdAt&order=asc', '&sort=updatedAt', '&sort=updatedAt&order=asc']) {
      const everything = ids(await list(`?limit=250${qs}`));
      const { seen } = await walk(qs, 4);
      assert.deepEqual(seen, everything, qs);
    }
  });

  test('a position stays put when issues are added in front of it (offsets would repeat rows)', async () => {
    const first = await list('?limit=5');
    const byOffsetBefore = ids(await list('?limit=5&offset=5'));
    assert.equal((await t.post('/api/issues', { title: 'Keyset newcomer' }, token)).status, 201);
    const next = await list(`?limit=5&after=${encodeURIComponent(first.pageInfo.nextCursor as string)}`);
    assert.deepEqual(ids(next), byOffsetBefore);
    // The same page by offset now starts with the last row of the first page.
    assert.equal(ids(await list('?limit=5&offset=5'))[0], ids(first).at(-1));
    // The total is of the whole list, not of what follows the cursor.
    assert.equal(next.pageInfo.total, 24);
  });

  test('works for sort=priority and sort=dueDate, ties and empty due dates included, both directions', async () => {
    for (const qs of [
      '&sort=priority',
      '&sort=priority&order=asc',
      '&sort=dueDate',
      '&sort=dueDate&order=asc',
      '&sort=dueDate&q=keyset',
    ]) {
      const everything = ids(await list(`?limit=250${qs}`));
      assert.ok(everything.length >= 23, qs);
      for (const limit of [1, 4, 7]) {
        const { seen } = await walk(qs, limit);
        assert.deepEqual(seen, everything, `${qs} by ${limit}`);
      }
    }
  });

  test('search ranking, offset together with after, and foreign cursors are refused', async () => {
    const cursor = encodeURIComponent((await list('?limit=2')).pageInfo.nextCursor as string);
    const updated = encodeURIComponent((await list('?limit=2&sort=updatedAt')).pageInfo.nextCursor as string);
    const priority = encodeURIComponent((await list('?limit=2&sort=priority')).pageInfo.nextCursor as string);
    assert.equal((await list('?limit=2&q=keyset')).pageInfo.nextCursor, null);
    for (const qs of [
      `?after=${priority}&sort=dueDate`,
      `?after=${priority}`,
      `?after=${cursor}&sort=priority`,
      `?after=${cursor}&q=keyset`,
      `?after=${cursor}&offset=2`,
      `?after=${updated}`,
      '?after=not-a-cursor',
    ]) {
      const res = await t.get(`/api/issues${qs}`, token);
      assert.equal(res.status, 400, qs);
      assert.equal(res.body.error.code, 'VALIDATION_FAILED', qs);
    }
  });
});

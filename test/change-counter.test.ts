// The change counter that proves refused requests change nothing
// (test/support/fuzz/digest.ts) must itself see changes: otherwise every
// "changed nothing" assertion built on it would pass for the wrong reason.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { changedTables, digest, tablesToWatch } from './support/fuzz/digest.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let tables: string[];
before(async () => {
  t = await startTestApp();
  tables = await tablesToWatch(t.ctx.db);
});
after(() => t.close());

describe('the change counter', () => {
  test('a created issue shows as a change of the issues table', async () => {
    const before = await digest(t.ctx.db, tables);
    const made = await t.post('/api/issues', { teamId: 'ENG', title: 'Counted' }, t.adminToken);
    assert.equal(made.status, 201);
    assert.ok(changedTables(before, await digest(t.ctx.db, tables)).includes('issues'));
  });

  test('an update to other values counts; one to the same values does not', async () => {
    let before = await digest(t.ctx.db, tables);
    await sql`update teams set name = name`.execute(t.ctx.db);
    assert.deepEqual(changedTables(before, await digest(t.ctx.db, tables)), []);
    await sql`update teams set name = name || '!'`.execute(t.ctx.db);
    assert.deepEqual(changedTables(before, await digest(t.ctx.db, tables)), ['teams']);
    before = await digest(t.ctx.db, tables);
    await sql`delete from issue_subscribers`.execute(t.ctx.db);
    assert.deepEqual(changedTables(before, await digest(t.ctx.db, tables)), ['issue_subscribers']);
  });

  test("a column written on its own (a session's last use) does not count; a rolled-back write does not either", async () => {
    const before = await digest(t.ctx.db, tables);
    await sql`update sessions set last_used_at = now() - interval '1 hour'`.execute(t.ctx.db);
    await t.ctx.db
      .transaction()
      .execute(async (tx) => {
        await sql`update teams set name = 'rolled back'`.execute(tx);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    assert.deepEqual(changedTables(before, await digest(t.ctx.db, tables)), []);
  });
});

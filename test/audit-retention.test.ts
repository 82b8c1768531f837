// AUDIT_RETENTION_DAYS: entries older than the period are deleted, and only
// those; nothing else can remove an entry, not even with the period's setting
// named by hand for a recent one. docs/identity.md, "Audit log".
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { pruneAuditLog } from '../src/modules/audit/retention.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);

async function entry(label: string, age: number) {
  await t.ctx.db
    .insertInto('audit_entries')
    .values({ type: 'user.updated', actor_kind: 'system', actor_label: label, created_at: daysAgo(age) })
    .execute();
}
const labels = async () =>
  (
    await t.ctx.db
      .selectFrom('audit_entries')
      .select('actor_label')
      .where('actor_label', 'like', 'ret-%')
      .execute()
  )
    .map((r) => r.actor_label)
    .sort();

test('pruning deletes exactly the entries older than the period; 0 keeps everything', async () => {
  await entry('ret-old', 40);
  await entry('ret-mid', 20);
  await entry('ret-new', 1);
  assert.equal(await pruneAuditLog(t.ctx, 0), 0);
  assert.deepEqual(await labels(), ['ret-mid', 'ret-new', 'ret-old']);
  assert.equal(await pruneAuditLog(t.ctx, 30), 1);
  assert.deepEqual(await labels(), ['ret-mid', 'ret-new']);
  assert.equal(await pruneAuditLog(t.ctx, 10), 1);
  assert.deepEqual(await labels(), ['ret-new']);
});

test('naming a period by hand lets no newer entry go, and no update through', async () => {
  await entry('ret-recent', 2);
  const attempt = (days: string, change: 'delete' | 'update') =>
    t.ctx.db.transaction().execute(async (trx) => {
      await sql`select set_config('trackway.audit_retention_days', ${days}, true)`.execute(trx);
      if (change === 'delete')
        await trx.deleteFrom('audit_entries').where('actor_label', '=', 'ret-recent').execute();
      else
        await trx
          .updateTable('audit_entries')
          .set({ actor_label: 'x' })
          .where('actor_label', '=', 'ret-recent')
          .execute();
    });
  await assert.rejects(attempt('3', 'delete'), /append-only/);
  await assert.rejects(attempt('0', 'delete'), /append-only/);
  await assert.rejects(attempt('1', 'update'), /append-only/);
  assert.ok((await labels()).includes('ret-recent'));
});

// The team_keys rule lives in the database (migration 0009): every way a team
// is written, plain SQL included, records its key, and a key that another team
// holds or once held is refused as a unique violation.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { isUniqueViolation } from '../src/platform/db/errors.js';
import { freshDatabase, type TestDatabase } from './support/database.js';

let database: TestDatabase;
before(async () => {
  database = await freshDatabase();
});
after(() => database.close());

const keysOf = async (teamId: string) =>
  (
    await database.db
      .selectFrom('team_keys')
      .select('key')
      .where('team_id', '=', teamId)
      .orderBy('key')
      .execute()
  ).map((r) => r.key);

test('every key is recorded, and never passes to another team', async () => {
  const { db } = database;
  const seeded = await db.selectFrom('teams').select(['id', 'key']).execute();
  for (const team of seeded) assert.deepEqual(await keysOf(team.id), [team.key]);

  const a = await db
    .insertInto('teams')
    .values({ key: 'SQLA', name: 'A' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.updateTable('teams').set({ key: 'SQLB' }).where('id', '=', a.id).execute();
  await db.updateTable('teams').set({ name: 'A again' }).where('id', '=', a.id).execute();
  assert.deepEqual(await keysOf(a.id), ['SQLA', 'SQLB']);
  // Back to a former key of its own: allowed.
  await db.updateTable('teams').set({ key: 'SQLA' }).where('id', '=', a.id).execute();

  for (const write of [
    () => db.insertInto('teams').values({ key: 'SQLB', name: 'B' }).execute(),
    () => sql`update teams set key = 'SQLB' where key = ${seeded[0]!.key}`.execute(db),
  ]) {
    await assert.rejects(write, (err) => isUniqueViolation(err));
  }
  assert.deepEqual(await keysOf(a.id), ['SQLA', 'SQLB']);
  assert.deepEqual(await keysOf(seeded[0]!.id), [seeded[0]!.key]);
});

// test-runner: any database
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { CatalogueTable } from './queries.js';
import { exportOrder, OPERATIONAL_TABLES } from './tables.js';

const table = (name: string, references: string[] = []): CatalogueTable => ({
  name,
  columns: ['id'],
  generated: [],
  primaryKey: [{ name: 'id', type: 'uuid' }],
  references,
});

/** A random schema without cycles: table i may point only at tables before it. */
const schemas = fc
  .array(fc.array(fc.nat(), { maxLength: 4 }), { minLength: 1, maxLength: 25 })
  .map((refs) => refs.map((r, i) => table(`t${i}`, i === 0 ? [] : [...new Set(r.map((x) => `t${x % i}`))])));

test('every table comes after the tables it points at, whatever order the catalogue gives', () => {
  fc.assert(
    fc.property(schemas, fc.nat(), (tables, seed) => {
      const shuffled = [...tables].sort(
        (a, b) => ((a.name.length * 31 + seed) % 7) - ((b.name.length * 17 + seed) % 5),
      );
      const order = exportOrder(shuffled).map((t) => t.name);
      assert.equal(order.length, tables.length);
      for (const t of tables)
        for (const r of t.references)
          assert.ok(order.indexOf(r) < order.indexOf(t.name), `${r} before ${t.name}`);
      assert.deepEqual(
        order,
        exportOrder(tables).map((t) => t.name),
      );
    }),
  );
});

test('operational tables are left out; a cycle or a reference to a left-out table is an error', () => {
  const names = exportOrder([table('users'), ...Object.keys(OPERATIONAL_TABLES).map((n) => table(n))]).map(
    (t) => t.name,
  );
  assert.deepEqual(names, ['users']);
  assert.throws(() => exportOrder([table('a', ['b']), table('b', ['a'])]), /cycle among a, b/);
  assert.throws(() => exportOrder([table('a', ['schema_migrations'])]), /leave out/);
});

// test-runner: any database
// docs/identity.md's table of audit entry types is the catalogue, both ways:
// a type added to modules/audit/catalog.ts without its line (or a line left
// for a type that is gone, or a meaning that changed) fails here.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { AUDIT_TYPES } from '../src/modules/audit/catalog.js';

test('docs/identity.md lists every audit entry type with its meaning, and nothing else', () => {
  const doc = fs.readFileSync(new URL('../docs/identity.md', import.meta.url), 'utf8');
  const table = /<!-- audit-types:start -->([\s\S]*?)<!-- audit-types:end -->/.exec(doc)?.[1];
  assert.ok(table, 'the audit-types markers are missing');
  const rows = [...table.matchAll(/^\| `([^`]+)` \| (.+) \|$/gm)].map((m) => [m[1], m[2]]);
  assert.deepEqual(Object.fromEntries(rows), AUDIT_TYPES);
  assert.equal(rows.length, Object.keys(AUDIT_TYPES).length, 'a type is listed twice');
});

// test-runner: any database
// Every kind of entry the catalogue lists is written somewhere: a kind that
// nothing records would promise admins an event the log never holds. The test
// parses every source file under src/ with the TypeScript compiler and collects
// its string literals (comments and prose do not count); each catalogue type
// must be one of them outside the catalogue itself. docs/identity.md, "Audit log".
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { AUDIT_TYPES } from '../src/modules/audit/catalog.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const CATALOGUE = 'src/modules/audit/catalog.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

function stringLiterals(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test('every audit type of the catalogue is written somewhere in src/', () => {
  const written = new Set<string>();
  for (const file of sourceFiles(path.join(root, 'src'))) {
    const rel = path.relative(root, file).split(path.sep).join('/');
    if (rel === CATALOGUE) continue;
    for (const s of stringLiterals(rel, readFileSync(file, 'utf8'))) written.add(s);
  }
  const types = Object.keys(AUDIT_TYPES);
  assert.ok(types.length > 30, 'the catalogue was read');
  const missing = types.filter((t) => !written.has(t));
  assert.deepEqual(missing, [], `catalogue types nothing in src/ writes: ${missing.join(', ')}`);
});

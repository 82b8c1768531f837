// test-runner: any database
// SQL lives in a domain's queries.ts and in the platform's own database
// plumbing, nowhere else (docs/ARCHITECTURE.md, "Roles inside a domain
// module"). This test parses every source file under src/ with the TypeScript
// compiler and fails on SQL outside those homes, naming file and line.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import ts from 'typescript';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/**
 * Where SQL may be written, besides any file named queries.ts (statements) or
 * fields.ts (a domain's computed fields as SQL fragments over its row, which
 * every door's read takes from there: modules/issues/fields.ts).
 */
const HOMES: readonly { path: string; why: string }[] = [
  { path: 'src/platform/db/', why: 'drivers, pool, migrations and the migration runner' },
  {
    path: 'src/platform/list/',
    why: 'the filter compiler, list and page builders, search, rows by id, list sources',
  },
  {
    path: 'src/platform/read/',
    why: 'the read model: entity declarations and their compiler to JSON-building SQL',
  },
  {
    path: 'src/modules/scim/filter.ts',
    why: "SCIM's filter grammar compiled to SQL conditions over an allow-list, as platform/list/filter.ts does for ours",
  },
  { path: 'src/platform/access.ts', why: "each entity's visibility rule, written as SQL" },
  { path: 'src/platform/outbox.ts', why: 'recordEvent: the change log, written in the caller’s transaction' },
  { path: 'src/platform/storage/postgres.ts', why: 'the file-storage driver whose medium is the database' },
  {
    path: 'src/first-start.ts',
    why: 'seeds an empty database under its advisory lock, as a migration would',
  },
];

/** Kysely builder methods that start a statement. */
const STATEMENT_METHODS = new Set([
  'selectFrom',
  'selectNoFrom',
  'insertInto',
  'replaceInto',
  'updateTable',
  'deleteFrom',
  'mergeInto',
  'withRecursive',
  'executeQuery',
]);
/** A raw statement handed to a driver: `client.query('select ...')`. */
const DRIVER_METHODS = new Set(['query', 'exec']);
const KEYWORDS =
  'select|insert|update|delete|with|create|alter|drop|listen|unlisten|notify|lock|set|begin|commit|rollback|truncate';
// A keyword in lower or upper case, as SQL is written; 'Select a team' is prose.
const SQL_TEXT = new RegExp(`^\\s*(${KEYWORDS}|${KEYWORDS.toUpperCase()})\\b`);

interface SqlSite {
  line: number;
  what: string;
}

/** Every place in one source text that writes SQL. */
function sqlSites(fileName: string, text: string): SqlSite[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  // Local names of kysely's `sql` tag (imported as is or renamed).
  const sqlNames = new Set<string>();
  for (const st of source.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    if (st.moduleSpecifier.text !== 'kysely' || st.importClause?.isTypeOnly) continue;
    const named = st.importClause?.namedBindings;
    if (named && ts.isNamedImports(named)) {
      for (const el of named.elements) {
        if ((el.propertyName ?? el.name).text === 'sql' && !el.isTypeOnly) sqlNames.add(el.name.text);
      }
    }
  }
  const sites: SqlSite[] = [];
  const add = (node: ts.Node, what: string) =>
    sites.push({ line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, what });
  const isSqlTag = (e: ts.Expression) => ts.isIdentifier(e) && sqlNames.has(e.text);
  const visit = (node: ts.Node): void => {
    if (ts.isTaggedTemplateExpression(node) && isSqlTag(node.tag)) add(node, 'sql`...`');
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const { name, expression: receiver } = node.expression;
      const method = name.text;
      if (STATEMENT_METHODS.has(method)) add(node, `.${method}(`);
      else if (isSqlTag(receiver)) add(node, `sql.${method}(`);
      else if (ts.isIdentifier(receiver) && receiver.text === 'CompiledQuery')
        add(node, `CompiledQuery.${method}(`);
      else if (method === 'with' && isCte(node)) add(node, '.with( (a CTE)');
      else if (DRIVER_METHODS.has(method) && node.arguments[0] && isSqlText(node.arguments[0]))
        add(node, `.${method}('...')`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return sites;
}

/** Kysely's `db.with('name', (db) => ...)`: a name, then a query builder callback. */
function isCte(call: ts.CallExpression): boolean {
  const [name, body] = call.arguments;
  return (
    name !== undefined &&
    ts.isStringLiteralLike(name) &&
    body !== undefined &&
    (ts.isArrowFunction(body) || ts.isFunctionExpression(body))
  );
}

function isSqlText(arg: ts.Expression): boolean {
  if (ts.isStringLiteralLike(arg)) return SQL_TEXT.test(arg.text);
  if (ts.isTemplateExpression(arg)) return SQL_TEXT.test(arg.head.text);
  return false;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

const allowed = (rel: string) =>
  path.basename(rel) === 'queries.ts' ||
  path.basename(rel) === 'fields.ts' ||
  HOMES.some((h) => rel.startsWith(h.path));

describe('SQL lives in queries.ts and the platform plumbing', () => {
  test('the scanner finds each way of writing SQL, and nothing in plain code', () => {
    const found = sqlSites(
      'x.ts',
      [
        "import { sql as q, Kysely } from 'kysely';",
        'db.selectFrom("users").selectAll();', // 2
        'trx.insertInto("t").values({});', // 3
        'db.updateTable("t").set({});', // 4
        'db.deleteFrom("t");', // 5
        'q`select 1`.execute(db);', // 6
        'q<{ n: number }>`select 1`;', // 7
        'q.raw("now()");', // 8
        'db.with("c", (d) => d);', // 9
        "client.query('SELECT 1');", // 10
        'db.executeQuery(compiled);', // 11
        'CompiledQuery.raw("select 1");', // 12
      ].join('\n'),
    );
    assert.deepEqual(
      found.map((s) => s.line),
      [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
    );
    const clean = sqlSites(
      'y.ts',
      [
        "import type { sql } from 'kysely';",
        'const sql = (s: TemplateStringsArray) => s;', // a local tag, not kysely's
        'sql`select 1`;',
        'db.transaction().execute(async (trx) => run(trx));',
        'map.with("a", 1); items.query("Select a team");',
        'reply.send({ message: "Select a state" });',
      ].join('\n'),
    );
    assert.deepEqual(clean, []);
  });

  test('no SQL outside its homes', () => {
    const misplaced: string[] = [];
    for (const file of sourceFiles(path.join(root, 'src'))) {
      const rel = path.relative(root, file).split(path.sep).join('/');
      if (allowed(rel)) continue;
      for (const s of sqlSites(rel, readFileSync(file, 'utf8'))) misplaced.push(`${rel}:${s.line} ${s.what}`);
    }
    assert.deepEqual(misplaced, [], `SQL belongs in the domain's queries.ts:\n${misplaced.join('\n')}`);
  });

  test('every listed home exists and still needs its place', () => {
    for (const entry of HOMES) {
      const abs = path.join(root, entry.path);
      const files = entry.path.endsWith('/') ? sourceFiles(abs) : [abs];
      const sites = files.flatMap((f) => sqlSites(f, readFileSync(f, 'utf8')));
      assert.ok(sites.length > 0, `${entry.path} writes no SQL any more: take it off the list`);
    }
  });
});

// test-runner: any database
// The web UI's data layer has one place per rule (docs/ui.md, "Data layer"):
// cache keys are built only by web/src/lib/query-keys.ts, which live.ts and the
// pages share, and REST is called only through the client typed from the
// OpenAPI document (lib/api.ts `rest`), never by a hand-written fetch.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { keys } from '../web/src/lib/query-keys.js';

const root = path.join(import.meta.dirname, '..', 'web', 'src');
/** Generated code and the two files whose job it is to hold what is checked here. */
const skipped = new Set(['gql', 'rest']);

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return skipped.has(e.name) ? [] : sources(p);
    return /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

const files = sources(root).map((p) => ({ name: path.relative(root, p), text: fs.readFileSync(p, 'utf8') }));

/** Lines of every file but `except` that match `pattern`, as "file:line: text". */
const offenders = (pattern: { test(line: string): boolean }, except: string[]) =>
  files
    .filter((f) => !except.includes(f.name))
    .flatMap((f) =>
      f.text
        .split('\n')
        .flatMap((line, i) => (pattern.test(line) ? [`${f.name}:${i + 1}: ${line.trim()}`] : [])),
    );

test('the scan reads the web sources', () => {
  assert.ok(files.length > 40, `only ${files.length} files found under ${root}`);
  assert.ok(files.some((f) => f.name === path.join('lib', 'live.ts')));
});

test('no query key is written as a literal outside lib/query-keys.ts', () => {
  // `queryKey: [...]` in a read, a cancel or a patch, or a string prefix given to invalidate.
  const literal = /queryKey:\s*\[|invalidate\(\s*['"\x60]/;
  assert.deepEqual(offenders(literal, [path.join('lib', 'query-keys.ts')]), []);
});

test('REST is called only through the typed client', () => {
  // fetch() stays in api.ts (the clients), files.ts (upload URLs, downloads) and graphiql.tsx (its own page).
  const allowed = ['lib/api.ts', 'lib/files.ts', 'graphiql.tsx'].map((p) => path.join(...p.split('/')));
  assert.deepEqual(offenders(/\bfetch\(/, allowed), []);
  // An address under /api/ is written only as a path of the typed client or its types
  // (comments and the change stream's EventSource, which cannot send a token, aside).
  const typed =
    /\brest\.(GET|POST|PUT|PATCH|DELETE)\(['"]\/api\/|\bRest(Data|Body)<'\w+', '\/api\/|new EventSource\(/;
  const untyped = (line: string) =>
    /['"\x60]\/api\//.test(line) && !typed.test(line) && !/^\s*(\/\/|\*|\/\*\*)/.test(line);
  assert.deepEqual(offenders({ test: untyped }, allowed), []);
});

test('the key factory keeps every key under its group prefix', () => {
  // live.ts invalidates by prefix: a key outside its group would never be refreshed.
  for (const [group, value] of Object.entries(keys)) {
    if (Array.isArray(value) || typeof value === 'function') continue;
    const all = (value as { all?: readonly unknown[] }).all;
    if (!all) continue;
    for (const key of allKeys(value)) assert.deepEqual(key.slice(0, all.length), all, `${group}: ${key}`);
  }
});

/** Every key a factory entry makes (functions called with sample arguments). */
function allKeys(entry: unknown): (readonly unknown[])[] {
  if (Array.isArray(entry)) return [entry];
  if (typeof entry === 'function') return [(entry as (...a: unknown[]) => readonly unknown[])('x', 'y')];
  return Object.values(entry as object).flatMap(allKeys);
}

// The JSON of a declared view (a REST answer's fixed selection, a GraphQL
// document with its variables) is the same SQL for every request of one
// caller, but building it is a tree of some
// thousand fragments that Kysely then walks, freezes and prints: for a GET by
// identifier that was a fifth of the server's time (docs/benchmarks.md,
// "Per-request CPU"). Here it is built once per caller and kept flat: the
// printed text cut at its parameters, and those parameters, which a
// statement takes in as one fragment.
import { createQueryId, PostgresQueryCompiler, type RawBuilder, sql } from 'kysely';
import type { TeamAccess } from '../access.js';
import type { Sql } from './json.js';
import type { ReadContext } from './model.js';

/**
 * Variants (callers, a document's variables) remembered per view; past this
 * the view's map starts again. A REST view's SQL is a few kB: 14 views at
 * this bound keep well under 10 MB.
 */
const DEFAULT_KEEP = 100;

/**
 * Characters of SQL kept across all views (counted as they are kept, since
 * the last drop), whatever callers send: GraphQL
 * documents are kept by the hundred (graphql/execute.ts), so the per-view
 * bound alone would let one member fill memory with distinct documents and
 * variables. Past it, everything kept so far is dropped (each view's map is
 * emptied when next used; a document's, when it is).
 */
const KEPT_CHARS = 16_000_000;

const compiler = new PostgresQueryCompiler();
const kept = new WeakMap<object, { generation: number; byCaller: Map<string, Sql> }>();
let generation = 0;
let keptChars = 0;

/** What in a read context can change its SQL, as a key; `now` is left out (see flatFor). */
function callerKey(c: ReadContext): string {
  const a: TeamAccess = c.access;
  const teams = a.all ? '*' : `${a.guest ? 'g' : 'm'}:${[...a.teamIds].sort().join(',')}`;
  return `${c.publicUrl}\n${c.viewerId}\n${a.userId}\n${teams}`;
}

/**
 * `build(c)` for the view `view` (an object that lives as long as the view,
 * its selection) in its `variant` (entity and alias), built once per caller
 * and kept flat. A build that reads `c.now` (cycle states) depends on the
 * clock and is not kept.
 */
export function flatFor(
  view: object,
  variant: string,
  c: ReadContext,
  build: (c: ReadContext) => Sql,
  keep = DEFAULT_KEEP,
): Sql {
  let entry = kept.get(view);
  if (!entry || entry.generation !== generation) {
    entry = { generation, byCaller: new Map() };
    kept.set(view, entry);
  }
  const byCaller = entry.byCaller;
  const key = `${variant}\n${callerKey(c)}`;
  const known = byCaller.get(key);
  if (known) return known;
  let readsClock = false;
  const watched: ReadContext = {
    access: c.access,
    viewerId: c.viewerId,
    publicUrl: c.publicUrl,
    get now() {
      readsClock = true;
      return c.now;
    },
  };
  const built = build(watched);
  if (readsClock) return built;
  const flattened = flatten(built);
  if (!flattened) return built;
  keptChars += flattened.chars;
  if (keptChars > KEPT_CHARS) {
    // Everything kept so far is forgotten; this view starts the new generation.
    generation++;
    keptChars = flattened.chars;
    kept.set(view, { generation, byCaller: new Map([[key, flattened.sql]]) });
    return flattened.sql;
  }
  if (byCaller.size >= keep) byCaller.clear();
  byCaller.set(key, flattened.sql);
  return flattened.sql;
}

/** One raw fragment with the same text and parameters; undefined if its text is not cut cleanly. */
function flatten(built: RawBuilder<unknown>): { sql: Sql; chars: number } | undefined {
  const { sql: text, parameters } = compiler.compileQuery(built.toOperationNode(), createQueryId());
  const pieces = text.split(/\$(\d+)/);
  // split keeps the captured numbers at odd places: $1, $2, ... in order, once each.
  const numbers = pieces.filter((_, i) => i % 2 === 1).map(Number);
  if (numbers.length !== parameters.length || numbers.some((n, i) => n !== i + 1)) return undefined;
  const fragments = pieces.filter((_, i) => i % 2 === 0);
  const flat = sql(
    Object.assign(fragments, { raw: fragments }) as unknown as TemplateStringsArray,
    ...parameters,
  );
  return { sql: flat, chars: text.length };
}

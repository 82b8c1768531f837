// Makes one embedded PGlite instance look like a `pg` pool, so Kysely's own
// Postgres dialect (and every query we write) runs unchanged on both databases.
// PGlite is a single connection: a checkout holds it exclusively until release,
// which is what keeps a transaction's statements together. A query that asks the
// pool for a second connection while holding one would wait forever, so every
// query function takes the connection or transaction it runs in.
import { messages as backend, type PGlite, parse, protocol } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import { prepareValue } from 'pg/lib/utils.js';
import { MAX_PER_CONNECTION, RepeatedTexts } from './prepared-pool.js';

type Command = PostgresQueryResult<unknown>['command'];
const WRITE_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

function commandOf(sql: string): Command {
  const word = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'SELECT';
  return (WRITE_COMMANDS.has(word) ? word : 'SELECT') as Command;
}

const { serialize } = protocol;

function joined(messages: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(messages.reduce((n, m) => n + m.length, 0));
  let at = 0;
  for (const m of messages) {
    out.set(m, at);
    at += m.length;
  }
  return out;
}

type BackendMessage = Awaited<ReturnType<PGlite['execProtocolStream']>>[number];

/**
 * Sends a statement's protocol messages to PGlite as one buffer, answered in one call into
 * WebAssembly. PGlite's own `query` sends parse, describe, bind, describe, execute and sync one by
 * one (the first describe to learn the parameters' types for its serializers), and `exec` the
 * query and sync apart: a third of the cost of a short statement went to those crossings.
 * Every answer comes back, an error's included (the caller needs to know whether a Parse before
 * it succeeded); the first error is thrown as PGlite's own `query` would throw it.
 */
async function exchange(pglite: PGlite, messages: Uint8Array[]): Promise<BackendMessage[]> {
  return pglite._runExclusiveQuery(async () => {
    const answer = await pglite.execProtocolStream(joined(messages), {
      syncToFs: false,
      throwOnError: false,
    });
    // As PGlite's own query does: the file system is brought up to date outside transactions.
    if (!pglite.isInTransaction()) await pglite.syncToFs();
    return answer;
  });
}

/**
 * With parameters: the extended protocol, the parameters as node-postgres sends them to a
 * PostgreSQL server (its prepareValue: text, a Buffer as binary, untyped so the server infers the
 * type), so both databases receive the same values. `statement` names a prepared statement;
 * `parse` whether this exchange prepares it.
 */
const extended = (sql: string, parameters: readonly unknown[], statement = '', parse = true) => [
  ...(parse ? [serialize.parse({ name: statement, text: sql })] : []),
  serialize.bind({ statement, values: parameters.map((v) => prepareValue(v)) }),
  serialize.describe({ type: 'P' }),
  serialize.execute({}),
  serialize.sync(),
];

/** Without: the simple protocol, which allows several statements (migrations) in one call. */
const simple = (sql: string) => [serialize.query(sql), serialize.sync()];

/**
 * Prepared statements' names, unique in the process and never used twice: a pool on an instance
 * another pool used before (the tests reuse instances) cannot meet a name that one left, and a
 * Parse that failed leaves no name half taken.
 */
let lastStatement = 0;

/**
 * The longest text PGlite prepares. Its plans live in the WebAssembly heap, whose touched pages
 * stay resident: with the compiled reads (4-30 KB of SQL each) prepared too, the embedded
 * server's peak at 100,000 issues rose from 348 to 363-368 MB, over its 350 MB target, for
 * reads two to three times faster. Short statements (the budget upsert, lookups by key) are
 * most of what a request runs and cost little to keep (docs/benchmarks.md, "Issue 25, fourth
 * stop").
 */
export const MAX_PREPARED_TEXT = 2_000;

/**
 * PGlite's one connection as a pool. Repeated statements up to MAX_PREPARED_TEXT long are
 * prepared as `PreparingPool` prepares them on PostgreSQL (prepared-pool.ts: from a text's second
 * sighting, at most MAX_PER_CONNECTION): planning is most of a short statement's cost here too,
 * and the one statement of every request (its GraphQL budget's upsert) was planned again each time.
 */
export class PGlitePool implements PostgresPool {
  #tail: Promise<void> = Promise.resolve();
  readonly #texts = new RepeatedTexts();
  /** Statement names by text digest, recorded once PGlite answered their Parse. */
  readonly #prepared = new Map<string, string>();

  /** `closeOnEnd`: whether ending the pool closes the instance (false when its owner keeps it). */
  constructor(
    readonly pglite: PGlite,
    private readonly opts: { closeOnEnd: boolean } = { closeOnEnd: true },
  ) {}

  async connect(): Promise<PostgresPoolClient> {
    let release!: () => void;
    const previous = this.#tail;
    this.#tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    let released = false;
    const client = {
      query: async <R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> => {
        const answer = await this.#run(sql, parameters);
        const failure = answer.find((m) => m instanceof backend.DatabaseError);
        if (failure) throw failure;
        const results = parse.parseResults(answer, this.pglite.parsers);
        const last = results[results.length - 1];
        return {
          command: commandOf(sql),
          rowCount: last?.affectedRows ?? 0,
          rows: (last?.rows ?? []) as R[],
        };
      },
      release() {
        if (released) return;
        released = true;
        release();
      },
    };
    return client as PostgresPoolClient;
  }

  /** Runs a statement: simple without parameters, else prepared where the rules above allow it. */
  async #run(sql: string, parameters: ReadonlyArray<unknown>): Promise<BackendMessage[]> {
    if (parameters.length === 0) return exchange(this.pglite, simple(sql));
    if (sql.length > MAX_PREPARED_TEXT) return exchange(this.pglite, extended(sql, parameters));
    const digest = this.#texts.repeated(sql);
    if (digest === undefined) return exchange(this.pglite, extended(sql, parameters));
    const known = this.#prepared.get(digest);
    if (known) return exchange(this.pglite, extended(sql, parameters, known, false));
    if (this.#prepared.size >= MAX_PER_CONNECTION) return exchange(this.pglite, extended(sql, parameters));
    const name = `tw_${++lastStatement}`;
    const answer = await exchange(this.pglite, extended(sql, parameters, name));
    if (answer.some((m) => m.name === 'parseComplete')) this.#prepared.set(digest, name);
    return answer;
  }

  async end(): Promise<void> {
    await this.#tail;
    if (this.opts.closeOnEnd) await this.pglite.close();
  }
}

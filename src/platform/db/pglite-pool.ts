// Makes one embedded PGlite instance look like a `pg` pool, so Kysely's own
// Postgres dialect (and every query we write) runs unchanged on both databases.
// PGlite is a single connection: a checkout holds it exclusively until release,
// which is what keeps a transaction's statements together. A query that asks the
// pool for a second connection while holding one would wait forever, so every
// query function takes the connection or transaction it runs in.
import { type PGlite, parse, protocol, type Results } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import { prepareValue } from 'pg/lib/utils.js';

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

/**
 * Sends a statement's protocol messages to PGlite as one buffer, answered in one call into
 * WebAssembly. PGlite's own `query` sends parse, describe, bind, describe, execute and sync one by
 * one (the first describe to learn the parameters' types for its serializers), and `exec` the
 * query and sync apart: a third of the cost of a short statement went to those crossings.
 */
async function run(pglite: PGlite, messages: Uint8Array[]): Promise<Results[]> {
  return pglite._runExclusiveQuery(async () => {
    const answer = await pglite.execProtocolStream(joined(messages), { syncToFs: false });
    // As PGlite's own query does: the file system is brought up to date outside transactions.
    if (!pglite.isInTransaction()) await pglite.syncToFs();
    return parse.parseResults(answer, pglite.parsers);
  });
}

/**
 * With parameters: the extended protocol, the parameters as node-postgres sends them to a
 * PostgreSQL server (its prepareValue: text, a Buffer as binary, untyped so the server infers the
 * type), so both databases receive the same values.
 */
const extended = (sql: string, parameters: readonly unknown[]) => [
  serialize.parse({ text: sql }),
  serialize.bind({ values: parameters.map((v) => prepareValue(v)) }),
  serialize.describe({ type: 'P' }),
  serialize.execute({}),
  serialize.sync(),
];

/** Without: the simple protocol, which allows several statements (migrations) in one call. */
const simple = (sql: string) => [serialize.query(sql), serialize.sync()];

export class PGlitePool implements PostgresPool {
  #tail: Promise<void> = Promise.resolve();

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
    const pglite = this.pglite;
    let released = false;
    const client = {
      async query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
        const results = await run(pglite, parameters.length === 0 ? simple(sql) : extended(sql, parameters));
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

  async end(): Promise<void> {
    await this.#tail;
    if (this.opts.closeOnEnd) await this.pglite.close();
  }
}

// Makes one embedded PGlite instance look like a `pg` pool, so Kysely's own
// Postgres dialect (and every query we write) runs unchanged on both databases.
// PGlite is a single connection: a checkout holds it exclusively until release,
// which is what keeps a transaction's statements together. A query that asks the
// pool for a second connection while holding one would wait forever, so every
// query function takes the connection or transaction it runs in.
import type { PGlite } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

type Command = PostgresQueryResult<unknown>['command'];
const WRITE_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

function commandOf(sql: string): Command {
  const word = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'SELECT';
  return (WRITE_COMMANDS.has(word) ? word : 'SELECT') as Command;
}

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
        if (parameters.length === 0) {
          // Simple protocol: allows several statements (migrations) in one call.
          const results = await pglite.exec(sql);
          const last = results[results.length - 1];
          return {
            command: commandOf(sql),
            rowCount: last?.affectedRows ?? 0,
            rows: (last?.rows ?? []) as R[],
          };
        }
        const result = await pglite.query<R>(sql, parameters as unknown[]);
        return { command: commandOf(sql), rowCount: result.affectedRows ?? 0, rows: result.rows };
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

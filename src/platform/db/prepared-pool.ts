// PostgreSQL: statements the process runs again are prepared once per
// connection (a named statement in pg's extended protocol) and from then on
// only bound and executed. A compiled read is a few kilobytes of SQL whose
// parse and plan cost several times its execution (docs/benchmarks.md,
// "Prepared statements"); prepared, PostgreSQL keeps its plan (a generic one
// once five runs show it is as good as planning each time) and the text is
// not sent again. JDBC's driver does the same by default. PGlite's pool
// (pglite-pool.ts) prepares by the same rules.
//
// Bounded twice: a text is prepared only from its second sighting in this
// process (a one-off filter never takes a slot), and a connection holds at
// most MAX_PER_CONNECTION of them (what a backend keeps in memory); later
// texts run unnamed there. Statements without parameters keep the simple
// protocol, which allows several statements in one text (migrations).
import { createHash } from 'node:crypto';
import type { PostgresPool, PostgresPoolClient } from 'kysely';

export const MAX_PER_CONNECTION = 100;
/** Texts a process remembers having seen (by digest), oldest dropped first. */
const REMEMBERED = 2_000;

/** The statement texts a pool has seen, by digest (so long texts cost no memory here). */
export class RepeatedTexts {
  readonly #seen = new Set<string>();

  /** `sql`'s digest from its second sighting on; undefined the first time. */
  repeated(sql: string): string | undefined {
    const digest = createHash('sha1').update(sql).digest('base64url');
    if (this.#seen.has(digest)) return digest;
    if (this.#seen.size >= REMEMBERED) this.#seen.delete(this.#seen.values().next().value as string);
    this.#seen.add(digest);
    return undefined;
  }
}

/** pg's client also takes a query config: `{ name, text, values }`. */
type Query = (config: unknown, parameters?: readonly unknown[]) => Promise<unknown>;

export class PreparingPool implements PostgresPool {
  readonly #texts = new RepeatedTexts();
  /** The names each connection has prepared (pg keeps its clients across checkouts). */
  readonly #prepared = new WeakMap<object, Set<string>>();

  constructor(readonly inner: PostgresPool) {}

  async connect(): Promise<PostgresPoolClient> {
    const client = await this.inner.connect();
    const run = client.query.bind(client) as Query;
    let names = this.#prepared.get(client);
    if (!names) {
      names = new Set();
      this.#prepared.set(client, names);
    }
    const prepared = names;
    const query = (sql: unknown, parameters?: readonly unknown[]) => {
      if (typeof sql !== 'string' || !parameters || parameters.length === 0) return run(sql, parameters);
      const digest = this.#texts.repeated(sql);
      const name = digest && `tw_${digest}`;
      if (!name || (!prepared.has(name) && prepared.size >= MAX_PER_CONNECTION)) {
        return run(sql, parameters);
      }
      prepared.add(name);
      return run({ name, text: sql, values: parameters });
    };
    return Object.assign(Object.create(client) as PostgresPoolClient, {
      query,
      release: () => client.release(),
    });
  }

  end(): Promise<void> {
    return this.inner.end();
  }
}

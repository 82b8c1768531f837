// The floor: the database answering the same question directly, with no HTTP,
// no auth, no JSON shaping. On PostgreSQL it runs at the same concurrency as the
// HTTP load through a pg Pool; on PGlite (one connection, in-process) the only
// honest floor is sequential timing of the same SQL in this process.
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export type Exec = (text: string, params: unknown[]) => Promise<{ rows: unknown[] }>;

export interface Session {
  exec: Exec;
  /** Runs fn in one transaction on this session's connection. */
  tx(fn: (exec: Exec) => Promise<void>): Promise<void>;
}

/** One floor question: i counts the iterations, so a query can vary its parameters. */
export type FloorQuery = (s: Session, i: number) => Promise<void>;

export interface Measure {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
  mean: number;
  durationS: number;
  concurrency: number;
  firstError?: string;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx]!;
}

function summarize(
  lat: number[],
  errors: number,
  ms: number,
  concurrency: number,
  firstError?: string,
): Measure {
  lat.sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    requests: lat.length,
    errors,
    rps: round((lat.length / ms) * 1000),
    p50: round(percentile(lat, 50)),
    p99: round(percentile(lat, 99)),
    mean: round(lat.reduce((a, b) => a + b, 0) / Math.max(1, lat.length)),
    durationS: round(ms / 1000),
    concurrency,
    ...(firstError ? { firstError } : {}),
  };
}

export interface FloorRunner {
  kind: 'pool' | 'sequential';
  run(query: FloorQuery, seconds: number): Promise<Measure>;
  close(): Promise<void>;
}

/** PostgreSQL: `concurrency` workers, each on its own pooled connection. */
export function poolFloor(connectionString: string, concurrency: number): FloorRunner {
  const pool = new pg.Pool({ connectionString, max: concurrency });
  pool.on('error', () => {});
  return {
    kind: 'pool',
    async run(query, seconds) {
      const lat: number[] = [];
      let errors = 0;
      let firstError: string | undefined;
      let counter = 0;
      const start = performance.now();
      const end = start + seconds * 1000;
      const worker = async () => {
        const client = await pool.connect();
        const exec: Exec = (text, params) => client.query(text, params);
        const session: Session = {
          exec,
          async tx(fn) {
            await client.query('begin');
            try {
              await fn(exec);
              await client.query('commit');
            } catch (err) {
              await client.query('rollback');
              throw err;
            }
          },
        };
        try {
          while (performance.now() < end) {
            const t = performance.now();
            try {
              await query(session, counter++);
              lat.push(performance.now() - t);
            } catch (err) {
              errors++;
              firstError ??= String(err);
            }
          }
        } finally {
          client.release();
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      return summarize(lat, errors, performance.now() - start, concurrency, firstError);
    },
    close: () => pool.end(),
  };
}

/** PGlite: one query at a time, in this process, on the instance itself. */
export function sequentialFloor(pglite: PGlite): FloorRunner {
  const exec: Exec = (text, params) => pglite.query(text, params as unknown[]);
  const session: Session = {
    exec,
    async tx(fn) {
      await pglite.transaction(async (t) => {
        await fn((text, params) => t.query(text, params as unknown[]));
      });
    },
  };
  return {
    kind: 'sequential',
    async run(query, seconds) {
      const lat: number[] = [];
      let errors = 0;
      let firstError: string | undefined;
      const start = performance.now();
      const end = start + seconds * 1000;
      for (let i = 0; performance.now() < end; i++) {
        const t = performance.now();
        try {
          await query(session, i);
          lat.push(performance.now() - t);
        } catch (err) {
          errors++;
          firstError ??= String(err);
        }
      }
      return summarize(lat, errors, performance.now() - start, 1, firstError);
    },
    close: async () => {},
  };
}

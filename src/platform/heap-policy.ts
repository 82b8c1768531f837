// How far V8 lets the old generation grow past what survived its last full
// collection, chosen by where the database lives. V8's own factor (up to 4x)
// makes a burst of requests leave hundreds of MB of dead objects resident.
// Embedded, the process also holds PostgreSQL itself (PGlite's WASM heap), so
// it collects early; with a PostgreSQL server it has the headroom to collect
// less often, which is worth 10-20% more requests per second under load
// (docs/benchmarks.md, "Memory (issue 16)").
import v8 from 'node:v8';

export const HEAP_GROWING_PERCENT = { pglite: 25, postgres: 75 } as const;

/** Applies the growth policy for this database; V8 reads the flag at each full collection. */
export function applyHeapPolicy(database: keyof typeof HEAP_GROWING_PERCENT): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT[database]}`);
}

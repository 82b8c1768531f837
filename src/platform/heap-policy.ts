// How far V8 lets the old generation grow past what survived its last full
// collection, chosen by where the database lives. V8's own factor (up to 4x)
// makes a burst of requests leave hundreds of MB of dead objects resident.
// Embedded, the process also holds PostgreSQL itself (PGlite's WASM heap), so
// it collects early; with a PostgreSQL server it has the headroom to collect
// less often, which is worth 10-20% more requests per second under load
// (docs/benchmarks.md, "Memory (issue 16)").
// A one-shot job streaming a whole workspace (`npm run export`, `npm run
// restore`) holds little that lives, but every page it reads dies: at V8's
// factor those dead pages, and the buffers they point at, would fill the
// headroom the longer the job runs, so it collects early whatever the
// database ("batch"; with a small young generation from its npm script,
// docs/benchmarks.md, "Import, export and restore").
import v8 from 'node:v8';

export const HEAP_GROWING_PERCENT = { pglite: 25, postgres: 75, batch: 25 } as const;

/** Applies the growth policy for this process; V8 reads the flag at each full collection. */
export function applyHeapPolicy(kind: keyof typeof HEAP_GROWING_PERCENT): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT[kind]}`);
}

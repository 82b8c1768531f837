// Loaded into the bench's server with `--import` (never by `npm start`): every
// 200 ms it appends one JSON line to BENCH_MEMORY_FILE with the process's memory
// split the way V8 and PGlite see it, so a peak can be traced to its part.
// PGlite's WASM heap is found by wrapping PGlite.create (the server's own
// dynamic import gets the same module instance).
import fs from 'node:fs';
import v8 from 'node:v8';

const file = process.env.BENCH_MEMORY_FILE;
if (file) {
  const instances = [];
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const create = PGlite.create;
    PGlite.create = async function (...args) {
      const pglite = await create.apply(this, args);
      instances.push(pglite);
      return pglite;
    };
  } catch {
    // PGlite not installed: PostgreSQL only.
  }
  const mb = (n) => Math.round(n / 104857.6) / 10;
  const out = fs.openSync(file, 'a');
  const sample = () => {
    const m = process.memoryUsage();
    const spaces = {};
    for (const s of v8.getHeapSpaceStatistics()) spaces[s.space_name] = mb(s.space_size);
    // `mod` is PGlite's Emscripten module; its memory only grows.
    const wasm = instances.reduce((sum, p) => sum + (p.mod?.wasmMemory?.buffer.byteLength ?? 0), 0);
    const line = {
      t: Date.now(),
      rss: mb(m.rss),
      heapTotal: mb(m.heapTotal),
      heapUsed: mb(m.heapUsed),
      external: mb(m.external),
      arrayBuffers: mb(m.arrayBuffers),
      wasm: mb(wasm),
      newSpace: spaces.new_space ?? 0,
      oldSpace: spaces.old_space ?? 0,
      codeSpace: spaces.code_space ?? 0,
      largeObjectSpace: (spaces.large_object_space ?? 0) + (spaces.new_large_object_space ?? 0),
    };
    fs.writeSync(out, `${JSON.stringify(line)}\n`);
  };
  setInterval(sample, 200).unref();
}

// node:test reporter of scripts/test-worker.mjs (loaded into the worker's own
// process by --test-reporter, so it shares this module with the worker): it
// counts each file's tests and tells the worker when the file's suite ended.

/** The line a worker prints after each file, followed by the file's results as JSON. */
export const MARKER = '@@trackway-test-file-done@@';

let current;

/** Resolves with the file's counts when its top-level suite `name` has passed or failed. */
export function fileEnded(name) {
  return new Promise((resolve) => {
    current = { name, resolve, tests: 0, pass: 0, fail: 0, ok: true };
  });
}

// biome-ignore lint/correctness/useYield: node:test wants a generator; this one prints nothing (spec prints).
export default async function* workerReporter(source) {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { nesting, name, details, skip, todo } = event.data;
    if (!current) continue;
    if (nesting === 0) {
      if (event.type === 'test:fail') current.ok = false;
      // Another top-level name: an error outside any test while this file ran; it fails the file.
      if (name !== current.name) continue;
      const { resolve, name: _, ...counts } = current;
      current = undefined;
      resolve(counts);
    } else if (details?.type !== 'suite') {
      current.tests++;
      if (event.type === 'test:fail') current.fail++;
      else if (!skip && !todo) current.pass++;
    }
  }
}

// One long-lived test process of `npm test` (scripts/test.mjs): it reads test
// files from stdin, one path a line, and runs each in turn as a top-level
// suite of node:test, so module loading, the JIT's warm-up and the first
// app's one-time work are paid once per worker rather than once per file.
// The file's own before/after hooks belong to its suite and run when it
// ends; every file still opens its own database (test/support/database.ts).
//
// After each file it prints a marker line carrying the file's results (its
// wall and CPU time, its process's and its descendants', living or waited for, such as
// Chromium, and its test counts); stderr shares stdout's pipe (the runner
// starts it with 2>&1), so everything before the marker is the file's output.
import fs from 'node:fs';
import readline from 'node:readline';
import { describe } from 'node:test';
import { pathToFileURL } from 'node:url';
import { forgetResourcesSince, newestAsyncId } from './test-async-hooks.mjs';
import { fileEnded, MARKER } from './test-worker-reporter.mjs';

const timeoutMs = Number(process.env.TEST_TIMEOUT_MS ?? 300_000);
const ticksPerSecond = 100; // USER_HZ on Linux

/** utime stime cutime cstime of one process, and its parent, from /proc/<pid>/stat. */
function statOf(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(fields[1]), ticks: [11, 12, 13, 14].reduce((n, i) => n + Number(fields[i]), 0) };
}

/**
 * CPU time, in ms, of this process and of everything it started that is still running or was
 * waited for. The living descendants count too: the browser the UI files share
 * (test/ui/browser.ts) lives across files, and its renderers, reaped by its zygote, are in the
 * zygote's children's time. A file's share is the difference before and after it.
 */
function cpuMs() {
  const procs = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      procs.set(Number(name), statOf(name));
    } catch {
      // ended while we looked
    }
  }
  const mine = (pid) => {
    for (let p = pid, depth = 0; p > 1 && depth < 64; depth++) {
      if (p === process.pid) return true;
      p = procs.get(p)?.ppid ?? 0;
    }
    return false;
  };
  let ticks = 0;
  for (const [pid, s] of procs) if (mine(pid)) ticks += s.ticks;
  return ticks * (1000 / ticksPerSecond);
}

const baseEnv = { ...process.env };

for await (const line of readline.createInterface({ input: process.stdin })) {
  const [file, name] = JSON.parse(line);
  const t0 = Date.now();
  const c0 = cpuMs();
  const ended = fileEnded(name);
  const firstAsyncId = newestAsyncId();
  process.env.TEST_FILE = name; // for test/support/database.ts's check of `test-runner: any database`
  // The whole file within the per-test limit's time: the runner kills a worker stuck past it.
  await describe(name, { timeout: timeoutMs }, async () => {
    await import(pathToFileURL(file).href);
  });
  const result = await ended;
  forgetResourcesSince(firstAsyncId);
  // A file's environment changes stay with it.
  for (const k of Object.keys(process.env)) if (!(k in baseEnv)) delete process.env[k];
  Object.assign(process.env, baseEnv);
  const report = {
    ...result,
    wallMs: Date.now() - t0,
    cpuMs: cpuMs() - c0,
    rssMb: process.memoryUsage.rss() >> 20,
  };
  // Let the spec reporter write the file's tree before the marker.
  await new Promise((resolve) => setTimeout(resolve, 20));
  process.stdout.write(`\n${MARKER} ${JSON.stringify(report)}\n`);
}
process.exit(0);

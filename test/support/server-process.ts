// The real server as a child process, for the tests about what only a whole
// process shows: first start, shutdown, crashes, and several instances on one
// database.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** The checkout, or the compiled copy of it this module was loaded from (scripts/test-compile.mjs). */
export const SERVER_ROOT = path.resolve(import.meta.dirname, '..', '..');
/**
 * How to start src/server: as plain JavaScript (with `npm start`'s source
 * maps) when the tests run from the compiled copy, which holds src/server.js;
 * through tsx when they run from the sources.
 */
export const SERVER_ARGS = fs.existsSync(path.join(SERVER_ROOT, 'src', 'server.js'))
  ? ['--enable-source-maps', 'src/server.js']
  : ['--import', 'tsx', 'src/server.ts'];
/** How to run a CLI of src/cli (`npm run import` and the like), the same way. */
export const cliArgs = (name: string) =>
  fs.existsSync(path.join(SERVER_ROOT, 'src', 'cli', `${name}.js`))
    ? ['--enable-source-maps', `src/cli/${name}.js`]
    : ['--import', 'tsx', `src/cli/${name}.ts`];
// Generous: the machine may be busy with other runs.
// How fast start-up really is gets measured by scripts/measure-startup.mjs.
export const START_LIMIT_MS = 180_000;

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  port: number;
  /** Everything it printed so far, for failure messages and log assertions. */
  output: () => string;
  exited: Promise<number | null>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export interface StartOptions {
  /** Set over this process's environment; `undefined` removes a variable. */
  env: Record<string, string | undefined>;
  /** A fixed port (a restart on the same address); a free one otherwise. */
  port?: number;
  /** What answers 200 once it serves: /readyz by default. */
  readyPath?: string;
  /** Names the server in errors when a test starts several. */
  name?: string;
  /** Node flags before the server's own (say, an `--import` that watches it). */
  nodeArgs?: string[];
}

/** Starts the server and resolves once `readyPath` answers 200; throws with its output if it exits or stalls. */
export async function startServerProcess(opts: StartOptions): Promise<ServerProcess> {
  const port = opts.port ?? (await freePort());
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1' };
  for (const [k, v] of Object.entries(opts.env)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), ...SERVER_ARGS], {
    cwd: SERVER_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const name = opts.name ? `server ${opts.name}` : 'server';
  const deadline = Date.now() + START_LIMIT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited during start:\n${out}`);
    if ((await fetch(`${base}${opts.readyPath ?? '/readyz'}`).catch(() => null))?.status === 200) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not become ready:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, base, port, output: () => out, exited };
}

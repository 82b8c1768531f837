// What the bench needs around the server: how to start it (the flags of
// `npm start`, built or from source), its own PostgreSQL database, the bench
// admin's token, and the commit being measured.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ADMIN_EMAIL = 'admin@bench.test';
export const ADMIN_PASSWORD = 'bench-admin-password';

/** Node's flags in an npm script (the bench runs the server and the CLIs exactly as their scripts do). */
export function scriptFlags(script: string): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  return pkg.scripts[script]!.split(/\s+/).filter((w) => w.startsWith('--'));
}

/** Node's flags in `npm start`. */
export const startFlags = () => scriptFlags('start');

// Samples the server's memory by part (V8 spaces, buffers, PGlite's WASM heap) from inside.
const MEMORY_PROBE = ['--import', path.join(root, 'bench', 'memory-probe.mjs')];

/** Built JS when dist/ is at least as new as src/, else TypeScript through tsx. */
export function serverEntry(): { args: string[]; mode: 'dist' | 'tsx' } {
  const dist = path.join(root, 'dist', 'server.js');
  const newest = (dir: string): number =>
    fs.readdirSync(dir, { withFileTypes: true }).reduce((m, e) => {
      const p = path.join(dir, e.name);
      return Math.max(m, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
    }, 0);
  if (process.env['BENCH_SERVER'] !== 'tsx' && fs.existsSync(dist)) {
    if (
      process.env['BENCH_SERVER'] === 'dist' ||
      fs.statSync(dist).mtimeMs >= newest(path.join(root, 'src'))
    ) {
      return { args: [...startFlags(), ...MEMORY_PROBE, dist], mode: 'dist' };
    }
  }
  return {
    args: [...startFlags(), ...MEMORY_PROBE, '--import', 'tsx', path.join(root, 'src', 'server.ts')],
    mode: 'tsx',
  };
}

export function gitCommit(): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root })
      .toString()
      .trim();
    return dirty ? `${sha} (with uncommitted changes)` : sha;
  } catch {
    return 'unknown';
  }
}

export interface Target {
  kind: 'pglite' | 'postgres';
  /** Server-level URL from DATABASE_URL (postgres only). */
  serverUrl?: string;
}

/** A new database `name` on the server of `serverUrl` (an old one of that name is dropped first). */
export async function createBenchDatabase(
  serverUrl: string,
  name = `trackway_bench_${process.pid}`,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.query(`create database "${name}"`);
  await admin.end();
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const a = new pg.Client({ connectionString: serverUrl });
      await a.connect();
      await a.query(`drop database if exists "${name}" with (force)`);
      await a.end();
    },
  };
}

export async function login(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  });
  const body = (await res.json()) as { token?: string };
  if (!res.ok || !body.token) throw new Error(`login failed: HTTP ${res.status} ${JSON.stringify(body)}`);
  return body.token;
}

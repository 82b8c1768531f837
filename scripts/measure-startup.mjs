#!/usr/bin/env node
// Measures the time from starting the server to its first 200 on GET /api/config,
// on a new DATA_DIR (first start: creates the embedded database, migrates,
// seeds) and on that same, now existing, DATA_DIR (a restart).
// Builds nothing: run `npm run build` first. Usage: node scripts/measure-startup.mjs [runs]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const entry = path.join(root, 'dist', 'server.js');
if (!fs.existsSync(entry)) {
  console.error('dist/server.js is missing: run `npm run build` first');
  process.exit(1);
}
const runs = Number(process.argv[2] ?? 3);

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Starts the server, returns ms until the first 200 from /api/config, then stops it. */
async function timeStart(dataDir) {
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  const started = performance.now();
  const child = spawn(process.execPath, [entry], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let ms;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/config`);
      if (res.status === 200) {
        ms = performance.now() - started;
        break;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  child.kill('SIGTERM');
  await exited;
  return ms;
}

const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fresh = [];
const existing = [];
for (let i = 0; i < runs; i++) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trackway-startup-'));
  try {
    fresh.push(await timeStart(dataDir));
    existing.push(await timeStart(dataDir));
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
console.log(
  `node ${process.version}, ${os.cpus().length} CPUs, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log(`new DATA_DIR:      median ${fmt(median(fresh))}  (runs: ${fresh.map(fmt).join(', ')})`);
console.log(`existing DATA_DIR: median ${fmt(median(existing))}  (runs: ${existing.map(fmt).join(', ')})`);

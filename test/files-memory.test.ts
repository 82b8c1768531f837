// Uploading 25 MB must not hold the file in the server's memory. Starts the
// real server in a child process, streams 25 MB to POST /api/files through a
// real socket, and samples the child's resident set size (VmRSS from /proc)
// before, during and after. Linux only (skipped elsewhere).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { freshDatabase, type TestDatabase } from './support/database.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './support/env.js';

const MAX = 26_214_400;
const MiB = 1024 * 1024;
const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

async function rssOf(pid: number): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]);
  return kb * 1024;
}

async function json(base: string, method: string, p: string, body?: unknown, token?: string) {
  const res = await fetch(`${base}${p}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** Streams `size` bytes with a Content-Length, 64 KiB at a time, as a client would from disk. */
function streamUpload(base: string, token: string, size: number) {
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = http.request(
      `${base}/api/files`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/octet-stream',
          'content-length': String(size),
          'x-filename': 'big.bin',
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    const chunk = Buffer.alloc(64 * 1024, 0xab);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        const n = Math.min(chunk.length, size - sent);
        sent += n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

test('a 25 MB upload grows the server RSS by far less than 25 MB', {
  skip: process.platform !== 'linux',
}, async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'trackway-memory-'));
  cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
  let database: TestDatabase | undefined;
  if (process.env['DATABASE_URL']) {
    database = await freshDatabase();
    // The child opens its own pool on the copy; ours is not needed.
    cleanups.push(() => database!.close());
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: base,
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      DATABASE_URL: database?.url ?? '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  cleanups.push(async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  });

  for (let i = 0; ; i++) {
    const ok = await fetch(`${base}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    assert.ok(i < 600 && child.exitCode === null, 'server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  const login = await json(base, 'POST', '/api/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  assert.equal(login.status, 200);
  const token = login.body.token as string;

  // Warm up the code paths (parsers, storage, database) with a few small uploads.
  for (let i = 0; i < 5; i++) assert.equal((await streamUpload(base, token, 256 * 1024)).status, 201);
  await new Promise((r) => setTimeout(r, 300));
  const baseline = await rssOf(child.pid!);

  let peak = baseline;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await rssOf(child.pid!));
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  const res = await streamUpload(base, token, MAX);
  sampling = false;
  await sampler;
  const afterRss = await rssOf(child.pid!);

  assert.equal(res.status, 201, JSON.stringify(res.body));
  assert.equal(res.body.file.size, MAX);
  const growth = peak - baseline;
  console.log(
    `# upload memory: baseline ${(baseline / MiB).toFixed(1)} MiB, peak ${(peak / MiB).toFixed(1)} MiB, ` +
      `after ${(afterRss / MiB).toFixed(1)} MiB, peak growth ${(growth / MiB).toFixed(1)} MiB for a 25 MiB upload`,
  );
  // Buffering the body would add at least 25 MiB; streaming needs a few socket and stream buffers.
  assert.ok(growth < 12 * MiB, `RSS grew by ${(growth / MiB).toFixed(1)} MiB`);
});

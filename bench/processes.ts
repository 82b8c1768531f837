// Child processes under test (our server, the PostGraphile peer) and their
// memory, sampled from /proc the way `top` sees it.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export interface Rss {
  /** Largest VmRSS seen by the sampler, MB. */
  peakSampledMb: number;
  /** The kernel's own high-water mark (VmHWM) at the last sample, MB. */
  hwmMb: number;
  lastMb: number;
}

export interface Child {
  proc: ChildProcess;
  url: string;
  rss(): Rss;
  stop(): Promise<Rss>;
  output(): string;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

function readStatusKb(pid: number, field: string): number | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

export interface StartOptions {
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  port: number;
  /** Polled until it resolves true. */
  ready: (url: string) => Promise<boolean>;
  timeoutMs?: number;
}

/** Starts `node <args>` and waits until it is ready; samples RSS every 200 ms. */
export async function startChild(opts: StartOptions): Promise<Child> {
  const proc = spawn(process.execPath, opts.args, {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (b: Buffer) => {
    out = (out + b.toString()).slice(-20_000);
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  const rss: Rss = { peakSampledMb: 0, hwmMb: 0, lastMb: 0 };
  const sample = () => {
    if (!proc.pid) return;
    const now = readStatusKb(proc.pid, 'VmRSS');
    const hwm = readStatusKb(proc.pid, 'VmHWM');
    if (now !== undefined) {
      rss.lastMb = Math.round(now / 102.4) / 10;
      rss.peakSampledMb = Math.max(rss.peakSampledMb, rss.lastMb);
    }
    if (hwm !== undefined) rss.hwmMb = Math.round(hwm / 102.4) / 10;
  };
  const timer = setInterval(sample, 200);
  let exited = false;
  const exitPromise = new Promise<void>((resolve) =>
    proc.on('exit', () => {
      exited = true;
      resolve();
    }),
  );

  const url = `http://127.0.0.1:${opts.port}`;
  const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
  for (;;) {
    if (exited) {
      clearInterval(timer);
      throw new Error(
        `${path.basename(opts.args.at(-1) ?? 'child')} exited during start-up:\n${out.slice(-3000)}`,
      );
    }
    try {
      if (await opts.ready(url)) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      clearInterval(timer);
      proc.kill('SIGKILL');
      throw new Error(`child did not become ready in time:\n${out.slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  sample();

  return {
    proc,
    url,
    rss: () => ({ ...rss }),
    output: () => out,
    async stop() {
      sample();
      clearInterval(timer);
      if (!exited) {
        proc.kill('SIGTERM');
        const killer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
        await exitPromise;
        clearTimeout(killer);
      }
      return { ...rss };
    },
  };
}

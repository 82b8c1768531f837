// Reads the samples bench/memory-probe.mjs writes inside the server: for a time
// window, the largest value of each part, and the whole breakdown at the
// moment the resident set was largest.
import fs from 'node:fs';

export interface MemorySample {
  t: number;
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  wasm: number;
  newSpace: number;
  oldSpace: number;
  codeSpace: number;
  largeObjectSpace: number;
}

export interface MemoryWindow {
  samples: number;
  /** Largest value of each part over the window, MB. */
  max: Omit<MemorySample, 't'>;
  /** Every part at the sample with the largest RSS, MB. */
  atRssPeak: Omit<MemorySample, 't'>;
}

export function readSamples(file: string): MemorySample[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as MemorySample);
}

export function memoryWindow(file: string, from: number, to = Date.now()): MemoryWindow | undefined {
  const inside = readSamples(file).filter((s) => s.t >= from && s.t <= to);
  if (!inside.length) return undefined;
  const { t: _t, ...first } = inside[0]!;
  const max = { ...first };
  let peak = inside[0]!;
  for (const s of inside) {
    for (const k of Object.keys(max) as (keyof typeof max)[]) max[k] = Math.max(max[k], s[k]);
    if (s.rss > peak.rss) peak = s;
  }
  const { t: _pt, ...atRssPeak } = peak;
  return { samples: inside.length, max, atRssPeak };
}

// test-runner: any database
// The fast timestamptz reader agrees with the general one on every shape.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { timestamptzParser } from './timestamps.js';

const general = pg.types.getTypeParser(1184, 'text') as (s: string) => Date;
let fallbacks = 0;
const fast = timestamptzParser((s) => {
  fallbacks++;
  return general(s);
});

test('reads UTC timestamps exactly as the general parser does, at every fraction length', () => {
  const samples = [
    '2026-11-21 22:19:30+00',
    '2026-11-21 22:19:30.1+00',
    '2026-11-21 22:19:30.12+00',
    '2026-11-21 22:19:30.123+00',
    '2026-11-21 22:19:30.1234+00',
    '2026-11-21 22:19:30.123456+00',
    '2024-02-29 00:00:00.999999+00',
    '1999-12-31 23:59:59.000001+00',
  ];
  for (let i = 0; i < 2000; i++) {
    const d = new Date(
      Date.UTC(1970 + (i % 90), i % 12, 1 + (i % 28), i % 24, i % 60, (i * 7) % 60, i % 1000),
    );
    const micro = String(i % 1000).padStart(3, '0');
    samples.push(
      `${d.toISOString().slice(0, 19).replace('T', ' ')}.${String(d.getUTCMilliseconds()).padStart(3, '0')}${micro}+00`,
    );
  }
  fallbacks = 0;
  for (const s of samples) assert.equal((fast(s) as Date).getTime(), general(s).getTime(), s);
  assert.equal(fallbacks, 0);
});

test('hands every other shape to the general parser', () => {
  fallbacks = 0;
  for (const s of [
    '2026-11-21 22:19:30.123456+01',
    '2026-11-21 22:19:30-03:30',
    '0044-03-15 12:00:00+00 BC',
    '0099-01-01 00:00:00+00',
    'infinity',
    '-infinity',
    '2026-11-21T22:19:30Z',
  ]) {
    const a = fast(s);
    const b = general(s);
    assert.equal(a instanceof Date ? a.getTime() : a, b instanceof Date ? b.getTime() : b, s);
  }
  assert.equal(fallbacks, 7);
});

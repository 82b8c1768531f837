// test-runner: any database
// Bounds on the document's shape (before validation) and on the answer's size.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'graphql';
import { AppError } from '../platform/errors.js';
import { assertDocumentShape, MAX_ALIASES } from './document-limits.js';
import { MAX_RESPONSE_BYTES, serialiseWithin } from './response-size.js';

const aliases = (field: string, n: number) =>
  Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ');

test('one field under more than 20 aliases in a selection set is refused before validation', () => {
  assert.doesNotThrow(() =>
    assertDocumentShape(parse(`{ ${aliases('__schema { types { name } }', MAX_ALIASES)} }`)),
  );
  assert.doesNotThrow(() =>
    assertDocumentShape(parse(`{ viewer { ${aliases('id', MAX_ALIASES)} name email } }`)),
  );
  for (const q of [
    `{ ${aliases('__schema { types { name } }', MAX_ALIASES + 1)} }`,
    `{ viewer { ${aliases('id', 2600)} } }`,
    // Nested, and inside a fragment: every selection set counts.
    `{ viewer { ...U } } fragment U on User { assignedIssues { nodes { ${aliases('title', 21)} } } }`,
  ]) {
    assert.throws(
      () => assertDocumentShape(parse(q)),
      (e: unknown) =>
        e instanceof AppError &&
        e.code === 'QUERY_TOO_COMPLEX' &&
        /selected more than 20 times/.test(e.message),
    );
  }
});

test('an answer is serialised when it fits, refused when its UTF-8 JSON is over the limit', () => {
  const body = { data: { a: 'x"y', n: [1, null, true], o: { k: 'é' } } };
  assert.equal(serialiseWithin(body, 1000), JSON.stringify(body));
  const text = JSON.stringify(body);
  assert.equal(serialiseWithin(body, Buffer.byteLength(text)), text, 'exactly at the limit');
  assert.equal(serialiseWithin(body, Buffer.byteLength(text) - 1), undefined);
  // 600 characters but 1,200 bytes: bytes decide.
  assert.equal(serialiseWithin({ s: 'é'.repeat(600) }, 1000), undefined);
  // Escapes count too: 400 quotes are 800 characters of JSON.
  assert.equal(serialiseWithin({ s: '"'.repeat(400) }, 600), undefined);
  assert.equal(MAX_RESPONSE_BYTES, 5 * 1024 * 1024);
});

test('a huge answer is refused after reading a small part of it', () => {
  let read = 0;
  const row = () => ({
    get title() {
      read += 1;
      return 'a title of some length';
    },
  });
  const big = { data: { issues: { nodes: Array.from({ length: 100_000 }, row) } } };
  assert.equal(serialiseWithin(big, 10_000), undefined);
  assert.ok(read < 1_000, `read ${read} of 100,000 titles`);
});

// test-runner: any database
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { checkInput } from '../modules/issues/inputs.js';
import { OneLineText } from './http/schemas.js';
import { isOneLine, toOneLine } from './one-line.js';

const BREAKS = ['\n', '\r', '\r\n', '\u2028', '\u2029', '\u0085', '\t', '\u0000', '\u007f'];
/** Any code points, with breaks, blanks and letters common enough to meet each other. */
const anyText = fc.string({
  unit: fc.oneof(
    fc.constantFrom(...BREAKS, ' ', 'a', '-'),
    // Any code point but a lone surrogate half, drawn as a number: `unit: 'binary'` would first
    // build a map of all 1.1 million code points (a CPU-second in this process).
    fc
      .integer({ min: 0, max: 0x10ffff })
      .filter((n) => n < 0xd800 || n > 0xdfff)
      .map((n) => String.fromCodePoint(n)),
  ),
  maxLength: 60,
});

test('toOneLine always yields one line, and leaves one-line text as it is (but for outer blanks)', () => {
  fc.assert(
    fc.property(anyText, (text) => {
      const flat = toOneLine(text);
      assert.ok(isOneLine(flat), JSON.stringify(flat));
      if (isOneLine(text)) assert.equal(flat, text.trim());
    }),
  );
});

test('the one-line schema refuses exactly what isOneLine refuses (one rule for REST, GraphQL and services)', () => {
  const schema = OneLineText(100, { allowBlank: true });
  fc.assert(
    fc.property(anyText, (text) => {
      let accepted = true;
      try {
        checkInput(schema, text);
      } catch {
        accepted = false;
      }
      assert.equal(accepted, isOneLine(text), JSON.stringify(text));
    }),
  );
});

test('every kind of break is refused wherever it stands', () => {
  fc.assert(
    fc.property(fc.string(), fc.constantFrom(...BREAKS), fc.string(), (a, brk, b) => {
      assert.equal(isOneLine(`${a}${brk}${b}`), false);
    }),
  );
});

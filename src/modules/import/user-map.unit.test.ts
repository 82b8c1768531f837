// The CLI's --user-map file (user-map.ts): JSON and CSV say the same thing,
// a header row is optional, and any text is either a map or an
// ImportInputError naming the file, never another error.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { ImportInputError } from './model.js';
import { parseUserMapFile } from './user-map.js';

const email = fc
  .tuple(fc.stringMatching(/^[a-z0-9._+-]{1,20}$/), fc.stringMatching(/^[a-z0-9-]{1,15}\.[a-z]{2,6}$/))
  .map(([local, domain]) => `${local}@${domain}`);
const target = fc.oneof(email, fc.uuid());
/** Source emails as a source may spell them (any case), each once whatever its case. */
const map = fc
  .uniqueArray(fc.tuple(email, target, fc.boolean()), {
    minLength: 1,
    maxLength: 30,
    selector: ([from]) => from,
  })
  .map((rows) => rows.map(([from, to, upper]) => [upper ? from.toUpperCase() : from, to] as const));
const csvCell = (s: string) => (/[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);

describe('--user-map files', () => {
  test('a JSON object and a CSV with or without a header give the same map, source emails lower-cased', () => {
    fc.assert(
      fc.property(map, fc.boolean(), (rows, header) => {
        const expected = Object.fromEntries(rows.map(([from, to]) => [from.toLowerCase(), to]));
        const json = parseUserMapFile('people.json', JSON.stringify(Object.fromEntries(rows)));
        const csv = parseUserMapFile(
          'people.csv',
          `${header ? 'source email,trackway email\r\n' : ''}${rows.map((r) => r.map(csvCell).join(',')).join('\r\n')}\n`,
        );
        assert.deepEqual(json, expected);
        assert.deepEqual(csv, expected);
      }),
    );
  });

  test('any text is a map or an ImportInputError naming the file', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('m.json', 'm.csv', 'm.txt'),
        fc.string({ maxLength: 200 }),
        (name, text) => {
          try {
            const parsed = parseUserMapFile(name, text);
            for (const [from, to] of Object.entries(parsed)) {
              assert.equal(from, from.toLowerCase());
              assert.ok(from.includes('@') && to.length > 0);
            }
          } catch (err) {
            assert.ok(err instanceof ImportInputError, String(err));
            assert.ok(err.message.startsWith(name), err.message);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  test('refusals say where', () => {
    const refused = (name: string, text: string, pattern: RegExp) =>
      assert.throws(
        () => parseUserMapFile(name, text),
        (err: Error) => {
          assert.ok(err instanceof ImportInputError);
          assert.match(err.message, pattern);
          return true;
        },
      );
    refused('m.json', '["a@b.c"]', /JSON object/);
    refused('m.json', '{"a@b.c": 3}', /must be a string/);
    refused('m.json', '{"a@b.c": "nobody"}', /neither an email nor an account id/);
    refused('m.json', '{}', /no one to map/);
    refused('m.csv', 'from,to\na@b.c,x@y.z,extra\n', /row 2: two columns/);
    refused('m.csv', 'a@b.c,x@y.z\nA@B.C,other@y.z\n', /row 2: a@b.c is mapped twice/);
    refused('m.csv', 'not-an-email,x@y.z\n', /row 1: "not-an-email" is not an email/);
    refused('m.csv', 'a@b.c,"unclosed\n', /^m\.csv: /);
  });
});

// test-runner: any database
// The magic words (modules/git/words.ts): every closing word closes, every
// reference word only links, in any case and with or without a colon, over
// lists of identifiers; identifiers in branch names are found; random text
// never throws and never yields more than the cap.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { CLOSING_WORDS, findReferences, MAX_REFERENCES, REFERENCE_WORDS } from '../src/modules/git/words.js';

describe('magic words', () => {
  test('the closing and reference words are the tracker-compatible lists', () => {
    assert.equal(CLOSING_WORDS.length, 20);
    for (const stem of ['close', 'fix', 'resolve', 'complete', 'implement']) {
      const forms = CLOSING_WORDS.filter((w) => w.startsWith(stem.replace(/e$/, '')));
      assert.equal(forms.length, 4, stem);
    }
    assert.deepEqual(
      [...REFERENCE_WORDS],
      ['ref', 'refs', 'references', 'part of', 'related to', 'contributes to', 'toward', 'towards'],
    );
  });

  for (const word of CLOSING_WORDS) {
    test(`"${word}" closes`, () => {
      for (const text of [
        `${word} ENG-12`,
        `${word.toUpperCase()}: eng-12`,
        `Some text.\n\n${word} ENG-12 and more`,
      ]) {
        assert.deepEqual([...findReferences([text])], [['ENG-12', 'closes']], text);
      }
    });
  }
  for (const word of REFERENCE_WORDS) {
    test(`"${word}" only links`, () => {
      for (const text of [`${word} ENG-12`, `${word[0]!.toUpperCase()}${word.slice(1)}: ENG-12`]) {
        assert.deepEqual([...findReferences([text])], [['ENG-12', 'ref']], text);
      }
    });
  }

  test('lists after a word, several issues, the closing way winning over a reference', () => {
    const found = findReferences(['Fixes ENG-1, ENG-2 and ENG-3', 'Related to OPS-4 & OPS-5; refs ENG-1']);
    assert.deepEqual(Object.fromEntries(found), {
      'ENG-1': 'closes',
      'ENG-2': 'closes',
      'ENG-3': 'closes',
      'OPS-4': 'ref',
      'OPS-5': 'ref',
    });
  });

  test('branch names in any case and shape; bare identifiers close', () => {
    for (const branch of ['eng-123-fix-login', 'feature/ENG-123', 'alice/eng-123_thing', 'ENG-123']) {
      assert.deepEqual([...findReferences([branch])], [['ENG-123', 'closes']], branch);
    }
    assert.deepEqual([...findReferences(['version v2-3-4 and 12-34'])].length, 0);
  });

  test('random text never throws and stays under the cap', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.string({ maxLength: 2000 })), { maxLength: 5 }), (texts) => {
        const found = findReferences(texts);
        assert.ok(found.size <= MAX_REFERENCES);
        for (const [id, kind] of found) {
          assert.match(id, /^[A-Z][A-Z0-9]{0,6}-\d+$/);
          assert.ok(kind === 'closes' || kind === 'ref');
        }
      }),
    );
    const many = Array.from({ length: 200 }, (_, i) => `ENG-${i + 1}`).join(' ');
    assert.equal(findReferences([many]).size, MAX_REFERENCES);
  });
});

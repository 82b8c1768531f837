// test-runner: any database
// The avatar rule of the web UI (web/src/lib/avatar.ts, issue 26): initials
// and a colour that depend on the person alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { AVATAR_COLOURS, avatarColour, initials } from '../web/src/lib/avatar.js';

test('initials: the first and last words’ first letters, upper-cased', () => {
  assert.equal(initials('Ann Lee'), 'AL');
  assert.equal(initials('Alex  van der Ward'), 'AW');
  assert.equal(initials('kay'), 'K');
  assert.equal(initials('  '), '?');
  // A letter outside the Basic Multilingual Plane stays whole.
  assert.equal(initials('𝒜da Ng'), '𝒜N');
});

test('any name gives one or two characters; any id the same colour every time, one of eight', () => {
  fc.assert(
    fc.property(fc.string(), fc.uuid(), (name, id) => {
      const got = [...initials(name)];
      assert.ok(got.length >= 1 && got.length <= 2, JSON.stringify(name));
      const colour = avatarColour(id);
      assert.equal(colour, avatarColour(id));
      assert.ok(Number.isInteger(colour) && colour >= 0 && colour < AVATAR_COLOURS);
    }),
  );
});

test('colours spread: 800 ids fill all eight, none with more than a fifth', () => {
  const counts = new Array<number>(AVATAR_COLOURS).fill(0);
  for (let i = 0; i < 800; i++) counts[avatarColour(crypto.randomUUID())]!++;
  assert.ok(
    counts.every((c) => c > 0 && c < 160),
    JSON.stringify(counts),
  );
});

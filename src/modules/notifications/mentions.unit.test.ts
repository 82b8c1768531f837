// test-runner: any database
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mentionedNames, newMentions } from './mentions.js';

test('mentions: names lower-cased, distinct, in order', () => {
  assert.deepEqual(mentionedNames('Hi @Alice and @bob, @ALICE again'), ['alice', 'bob']);
  assert.deepEqual(mentionedNames('(@zoë) @x.y-z_1.'), ['zoë', 'x.y-z_1']);
  assert.deepEqual(mentionedNames(''), []);
  assert.deepEqual(mentionedNames(null), []);
});

test('mentions: an email address, @@, a trailing dot or a lone @ is not one', () => {
  assert.deepEqual(mentionedNames('mail bob@example.com or @@carol or @ or @.'), []);
  assert.deepEqual(mentionedNames('end @dave.'), ['dave']);
});

test('mentions: code and URLs are not mentions', () => {
  const text = [
    'see `@inline` and https://example.com/@handle',
    '```',
    '@fenced',
    '```',
    'but @real is',
  ].join('\n');
  assert.deepEqual(mentionedNames(text), ['real']);
});

test('newMentions: only names the edit adds', () => {
  assert.deepEqual(newMentions('@a @b', '@B @c @a'), ['c']);
  assert.deepEqual(newMentions(null, '@a'), ['a']);
  assert.deepEqual(newMentions('@a', 'nothing'), []);
});

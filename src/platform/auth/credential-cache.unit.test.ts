// test-runner: any database
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CredentialCache } from './credential-cache.js';

const ready = () => {
  const cache = new CredentialCache<string>();
  cache.connected();
  return cache;
};

describe('CredentialCache', () => {
  test('remembers nothing until its listener is connected, and nothing once it is lost', () => {
    const cache = new CredentialCache<string>();
    cache.set('user:a', 'a', 'row', cache.generation());
    assert.equal(cache.get('user:a'), undefined);
    cache.connected();
    cache.set('user:a', 'a', 'row', cache.generation());
    assert.equal(cache.get('user:a'), 'row');
    cache.disconnected();
    assert.equal(cache.get('user:a'), undefined);
    cache.set('user:a', 'a', 'row', cache.generation());
    assert.equal(cache.size, 0);
  });

  test('a notification forgets every credential of its user, and only theirs', () => {
    const cache = ready();
    cache.set('user:a', 'a', 'token of a', cache.generation());
    cache.set('key:1', 'a', 'key of a', cache.generation());
    cache.set('user:b', 'b', 'token of b', cache.generation());
    cache.notified('a');
    assert.equal(cache.get('user:a'), undefined);
    assert.equal(cache.get('key:1'), undefined);
    assert.equal(cache.get('user:b'), 'token of b');
  });

  test('a read that began before a forget of its user is not remembered', () => {
    const cache = ready();
    const readAt = cache.generation();
    cache.forget('a'); // a change committed while the read was in flight
    cache.set('user:a', 'a', 'old row', readAt);
    assert.equal(cache.get('user:a'), undefined);
    cache.set('user:a', 'a', 'new row', cache.generation());
    assert.equal(cache.get('user:a'), 'new row');
  });

  test('a reconnection starts from nothing, and older reads stay out', () => {
    const cache = ready();
    cache.set('user:a', 'a', 'row', cache.generation());
    const readAt = cache.generation();
    cache.notified(); // reconnected: what was sent meanwhile is lost
    assert.equal(cache.get('user:a'), undefined);
    cache.set('user:b', 'b', 'old row', readAt);
    assert.equal(cache.get('user:b'), undefined);
  });

  test('entries expire', () => {
    let now = 0;
    const cache = new CredentialCache<string>(() => now);
    cache.connected();
    cache.set('user:a', 'a', 'row', cache.generation());
    now += 5 * 60_000;
    assert.equal(cache.get('user:a'), undefined);
  });
});

// Preloaded into each test worker (scripts/test.mjs). node:test's harness keeps
// an async hook that maps every async resource, every promise included, to the
// test it belongs to: that is how a test() called after an await finds its
// suite, and how an uncaught error names its test. The hook also has a destroy
// callback, only to forget finished resources, and a destroy callback makes
// Node track every promise until the collector frees it: about as dear again
// as the mapping itself (registerDestroyHook, and the collector's extra work).
// Here the harness's hook is made without it, and the worker forgets a file's
// resources at once when the file has ended (forgetFileResources).
import asyncHooks from 'node:async_hooks';

const createHook = asyncHooks.createHook;
/** The harness's own callbacks, once it has made its hook. */
let harness;

asyncHooks.createHook = function withoutHarnessDestroy(callbacks) {
  if (!harness && new Error().stack?.includes('internal/test_runner/harness')) {
    asyncHooks.createHook = createHook;
    harness = callbacks;
    return createHook.call(this, { init: callbacks.init });
  }
  return createHook.call(this, callbacks);
};

/** The newest async id so far: async ids only grow. */
export const newestAsyncId = () => new asyncHooks.AsyncResource('trackway-test-mark').asyncId();

/** Forgets every async resource made since `fromId`, as the harness's destroy would have one by one. */
export function forgetResourcesSince(fromId) {
  if (!harness) return;
  const to = newestAsyncId();
  for (let id = fromId; id < to; id++) harness.destroy(id);
}

// A tiny query cache: data already loaded shows at once (no spinner) and is
// refreshed in the background; mutations invalidate keys by prefix.
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';

interface Entry {
  data?: unknown;
  error?: Error;
  promise?: Promise<void>;
  fetchedAt: number;
}

const entries = new Map<string, Entry>();
const listeners = new Set<() => void>();
let version = 0;
const notify = () => {
  version++;
  for (const l of listeners) l();
};
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

function load(key: string, fetcher: () => Promise<unknown>) {
  const entry = entries.get(key) ?? { fetchedAt: 0 };
  if (entry.promise) return entry.promise;
  entry.promise = fetcher()
    .then((data) => {
      entries.set(key, { data, fetchedAt: Date.now() });
    })
    .catch((error: Error) => {
      entries.set(key, { ...entry, error, promise: undefined, fetchedAt: Date.now() });
    })
    .finally(notify);
  entries.set(key, entry);
  return entry.promise;
}

export function invalidate(prefix: string) {
  for (const [key, e] of entries) if (key.startsWith(prefix)) e.fetchedAt = 0;
  notify();
}

/** Replaces cached data in place (optimistic updates). */
export function mutateCache<T>(key: string, fn: (old: T) => T) {
  const e = entries.get(key);
  if (e && e.data !== undefined) {
    e.data = fn(e.data as T);
    notify();
  }
}

export function readCache<T>(key: string): T | undefined {
  return entries.get(key)?.data as T | undefined;
}

export interface Query<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  reload: () => void;
}

export function useQuery<T>(key: string | null, fetcher: () => Promise<T>): Query<T> {
  useSyncExternalStore(subscribe, () => version);
  const [, force] = useState(0);
  const entry = key ? entries.get(key) : undefined;
  const stale = key !== null && (!entry || entry.fetchedAt === 0) && !entry?.promise;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key identifies the fetcher
  useEffect(() => {
    if (key && stale) void load(key, fetcher);
  }, [key, stale]);
  const reload = useCallback(() => {
    if (!key) return;
    const e = entries.get(key);
    if (e) e.fetchedAt = 0;
    force((n) => n + 1);
    notify();
  }, [key]);
  return {
    data: entry?.data as T | undefined,
    error: entry?.data === undefined ? entry?.error : undefined,
    loading: key !== null && entry?.data === undefined && !entry?.error,
    reload,
  };
}

// The one query cache (TanStack Query) every screen reads through: data already
// loaded shows at once and refreshes in the background; mutations invalidate
// by key prefix or patch the cache optimistically and roll back on failure.
import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { ApiError } from './api';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // A refusal will be refused again; only a lost connection is worth retrying.
      retry: (count, error) => error instanceof ApiError && error.code === 'NETWORK' && count < 3,
    },
    // A write runs even while the server is away: one that may wait is kept by lib/write-queue.ts,
    // any other fails at once and says so, rather than hanging paused.
    mutations: { retry: false, networkMode: 'always' },
  },
});

/** Marks every query under `key` (one of lib/query-keys.ts) stale; the ones on screen refetch at once. */
export const invalidate = (key: QueryKey) => queryClient.invalidateQueries({ queryKey: key });

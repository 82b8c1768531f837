// A write started by a form or a button, through TanStack Query's useMutation:
// whether it is running, its error and whether it saved come from the mutation
// itself, so no form keeps busy/error flags of its own. A write may show its
// result before the server answers (`optimistic`: the cached data as it will
// be), and is rolled back if refused. Writes that change many lists at once
// (issue fields, the inbox) patch the cache in their own mutations
// (lib/issues.ts, lib/notifications.ts).
import { type QueryKey, useMutation } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { invalidate, queryClient } from './query';
import { isQueued } from './write-queue';

/** What a write kept to send later (lib/write-queue.ts) resolves to instead of the server's answer. */
const QUEUED = Symbol('queued');

interface ActionOptions<V, R, D> {
  /** Keys (lib/query-keys.ts) read again once the write is over, saved or refused: what shows is what the server has. */
  refreshes?: readonly QueryKey[];
  /**
   * Shows the write at once: `apply` turns the data cached under `key` into
   * what it will be after the write. The data is put back if the server
   * refuses, and `key` is read again either way.
   */
  optimistic?: { key: QueryKey; apply: (data: D, input: V) => D };
  onSuccess?: (result: R, input: V) => void;
  onError?: (error: unknown, input: V) => void;
  /**
   * The server could not be reached and the write waits to be sent (lib/write-queue.ts): the
   * optimistic change stays. Without it, such a write is treated as done with no answer.
   */
  onQueued?: (input: V) => void;
}

export function useAction<V = void, R = unknown, D = unknown>(
  write: (input: V) => Promise<R>,
  opts: ActionOptions<V, R, D> = {},
) {
  const optimistic = opts.optimistic;
  const m = useMutation<R | typeof QUEUED, unknown, V, { before: D | undefined }>({
    // Sent at once even while offline: a write that cannot go waits in lib/write-queue.ts, not here.
    networkMode: 'always',
    mutationFn: (input) =>
      write(input).catch((e: unknown) => {
        if (isQueued(e)) return QUEUED;
        throw e;
      }),
    onMutate: async (input) => {
      if (!optimistic) return { before: undefined };
      // A read in flight would land after the patch and undo it.
      await queryClient.cancelQueries({ queryKey: optimistic.key, exact: true });
      const before = queryClient.getQueryData<D>(optimistic.key);
      if (before !== undefined) queryClient.setQueryData<D>(optimistic.key, optimistic.apply(before, input));
      return { before };
    },
    onSuccess: (result, input) =>
      result === QUEUED ? opts.onQueued?.(input) : opts.onSuccess?.(result as R, input),
    onError: (error, input, context) => {
      if (optimistic && context?.before !== undefined)
        queryClient.setQueryData(optimistic.key, context.before);
      opts.onError?.(error, input);
    },
    onSettled: () => {
      if (optimistic) void invalidate(optimistic.key);
      for (const key of opts.refreshes ?? []) void invalidate(key);
    },
  });
  return {
    busy: m.isPending,
    error: m.error,
    saved: m.isSuccess,
    /** What the last write was given: tells which row an error belongs to. */
    input: m.variables,
    /** Starts the write; true once it succeeded (its error is in `error`). */
    run: (input: V): Promise<boolean> =>
      m.mutateAsync(input).then(
        () => true,
        () => false,
      ),
    /** A form's onSubmit, for writes that take no input. */
    submit: (e?: FormEvent) => {
      e?.preventDefault();
      m.mutate(undefined as V);
    },
    reset: m.reset,
  };
}

/** The error of a per-row action, if it belongs to the row `id` (the action's input or its `id`). */
export function rowError(action: { error: unknown; input: unknown }, id: string): unknown {
  const input = action.input as { id?: unknown } | string | undefined;
  const of = typeof input === 'object' && input ? input.id : input;
  return of === id ? action.error : null;
}

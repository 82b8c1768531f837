// A write started by a form or a button, through TanStack Query's useMutation:
// whether it is running, its error and whether it saved come from the mutation
// itself, so no form keeps busy/error flags of its own. Writes that change what
// a list shows at once (issue fields, the inbox) patch the cache in their own
// mutations (lib/issues.ts, lib/notifications.ts); these refresh what they name.
import { type QueryKey, useMutation } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { invalidate } from './query';

interface ActionOptions<V, R> {
  /** Keys (lib/query-keys.ts) read again once the write is over, saved or refused: what shows is what the server has. */
  refreshes?: readonly QueryKey[];
  onSuccess?: (result: R, input: V) => void;
}

export function useAction<V = void, R = unknown>(
  write: (input: V) => Promise<R>,
  opts: ActionOptions<V, R> = {},
) {
  const m = useMutation<R, unknown, V>({
    mutationFn: write,
    onSuccess: (result, input) => opts.onSuccess?.(result, input),
    onSettled: () => {
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

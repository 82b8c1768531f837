// Issue priorities: their values and names, one vocabulary for the server
// (`priorityLabel` over REST and GraphQL) and the web UI, which imports this
// file as it is (so it must stay free of imports). In the order people pick
// from; the value is the third-party schema's (0 none, 1 urgent ... 4 low).
export const PRIORITIES = [
  { value: 0, label: 'No priority' },
  { value: 1, label: 'Urgent' },
  { value: 2, label: 'High' },
  { value: 3, label: 'Medium' },
  { value: 4, label: 'Low' },
] as const;

export type Priority = (typeof PRIORITIES)[number]['value'];

/** Names by value (`PRIORITY_LABELS[2]` is 'High'). */
export const PRIORITY_LABELS: readonly string[] = PRIORITIES.map((p) => p.label);

export const priorityLabel = (p: number): string => PRIORITY_LABELS[p] ?? PRIORITIES[0].label;

export const isPriority = (p: unknown): p is Priority => PRIORITIES.some((x) => x.value === p);

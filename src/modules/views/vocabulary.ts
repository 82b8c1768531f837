// The words a saved view's display settings are made of: how its issues are
// grouped and ordered and which properties each row shows. One vocabulary for
// the server (display.ts builds the REST schema and the service's check from
// it) and the web UI, which imports this file as it is (so it must stay free
// of imports). Lists are in the order the UI offers them.

export const GROUPS = ['state', 'assignee', 'project', 'priority', 'cycle', 'team', 'label', 'none'] as const;
/** The sorts the REST issue list offers, so a view opens with one request. */
export const ORDERS = ['createdAt', 'updatedAt', 'priority', 'dueDate'] as const;
export const DIRECTIONS = ['asc', 'desc'] as const;
export const PROPERTIES = [
  'identifier',
  'state',
  'priority',
  'assignee',
  'labels',
  'project',
  'milestone',
  'cycle',
  'dueDate',
  'estimate',
  'createdAt',
  'updatedAt',
] as const;

export type Group = (typeof GROUPS)[number];
export type SortOrder = (typeof ORDERS)[number];
export type Direction = (typeof DIRECTIONS)[number];
export type ShownProperty = (typeof PROPERTIES)[number];

export interface Display {
  group?: Group;
  order?: SortOrder;
  direction?: Direction;
  properties?: ShownProperty[];
  showSubIssues?: boolean;
  showArchived?: boolean;
}

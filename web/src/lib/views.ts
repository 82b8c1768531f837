// Saved views (REST /api/views, docs/API.md "Saved views"): a name, an issue
// filter any client can read (filterData is a GraphQL IssueFilter), and how our
// list shows it (display). Personal views are their owner's; shared ones are
// everyone's who sees their team.
import { useQuery } from '@tanstack/react-query';
import type { IssueFilter } from '../gql/graphql';
import { api } from './api';
import { invalidate } from './query';
import { type Grouping, type Order, PROPERTIES, type Property, type View } from './view';

export interface SavedView {
  id: string;
  name: string;
  description: string | null;
  filterData: IssueFilter;
  display: Display;
  shared: boolean;
  ownerId: string;
  teamId: string | null;
}
interface Display {
  group?: Grouping;
  order?: 'createdAt' | 'updatedAt' | 'priority' | 'dueDate';
  properties?: string[];
}

// Our list's words and the stored ones differ where the API's sort names do.
const ORDER_TO: Partial<Record<Order, Display['order']>> = {
  updated: 'updatedAt',
  created: 'createdAt',
  priority: 'priority',
  due: 'dueDate',
};
const PROPERTY_TO: Record<Property, string> = {
  priority: 'priority',
  id: 'identifier',
  state: 'state',
  labels: 'labels',
  project: 'project',
  due: 'dueDate',
  created: 'createdAt',
  assignee: 'assignee',
};

/** The display settings of a list view, as a saved view stores them. */
export function toDisplay(v: View): Display {
  const order = v.order ? ORDER_TO[v.order] : undefined;
  return {
    ...(v.group && { group: v.group }),
    ...(order && { order }),
    ...(v.show !== undefined && { properties: v.show.split(',').map((p) => PROPERTY_TO[p as Property]) }),
  };
}

/** A saved view's display as our list's view (what the address does not already say). */
export function fromDisplay(d: Display): View {
  const order = (Object.entries(ORDER_TO) as [Order, string][]).find(([, to]) => to === d.order)?.[0];
  const shown = d.properties
    ? PROPERTIES.filter((p) => d.properties!.includes(PROPERTY_TO[p])).join(',')
    : undefined;
  return {
    ...(d.group && { group: d.group }),
    ...(order && { order }),
    ...(shown !== undefined && { show: shown }),
  };
}

export const useSavedViews = () =>
  useQuery({
    queryKey: ['views', 'list'],
    queryFn: () => api.get<{ views: SavedView[] }>('/views?limit=100').then((r) => r.views),
  });

export const useSavedView = (id: string) =>
  useQuery({
    queryKey: ['views', 'detail', id],
    queryFn: () => api.get<{ view: SavedView }>(`/views/${id}`).then((r) => r.view),
  });

export async function saveView(input: {
  name: string;
  shared: boolean;
  filterData: IssueFilter;
  display: Display;
}) {
  const { view } = await api.post<{ view: SavedView }>('/views', input);
  void invalidate('views');
  return view;
}

export async function deleteView(id: string) {
  await api.del(`/views/${id}`);
  void invalidate('views');
}

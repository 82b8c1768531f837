// Saved views (REST /api/views, docs/API.md "Saved views"): a name, an issue
// filter any client can read (filterData is a GraphQL IssueFilter), and how our
// list shows it (display). Personal views are their owner's; shared ones are
// everyone's who sees their team.
import { useQuery } from '@tanstack/react-query';
import type { Display, ShownProperty } from '../../../src/modules/views/vocabulary';
import type { IssueFilter } from '../gql/graphql';
import { ok, type RestData, rest } from './api';
import { invalidate } from './query';
import { keys } from './query-keys';
import { type Order, PROPERTIES, type Property, type View } from './view';

/** A saved view as the API answers it; its filter is a GraphQL IssueFilter. */
export type SavedView = Omit<RestData<'get', '/api/views/{id}'>['view'], 'filterData'> & {
  filterData: IssueFilter;
};

// Our list's words and the stored ones differ where the API's sort names do.
const ORDER_TO: Partial<Record<Order, Display['order']>> = {
  updated: 'updatedAt',
  created: 'createdAt',
  priority: 'priority',
  due: 'dueDate',
};
const PROPERTY_TO: Record<Property, ShownProperty> = {
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
    queryKey: keys.views.list,
    queryFn: async () =>
      (await ok(rest.GET('/api/views', { params: { query: { limit: 100 } } }))).views as SavedView[],
  });

export const useSavedView = (id: string) =>
  useQuery({
    queryKey: keys.views.detail(id),
    queryFn: async () =>
      (await ok(rest.GET('/api/views/{id}', { params: { path: { id } } }))).view as SavedView,
  });

export async function saveView(input: {
  name: string;
  shared: boolean;
  filterData: IssueFilter;
  display: Display;
}) {
  const { view } = await ok(rest.POST('/api/views', { body: input }));
  void invalidate(keys.views.all);
  return view as SavedView;
}

/** Changes a saved view (its owner's, or an admin's for a shared one: the server decides). */
export async function updateView(id: string, patch: { filterData?: IssueFilter; display?: Display }) {
  const { view } = await ok(rest.PATCH('/api/views/{id}', { params: { path: { id } }, body: patch }));
  void invalidate(keys.views.all);
  return view as SavedView;
}

export async function deleteView(id: string) {
  await ok(rest.DELETE('/api/views/{id}', { params: { path: { id } } }));
  void invalidate(keys.views.all);
}

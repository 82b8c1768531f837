// The inbox (REST /api/notifications, docs/notifications.md) in the query
// cache: the unread count the sidebar shows, the pages of one filter, the
// notifications grouped by issue or project as the page shows them, and the
// changes to one notification or one group, applied to every cached page
// first and put back if the server refuses.
import {
  type InfiniteData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { ok, type RestBody, type RestData, rest } from './api';
import { groupKeyOf, type InboxGroupOf } from './inbox-groups';
import { invalidate, queryClient } from './query';
import { keys } from './query-keys';

type InboxPage = RestData<'get', '/api/notifications'>;
export type Notification = InboxPage['notifications'][number];
export { groupInbox } from './inbox-groups';
/** One row of the inbox: every loaded notification about one issue, or about one project. */
export type InboxGroup = InboxGroupOf<Notification>;
export type InboxFilter = 'unread' | 'all' | 'archived';
type Pages = InfiniteData<InboxPage, number>;

const PAGE = 50;
const COUNT_KEY = keys.notifications.count;
const LIST_KEY = keys.notifications.lists;

/** Unread notifications in the inbox; re-read on focus and whenever the stream says something changed. */
export function useUnreadCount(enabled: boolean) {
  return useQuery({
    queryKey: COUNT_KEY,
    queryFn: async () => (await ok(rest.GET('/api/notifications/unread-count'))).count,
    enabled,
    staleTime: 0,
    refetchOnWindowFocus: 'always',
  });
}

const query = (filter: InboxFilter, offset: number) => ({
  limit: PAGE,
  offset,
  ...(filter === 'archived' ? { archived: true } : filter === 'unread' ? { unread: true } : {}),
});

export function useInbox(filter: InboxFilter) {
  return useInfiniteQuery({
    queryKey: keys.notifications.list(filter),
    queryFn: ({ pageParam }) =>
      ok(rest.GET('/api/notifications', { params: { query: query(filter, pageParam) } })),
    initialPageParam: 0,
    getNextPageParam: (last) => {
      const next = last.pageInfo.offset + last.pageInfo.limit;
      return next < last.pageInfo.total ? next : undefined;
    },
    staleTime: 0,
  });
}

/** The inbox and the count read again (the stream, another tab, a refused change). */
export const refreshInbox = () => void invalidate(keys.notifications.all);

export type NotificationChange = RestBody<'patch', '/api/notifications/{id}'>;

/** Whether `n` still belongs in `filter`'s list once changed. */
const belongs = (n: Notification, filter: InboxFilter) =>
  filter === 'archived'
    ? Boolean(n.archivedAt)
    : !n.archivedAt &&
      !(n.snoozedUntilAt && n.snoozedUntilAt > new Date().toISOString()) &&
      (filter === 'all' || !n.readAt);

function applied(n: Notification, change: NotificationChange): Notification {
  const now = new Date().toISOString();
  return {
    ...n,
    ...(change.read !== undefined ? { readAt: change.read ? (n.readAt ?? now) : null } : {}),
    ...(change.archived !== undefined ? { archivedAt: change.archived ? now : null } : {}),
    ...(change.snoozedUntilAt !== undefined ? { snoozedUntilAt: change.snoozedUntilAt } : {}),
  };
}

/** Applies `fn` to every cached page of every filter; the unread filter keeps a row read here until the next load. */
function patchLists(fn: (n: Notification, filter: InboxFilter) => Notification | null) {
  for (const [key, data] of queryClient.getQueriesData<Pages>({ queryKey: LIST_KEY })) {
    if (!data) continue;
    const filter = key[2] as InboxFilter;
    queryClient.setQueryData<Pages>(key, {
      ...data,
      pages: data.pages.map((p) => ({
        ...p,
        notifications: p.notifications.flatMap((n) => {
          const next = fn(n, filter);
          return next ? [next] : [];
        }),
      })),
    });
  }
}

/**
 * One group change, on the server: every one of the caller's notifications
 * about the issue or the project, loaded here or not (REST's PATCH
 * /api/issues/{id}/notifications or /api/projects/{id}/notifications).
 */
const sendGroupChange = (group: InboxGroup, change: NotificationChange) =>
  group.project
    ? ok(
        rest.PATCH('/api/projects/{id}/notifications', {
          params: { path: { id: group.project.id } },
          body: change,
        }),
      )
    : ok(
        rest.PATCH('/api/issues/{id}/notifications', {
          params: { path: { id: group.issue!.id } },
          body: change,
        }),
      );

/**
 * Read, unread, archive, unarchive or snooze every notification of one group
 * (an issue's or a project's): every cached list and the count change at
 * once, all put back (with the reason) if the server refuses. As for one row,
 * reading in the Unread filter leaves the group in place until the next load.
 */
export function useUpdateGroup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ group, change }: { group: InboxGroup; change: NotificationChange }) =>
      sendGroupChange(group, change),
    onMutate: async ({ group, change }) => {
      await client.cancelQueries({ queryKey: keys.notifications.all });
      const saved = client.getQueriesData({ queryKey: keys.notifications.all });
      // The same notification may sit in several filters' lists: count each once.
      const before = new Map<string, Notification>();
      const onlyReadChanged = change.read !== undefined && Object.keys(change).length === 1;
      patchLists((n, filter) => {
        if (groupKeyOf(n) !== group.key) return n;
        if (!before.has(n.id)) before.set(n.id, n);
        const next = applied(n, change);
        return belongs(next, filter) || (onlyReadChanged && filter !== 'archived') ? next : null;
      });
      let delta = 0;
      for (const n of before.values())
        delta += Number(belongs(applied(n, change), 'unread')) - Number(belongs(n, 'unread'));
      if (delta !== 0) client.setQueryData<number>(COUNT_KEY, (c) => Math.max(0, (c ?? 0) + delta));
      return { saved };
    },
    onError: (_e, _v, context) => {
      for (const [key, data] of context?.saved ?? []) client.setQueryData(key, data);
    },
    onSettled: () => {
      void client.invalidateQueries({ queryKey: COUNT_KEY });
      void client.invalidateQueries({ queryKey: LIST_KEY, refetchType: 'none' });
    },
  });
}

/** "Mark all read": every unread row in the inbox, at once, back if refused. */
export function useMarkAllRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => ok(rest.POST('/api/notifications/read-all', { body: {} })),
    onMutate: async () => {
      await client.cancelQueries({ queryKey: keys.notifications.all });
      const saved = client.getQueriesData({ queryKey: keys.notifications.all });
      const now = new Date().toISOString();
      patchLists((n, filter) =>
        filter === 'archived' || !belongs(n, 'all') ? n : { ...n, readAt: n.readAt ?? now },
      );
      client.setQueryData(COUNT_KEY, 0);
      return { saved };
    },
    onError: (_e, _v, context) => {
      for (const [key, data] of context?.saved ?? []) client.setQueryData(key, data);
    },
    onSettled: () => void client.invalidateQueries({ queryKey: COUNT_KEY }),
  });
}

/** When "Snooze" brings it back: in an hour, tomorrow at 9:00, next Monday at 9:00 (the browser's time). */
export function snoozeChoices(now = new Date()): { label: string; until: Date }[] {
  const at9 = (days: number) => {
    const d = new Date(now);
    d.setDate(d.getDate() + days);
    d.setHours(9, 0, 0, 0);
    return d;
  };
  const toMonday = (8 - now.getDay()) % 7 || 7;
  return [
    { label: 'In 1 hour', until: new Date(now.getTime() + 3600_000) },
    { label: 'Tomorrow', until: at9(1) },
    { label: 'Next week', until: at9(toMonday) },
  ];
}

/** The caller's subscription to an issue (the bell on its page). */
export function useSubscription(issueId: string) {
  const key = keys.notifications.subscription(issueId);
  const client = useQueryClient();
  const q = useQuery({
    queryKey: key,
    queryFn: () => ok(rest.GET('/api/issues/{id}/subscription', { params: { path: { id: issueId } } })),
  });
  const m = useMutation({
    mutationFn: (on: boolean) =>
      on
        ? ok(rest.PUT('/api/issues/{id}/subscription', { params: { path: { id: issueId } } }))
        : ok(rest.DELETE('/api/issues/{id}/subscription', { params: { path: { id: issueId } } })),
    onMutate: async (on) => {
      await client.cancelQueries({ queryKey: key });
      const before = client.getQueryData(key);
      client.setQueryData(key, { subscribed: on });
      return { before };
    },
    onError: (_e, _on, context) => client.setQueryData(key, context?.before),
    onSuccess: (data) => client.setQueryData(key, data),
  });
  return { subscribed: q.data?.subscribed, loading: q.isLoading, toggle: m.mutate, error: m.error };
}

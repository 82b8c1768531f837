// A team's triage queue (docs/triage.md): its issues in the triage state that
// are not snoozed past now, oldest first, read through the REST issue list
// with the filter grammar's snoozedUntilAt; the sidebar's counts are the same
// list's totals. Every action goes through the ordinary issue writes (state,
// priority, assignee, comment, duplicate relation), so history, webhooks, the
// stream and notifications follow as for any change. The queue and the counts
// show an action at once and are put back if the server refuses.
import {
  type InfiniteData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useMemo } from 'react';
import { ok, type RestData, rest } from './api';
import { refreshIssues, updateIssues } from './issues';
import { keys } from './query-keys';
import type { Ref, Team } from './ref';

type IssuePage = RestData<'get', '/api/issues'>;
export type TriageIssue = IssuePage['issues'][number];
type QueuePages = InfiniteData<IssuePage, string | null>;

/** A queue is read 100 issues at a time, oldest first; "Load more" (or J past the end) reads the next. */
const QUEUE_PAGE = 100;

/** Triage issues not snoozed past `now`: a snooze ends by itself when its time comes. */
export const queueFilter = (now: Date) =>
  JSON.stringify({
    state: { type: { eq: 'triage' } },
    or: [{ snoozedUntilAt: { null: true } }, { snoozedUntilAt: { lte: now.toISOString() } }],
  });

/** One page of the queue: the first, or the one after `after` (the list's keyset cursor). */
const readQueue = (teamId: string, limit: number, after: string | null = null) =>
  ok(
    rest.GET('/api/issues', {
      params: {
        query: {
          teamId,
          filter: queueFilter(new Date()),
          sort: 'createdAt',
          order: 'asc',
          limit,
          ...(after ? { after } : {}),
        },
      },
    }),
  );

/** The queue's loaded issues, every page's in order, and how many wait in all. */
export function useTriageQueue(teamId: string | undefined) {
  const q = useInfiniteQuery({
    queryKey: keys.triage.queue(teamId ?? ''),
    queryFn: ({ pageParam }) => readQueue(teamId!, QUEUE_PAGE, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.pageInfo.nextCursor ?? undefined,
    enabled: Boolean(teamId),
    staleTime: 0,
    // A snooze that ends brings its issue back without anyone touching it.
    refetchInterval: 60_000,
  });
  const pages = q.data?.pages;
  return {
    ...q,
    issues: useMemo(() => pages?.flatMap((p) => p.issues) ?? [], [pages]),
    total: pages?.[0]?.pageInfo.total ?? 0,
  };
}

/** The triage queues the person works: their teams that have triage on (the sidebar's and the command menu's). */
export const myTriageTeams = (ref: Ref | undefined) =>
  (ref?.teams ?? []).filter((t) => t.triageEnabled && ref?.myTeamIds.includes(t.id));

/** Waiting issues per team (the sidebar's counts), one short read per team. */
export function useTriageCounts(teamIds: readonly string[]) {
  return useQuery({
    queryKey: keys.triage.counts(teamIds),
    queryFn: async () => {
      const totals = await Promise.all(teamIds.map(async (id) => (await readQueue(id, 1)).pageInfo.total));
      return Object.fromEntries(teamIds.map((id, i) => [id, totals[i]!])) as Record<string, number>;
    },
    enabled: teamIds.length > 0,
    staleTime: 0,
    refetchInterval: 60_000,
  });
}

/** Where Accept moves an issue: the team's first unstarted state, else its first backlog one. */
export const acceptState = (team: Team) =>
  team.states.find((s) => s.type === 'unstarted') ?? team.states.find((s) => s.type === 'backlog');

/** Where Decline moves it: the first canceled state that is not the duplicates' one. */
export const declineState = (team: Team) =>
  team.states.find((s) => s.type === 'canceled' && !/duplicate/i.test(s.name)) ??
  team.states.find((s) => s.type === 'canceled');

export type TriageAction =
  | { kind: 'accept'; ids: string[]; stateId: string; priority?: number; assigneeId?: string | null }
  | { kind: 'decline'; ids: string[]; stateId: string; comment?: string }
  | { kind: 'duplicate'; ids: string[]; originalId: string }
  | { kind: 'snooze'; ids: string[]; until: Date };

async function send(a: TriageAction): Promise<void> {
  switch (a.kind) {
    case 'accept':
      return updateIssues(a.ids, {
        stateId: a.stateId,
        ...(a.priority !== undefined ? { priority: a.priority } : {}),
        ...(a.assigneeId !== undefined ? { assigneeId: a.assigneeId } : {}),
      });
    case 'decline':
      await updateIssues(a.ids, { stateId: a.stateId });
      if (a.comment)
        for (const id of a.ids)
          await ok(
            rest.POST('/api/issues/{id}/comments', { params: { path: { id } }, body: { body: a.comment } }),
          );
      return;
    case 'duplicate':
      // The relation moves the duplicate to its team's duplicate state (relations/service.ts).
      for (const id of a.ids)
        await ok(
          rest.POST('/api/issues/{id}/relations', {
            params: { path: { id } },
            body: { type: 'duplicate', relatedIssueId: a.originalId },
          }),
        );
      return;
    case 'snooze':
      return updateIssues(a.ids, { snoozedUntilAt: a.until.toISOString() });
  }
}

/** Runs an action on some of a team's queue: they leave it (and its count) at once, back if refused. */
export function useTriageAction(teamId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onMutate: async (a) => {
      await client.cancelQueries({ queryKey: keys.triage.all });
      const saved = client.getQueriesData({ queryKey: keys.triage.all });
      const gone = new Set(a.ids);
      client.setQueryData<QueuePages>(keys.triage.queue(teamId), (q) =>
        q
          ? {
              ...q,
              pages: q.pages.map((p) => ({
                ...p,
                issues: p.issues.filter((i) => !gone.has(i.id)),
                pageInfo: { ...p.pageInfo, total: Math.max(0, p.pageInfo.total - gone.size) },
              })),
            }
          : q,
      );
      for (const [key, data] of client.getQueriesData<Record<string, number>>({
        queryKey: keys.triage.allCounts,
      }))
        if (data && teamId in data)
          client.setQueryData(key, { ...data, [teamId]: Math.max(0, data[teamId]! - gone.size) });
      return { saved };
    },
    onError: (_e, _a, context) => {
      for (const [key, data] of context?.saved ?? []) client.setQueryData(key, data);
    },
    onSettled: (_r, _e, a) => {
      void client.invalidateQueries({ queryKey: keys.triage.all });
      if (a.kind === 'duplicate' || a.kind === 'decline') refreshIssues();
    },
  });
}

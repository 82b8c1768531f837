// Work items through GraphQL: reference data (teams, states, people, labels,
// projects, cycles), streamed issue lists with optimistic updates, mutations.
import { useEffect, useSyncExternalStore } from 'react';
import { gql } from './api';
import { invalidate, useQuery } from './cache';

export interface State {
  id: string;
  name: string;
  type: string;
  color: string;
  position: number;
  teamId: string;
}
export interface Team {
  id: string;
  key: string;
  name: string;
  states: State[];
}
export interface Person {
  id: string;
  name: string;
  email: string;
}
export interface Label {
  id: string;
  name: string;
  color: string;
}
export interface ProjectRef {
  id: string;
  name: string;
}
export interface CycleRef {
  id: string;
  number: number;
  name: string | null;
  teamId: string;
  isActive: boolean;
  isFuture: boolean;
}
export interface Issue {
  id: string;
  identifier: string;
  title: string;
  priority: number;
  estimate: number | null;
  dueDate: string | null;
  createdAt: string;
  updatedAt: string;
  stateId: string;
  teamId: string;
  assigneeId: string | null;
  projectId: string | null;
  cycleId: string | null;
  labelIds: string[];
  /** Waits on a blocking issue that is neither completed nor canceled. */
  blocked?: boolean;
}

export const PRIORITIES = [
  { value: 0, label: 'No priority' },
  { value: 1, label: 'Urgent' },
  { value: 2, label: 'High' },
  { value: 3, label: 'Medium' },
  { value: 4, label: 'Low' },
];
export const priorityLabel = (p: number) => PRIORITIES.find((x) => x.value === p)?.label ?? 'No priority';

const STATE_ORDER = ['triage', 'backlog', 'unstarted', 'started', 'completed', 'canceled'];
export const sortStates = (s: State[]) =>
  [...s].sort((a, b) => STATE_ORDER.indexOf(a.type) - STATE_ORDER.indexOf(b.type) || a.position - b.position);

// ---------- reference data ----------

export interface Ref {
  teams: Team[];
  states: State[];
  stateById: Map<string, State>;
  people: Person[];
  labels: Label[];
  viewerId: string;
}

interface RefGql {
  viewer: { id: string };
  teams: {
    nodes: {
      id: string;
      key: string;
      name: string;
      states: { nodes: Omit<State, 'teamId'>[] };
    }[];
  };
  users: { nodes: Person[] };
  issueLabels: { nodes: Label[] };
}

const REF_QUERY = `query Ref {
  viewer { id }
  teams(first: 50) { nodes { id key name states(first: 100) { nodes { id name type color position } } } }
  users(first: 250) { nodes { id name email } }
  issueLabels(first: 250) { nodes { id name color } }
}`;

async function loadRef(): Promise<Ref> {
  const d = await gql<RefGql>(REF_QUERY);
  const teams = d.teams.nodes.map((t) => ({
    id: t.id,
    key: t.key,
    name: t.name,
    states: sortStates(t.states.nodes.map((s) => ({ ...s, teamId: t.id }))),
  }));
  const states = teams.flatMap((t) => t.states);
  return {
    teams,
    states,
    stateById: new Map(states.map((s) => [s.id, s])),
    people: [...d.users.nodes].sort((a, b) => a.name.localeCompare(b.name)),
    labels: [...d.issueLabels.nodes].sort((a, b) => a.name.localeCompare(b.name)),
    viewerId: d.viewer.id,
  };
}

export const useRefData = () => useQuery<Ref>('ref:core', loadRef);

export function useProjects(enabled: boolean) {
  return useQuery<ProjectRef[]>(enabled ? 'ref:projects' : null, async () => {
    const d = await gql<{ projects: { nodes: ProjectRef[] } }>(
      'query { projects(first: 250) { nodes { id name } } }',
    );
    return d.projects.nodes;
  });
}

export function useCycles(enabled: boolean) {
  return useQuery<CycleRef[]>(enabled ? 'ref:cycles' : null, async () => {
    const d = await gql<{
      cycles: { nodes: (Omit<CycleRef, 'teamId'> & { team: { id: string } })[] };
    }>('query { cycles(first: 250) { nodes { id number name isActive isFuture team { id } } } }');
    return d.cycles.nodes.map(({ team, ...c }) => ({ ...c, teamId: team.id }));
  });
}

export const cycleName = (c: CycleRef) => c.name || `Cycle ${c.number}`;

// ---------- issue lists ----------

export const ISSUE_FIELDS = `id identifier title priority estimate dueDate createdAt updatedAt
  state { id } team { id } assignee { id } project { id } cycle { id } labels(first: 20) { nodes { id } }`;

interface IssueGql {
  id: string;
  identifier: string;
  title: string;
  priority: number;
  estimate: number | null;
  dueDate: string | null;
  createdAt: string;
  updatedAt: string;
  state: { id: string };
  team: { id: string };
  assignee: { id: string } | null;
  project: { id: string } | null;
  cycle: { id: string } | null;
  labels: { nodes: { id: string }[] };
}

export const fromGql = (i: IssueGql): Issue => ({
  id: i.id,
  identifier: i.identifier,
  title: i.title,
  priority: i.priority,
  estimate: i.estimate,
  dueDate: i.dueDate,
  createdAt: i.createdAt,
  updatedAt: i.updatedAt,
  stateId: i.state.id,
  teamId: i.team.id,
  assigneeId: i.assignee?.id ?? null,
  projectId: i.project?.id ?? null,
  cycleId: i.cycle?.id ?? null,
  labelIds: i.labels.nodes.map((l) => l.id),
});

export interface IssueFilters {
  state?: string;
  assignee?: string; // user id, or 'none'
  label?: string;
  priority?: string;
  project?: string;
  cycle?: string;
  q?: string;
}

/** Our filter choices as a GraphQL IssueFilter. */
export function toIssueFilter(f: IssueFilters): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  if (f.state) filter.state = { id: { eq: f.state } };
  if (f.assignee === 'none') filter.assignee = { null: true };
  else if (f.assignee) filter.assignee = { id: { eq: f.assignee } };
  if (f.label) filter.labels = { some: { id: { eq: f.label } } };
  if (f.priority) filter.priority = { eq: Number(f.priority) };
  if (f.project) filter.project = { id: { eq: f.project } };
  if (f.cycle) filter.cycle = { id: { eq: f.cycle } };
  const q = f.q?.trim();
  if (q) filter.or = searchFilters(q);
  return filter;
}

/**
 * The server's one full-text search (`searchableContent`: word prefixes in the
 * title and description, accent- and case-folded), or the issue an identifier
 * such as ENG-12 names.
 */
export function searchFilters(q: string): Record<string, unknown>[] {
  const id = /^([a-z][a-z0-9]*)-(\d+)$/i.exec(q);
  return [
    { searchableContent: { contains: q } },
    ...(id ? [{ team: { key: { eq: id[1]!.toUpperCase() } }, number: { eq: Number(id[2]) } }] : []),
  ];
}

interface ListState {
  issues: Issue[];
  done: boolean;
  error?: Error;
  stale: boolean;
}

const lists = new Map<string, ListState>();
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
const running = new Set<string>();

const PAGE = 250;
/** Blocked issues per request: with 50 inverse relations each, this stays under the query cost limit. */
const BLOCKED_PAGE = 50;
const DONE_TYPES = new Set(['completed', 'canceled']);

/**
 * Ids of the issues matching `filter` that wait on an unresolved blocker. The
 * server narrows to issues that have any blocker (hasBlockedByRelations), so
 * this reads only those, with their blockers' states, in pages of their own
 * beside the list: a page of the list never pays for relations.
 */
async function blockedIds(filter: Record<string, unknown>): Promise<Set<string>> {
  const ids = new Set<string>();
  let after: string | null = null;
  for (;;) {
    const d: {
      issues: {
        nodes: {
          id: string;
          inverseRelations: { nodes: { type: string; issue: { state: { type: string } } }[] };
        }[];
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
      };
    } = await gql(
      `query Blocked($first: Int, $after: String, $filter: IssueFilter) {
        issues(first: $first, after: $after, filter: $filter) {
          nodes { id inverseRelations(first: 50) { nodes { type issue { state { type } } } } }
          pageInfo { hasNextPage endCursor } } }`,
      { first: BLOCKED_PAGE, after, filter: { and: [filter, { hasBlockedByRelations: { eq: true } }] } },
    );
    for (const n of d.issues.nodes) {
      const open = n.inverseRelations.nodes.some(
        (r) => r.type === 'blocks' && !DONE_TYPES.has(r.issue.state.type),
      );
      if (open) ids.add(n.id);
    }
    if (!d.issues.pageInfo.hasNextPage || !d.issues.pageInfo.endCursor) return ids;
    after = d.issues.pageInfo.endCursor;
  }
}

async function stream(key: string, filter: Record<string, unknown>, orderBy: string) {
  if (running.has(key)) return;
  running.add(key);
  const collected: Issue[] = [];
  let after: string | null = null;
  const previous = lists.get(key);
  // Runs beside the first page; a failure only costs the markers, never the list.
  const blocked = blockedIds(filter).catch(() => new Set<string>());
  try {
    for (;;) {
      const d: {
        issues: { nodes: IssueGql[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
      } = await gql(
        `query Issues($first: Int, $after: String, $filter: IssueFilter, $orderBy: PaginationOrderBy) {
          issues(first: $first, after: $after, filter: $filter, orderBy: $orderBy) {
            nodes { ${ISSUE_FIELDS} } pageInfo { hasNextPage endCursor } } }`,
        { first: PAGE, after, filter, orderBy },
      );
      const waiting = await blocked;
      collected.push(...d.issues.nodes.map((n) => ({ ...fromGql(n), blocked: waiting.has(n.id) })));
      const more = d.issues.pageInfo.hasNextPage && Boolean(d.issues.pageInfo.endCursor);
      // A refresh keeps showing the old list until the new one is complete.
      if (!previous || !more) lists.set(key, { issues: [...collected], done: !more, stale: false });
      notify();
      if (!more) break;
      after = d.issues.pageInfo.endCursor;
    }
  } catch (error) {
    lists.set(key, {
      issues: previous?.issues ?? collected,
      done: true,
      error: error as Error,
      stale: false,
    });
    notify();
  } finally {
    running.delete(key);
  }
}

/** Keeps the most recently used lists; each can hold thousands of issues. */
const MAX_LISTS = 8;
function touch(key: string) {
  const s = lists.get(key);
  if (!s) return;
  lists.delete(key);
  lists.set(key, s);
  while (lists.size > MAX_LISTS) {
    const oldest = lists.keys().next().value as string;
    lists.delete(oldest);
  }
}

export function useIssueList(filters: IssueFilters, orderBy: 'createdAt' | 'updatedAt' = 'updatedAt') {
  useSyncExternalStore(subscribe, () => version);
  const filter = toIssueFilter(filters);
  const key = JSON.stringify([filter, orderBy]);
  const state = lists.get(key);
  const needs = !state || state.stale;
  useEffect(() => touch(key), [key]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key encodes filter and order
  useEffect(() => {
    if (needs) void stream(key, filter, orderBy);
  }, [key, needs]);
  return {
    issues: state?.issues,
    done: state?.done ?? false,
    error: state?.error,
    loading: !state,
  };
}

/** Forgets every list (on sign-in and sign-out: another user may see other issues). */
export function clearIssueLists() {
  lists.clear();
  notify();
}

/** Marks every list stale: they refresh in the background, keeping what they show. */
export function refreshIssueLists() {
  for (const s of lists.values()) s.stale = true;
  notify();
  invalidate('issue:');
  invalidate('cycles');
  invalidate('projects');
}

/** Applies a change to an issue everywhere it is shown, right away. */
export function patchIssueLocally(id: string, patch: Partial<Issue>) {
  for (const s of lists.values()) {
    const i = s.issues.findIndex((x) => x.id === id);
    if (i >= 0) s.issues = s.issues.map((x) => (x.id === id ? { ...x, ...patch } : x));
  }
  notify();
}

// ---------- mutations ----------

export interface IssueInput {
  title?: string;
  description?: string;
  teamId?: string;
  stateId?: string;
  priority?: number;
  assigneeId?: string | null;
  labelIds?: string[];
  projectId?: string | null;
  projectMilestoneId?: string | null;
  parentId?: string | null;
  cycleId?: string | null;
  dueDate?: string | null;
  estimate?: number | null;
}

export async function createIssue(input: IssueInput) {
  const d = await gql<{ issueCreate: { success: boolean; issue: { id: string; identifier: string } } }>(
    `mutation Create($input: IssueCreateInput!) { issueCreate(input: $input) { success issue { id identifier } } }`,
    { input },
  );
  refreshIssueLists();
  return d.issueCreate.issue;
}

export async function updateIssue(id: string, input: IssueInput, local?: Partial<Issue>) {
  const before = local ? findLocal(id) : undefined;
  if (local) patchIssueLocally(id, local);
  try {
    await gql(
      `mutation Update($id: String!, $input: IssueUpdateInput!) { issueUpdate(id: $id, input: $input) { success issue { id } } }`,
      { id, input },
    );
  } catch (e) {
    if (before) patchIssueLocally(id, before);
    throw e;
  }
  refreshIssueLists();
}

function findLocal(id: string): Issue | undefined {
  for (const s of lists.values()) {
    const found = s.issues.find((x) => x.id === id);
    if (found) return found;
  }
  return undefined;
}

export async function deleteIssue(id: string) {
  await gql(`mutation Del($id: String!) { issueDelete(id: $id) { success } }`, { id });
  refreshIssueLists();
}

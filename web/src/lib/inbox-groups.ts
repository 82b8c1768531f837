// The inbox's rows: notifications grouped by what they are about, an issue
// or (a new project update) a project. Apart from the query cache
// (lib/notifications.ts) so the rule can be tested on its own
// (test/web-inbox-groups.test.ts).

/** What grouping needs of a notification (REST's has more): one of issue and project is set. */
interface Grouped {
  id: string;
  issue: { id: string } | null;
  project: { id: string } | null;
  readAt: string | null;
}

/** The group a notification is in, as GraphQL's groupingKey names it: `issue/<id>` or `project/<id>`. */
export const groupKeyOf = (n: Pick<Grouped, 'issue' | 'project'>): string =>
  n.project ? `project/${n.project.id}` : `issue/${n.issue?.id}`;

/** One row of the inbox: every loaded notification about one issue or one project, newest first. */
export interface InboxGroupOf<N extends Grouped> {
  key: string;
  /** The issue, for an issue's row (null for a project's). */
  issue: N['issue'];
  /** The project, for a project's row (null for an issue's). */
  project: N['project'];
  events: N[];
  /** Its unread events (of those loaded). */
  unread: number;
}

/**
 * The loaded notifications (newest first) as one group per issue or project,
 * in the order of each one's newest event: first seen is newest. Loading
 * another page adds events to the rows already there and rows after them,
 * never a second row for one issue or project nor a new order for the rows above.
 */
export function groupInbox<N extends Grouped>(items: readonly N[]): InboxGroupOf<N>[] {
  const groups = new Map<string, InboxGroupOf<N>>();
  for (const n of items) {
    const key = groupKeyOf(n);
    let g = groups.get(key);
    if (!g) {
      g = { key, issue: n.issue, project: n.project, events: [], unread: 0 };
      groups.set(key, g);
    }
    g.events.push(n);
    if (!n.readAt) g.unread++;
  }
  return [...groups.values()];
}

// The inbox's rows: notifications grouped by issue. Apart from the query
// cache (lib/notifications.ts) so the rule can be tested on its own
// (test/web-inbox-groups.test.ts).

/** What grouping needs of a notification (REST's has more). */
interface Grouped {
  id: string;
  issue: { id: string };
  readAt: string | null;
}

/** One row of the inbox: every loaded notification about one issue, newest first. */
export interface IssueGroup<N extends Grouped> {
  issue: N['issue'];
  events: N[];
  /** Its unread events (of those loaded). */
  unread: number;
}

/**
 * The loaded notifications (newest first) as one group per issue, in the
 * order of each issue's newest event: first seen is newest. Loading another
 * page adds events to the rows already there and rows after them, never a
 * second row for an issue nor a new order for the rows above.
 */
export function groupByIssue<N extends Grouped>(items: readonly N[]): IssueGroup<N>[] {
  const groups = new Map<string, IssueGroup<N>>();
  for (const n of items) {
    let g = groups.get(n.issue.id);
    if (!g) {
      g = { issue: n.issue, events: [], unread: 0 };
      groups.set(n.issue.id, g);
    }
    g.events.push(n);
    if (!n.readAt) g.unread++;
  }
  return [...groups.values()];
}

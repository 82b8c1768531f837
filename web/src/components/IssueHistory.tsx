// An issue's activity: every recorded change (who, when, from → to), oldest
// first, from GraphQL's `issue.history`.

import { useQuery } from '@tanstack/react-query';
import { graphql } from '../gql';
import type { IssueActivityQuery } from '../gql/graphql';
import { gql } from '../lib/api';
import { priorityLabel } from '../lib/issues';
import { keys } from '../lib/query-keys';
import { AppMarker } from './AppMarker';
import { RelativeTime } from './RelativeTime';

const Activity = graphql(`
  query IssueActivity($id: String!, $first: Int) {
    issue(id: $id) {
      history(first: $first) {
        nodes {
          id createdAt actor { name app }
          fromTitle toTitle
          fromState { name } toState { name }
          fromAssignee { name } toAssignee { name }
          fromPriority toPriority
          fromEstimate toEstimate
          fromDueDate toDueDate
          fromProject { name } toProject { name }
          fromProjectMilestone { name } toProjectMilestone { name }
          fromCycle { number name } toCycle { number name }
          fromParent { identifier } toParent { identifier }
          fromTeam { key } toTeam { key }
          addedLabels { name } removedLabels { name }
        }
        pageInfo { hasNextPage }
      }
    }
  }
`);
type Entry = IssueActivityQuery['issue']['history']['nodes'][number];
/** The newest changes; an entry costs about 27 points, so all 250 a page allows would cost 6,800 on every open. */
const SHOWN = 30;

const none = (v: string | null | undefined, empty: string) => v ?? empty;
const cycle = (c: { number: number; name: string | null } | null) =>
  c ? c.name || `Cycle ${c.number}` : null;

/** Each change in an entry as a sentence; one entry may change several things. */
export function describe(e: Entry): string[] {
  const out: string[] = [];
  const moved = (
    what: string,
    from: string | null | undefined,
    to: string | null | undefined,
    empty: string,
  ) => {
    if (from !== to) out.push(`changed ${what} from ${none(from, empty)} to ${none(to, empty)}`);
  };
  if (e.toTitle != null && e.fromTitle != null && e.toTitle !== e.fromTitle)
    out.push(`renamed the issue to “${e.toTitle}”`);
  if (e.fromState || e.toState) moved('state', e.fromState?.name, e.toState?.name, 'none');
  if (e.fromAssignee || e.toAssignee) {
    if (!e.fromAssignee) out.push(`assigned ${e.toAssignee!.name}`);
    else if (!e.toAssignee) out.push(`unassigned ${e.fromAssignee.name}`);
    else moved('assignee', e.fromAssignee.name, e.toAssignee.name, 'nobody');
  }
  if (e.fromPriority != null && e.toPriority != null && e.fromPriority !== e.toPriority)
    moved('priority', priorityLabel(e.fromPriority), priorityLabel(e.toPriority), 'none');
  if (e.fromEstimate !== e.toEstimate && (e.fromEstimate != null || e.toEstimate != null))
    moved('estimate', e.fromEstimate?.toString(), e.toEstimate?.toString(), 'none');
  if (e.fromDueDate !== e.toDueDate && (e.fromDueDate || e.toDueDate))
    moved('due date', e.fromDueDate, e.toDueDate, 'none');
  if (e.fromProject || e.toProject) moved('project', e.fromProject?.name, e.toProject?.name, 'none');
  if (e.fromProjectMilestone || e.toProjectMilestone)
    moved('milestone', e.fromProjectMilestone?.name, e.toProjectMilestone?.name, 'none');
  if (e.fromCycle || e.toCycle) moved('cycle', cycle(e.fromCycle), cycle(e.toCycle), 'none');
  if (e.fromParent || e.toParent) moved('parent', e.fromParent?.identifier, e.toParent?.identifier, 'none');
  if (e.fromTeam && e.toTeam && e.fromTeam.key !== e.toTeam.key)
    moved('team', e.fromTeam.key, e.toTeam.key, 'none');
  for (const l of e.addedLabels ?? []) out.push(`added label ${l.name}`);
  for (const l of e.removedLabels ?? []) out.push(`removed label ${l.name}`);
  return out;
}

export function IssueHistory({ issueId }: { issueId: string }) {
  const q = useQuery({
    queryKey: keys.issues.history(issueId),
    queryFn: async () => (await gql(Activity, { id: issueId, first: SHOWN })).issue.history,
  });
  // Connections come newest first; a timeline reads oldest first.
  const entries = [...(q.data?.nodes ?? [])]
    .reverse()
    .flatMap((e) => describe(e).map((text, i) => ({ e, text, i })));
  return (
    <section className="activity" aria-labelledby="activity-h">
      <h2 id="activity-h">Activity</h2>
      {q.data?.pageInfo.hasNextPage && <p className="muted small">Older changes are not shown.</p>}
      {entries.length === 0 ? (
        <p className="muted small">{q.isLoading ? 'Loading…' : 'No changes yet.'}</p>
      ) : (
        <ol className="activity-list">
          {entries.map(({ e, text, i }) => (
            <li key={`${e.id}-${i}`}>
              <strong>{e.actor?.name ?? 'Someone'}</strong>
              {e.actor?.app ? <AppMarker /> : null} {text} · <RelativeTime iso={e.createdAt} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

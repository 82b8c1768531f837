// One cycle: its dates and progress, the burn-up over its days, and its
// issues, the list keeping its view in the address.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { BurnUp } from '../components/BurnUp';
import { ErrorMessage, Loading, PageHeader } from '../components/ui';
import { graphql } from '../gql';
import { gql } from '../lib/api';
import { shortDate } from '../lib/dates';
import { keys } from '../lib/query-keys';
import type { ViewProps } from '../router';
import { IssueList } from './Issues';
import { Progress } from './Projects';

const CycleQuery = graphql(`
  query CyclePage($id: String!) {
    cycle(id: $id) { id number name startsAt endsAt progress isActive isFuture isPast team { id name key } }
  }
`);

export function CyclePage({ id, ...view }: ViewProps & { id: string }) {
  const q = useQuery({
    queryKey: keys.cycles.detail(id),
    queryFn: async () => (await gql(CycleQuery, { id })).cycle,
  });
  if (q.isLoading) return <Loading label="Loading cycle" />;
  if (!q.data)
    return (
      <div className="page">
        <ErrorMessage error={q.error ?? 'Cycle not found'} />
        <Link to="/cycles">All cycles</Link>
      </div>
    );
  const c = q.data;
  const name = c.name || `Cycle ${c.number}`;
  const when = c.isActive ? 'Current' : c.isFuture ? 'Upcoming' : 'Past';
  return (
    <div className="page fill">
      <nav className="crumbs" aria-label="Breadcrumb">
        <Link to="/cycles">Cycles</Link> <span aria-hidden="true">›</span> <span>{c.team.name}</span>
      </nav>
      <PageHeader title={`${c.team.key} · ${name}`} />
      <p className="muted">
        {when} · {shortDate(c.startsAt)} – {shortDate(c.endsAt)} <Progress value={c.progress} />
      </p>
      <BurnUp kind="cycles" id={c.id} />
      <IssueList
        {...view}
        title={`Issues in ${name}`}
        fixed={{ cycle: c.id, team: c.team.id }}
        heading={false}
      >
        <h2>Issues</h2>
      </IssueList>
    </div>
  );
}

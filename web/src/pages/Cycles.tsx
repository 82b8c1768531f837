// Cycles per team: current, upcoming and past, each with its progress.
import { ErrorMessage, Loading, PageHeader } from '../components/ui';
import { gql } from '../lib/api';
import { useQuery } from '../lib/cache';
import { Progress } from './Projects';

interface Cycle {
  id: string;
  number: number;
  name: string | null;
  startsAt: string;
  endsAt: string;
  progress: number;
  isActive: boolean;
  isFuture: boolean;
  isPast: boolean;
}
interface TeamCycles {
  id: string;
  name: string;
  cycles: { nodes: Cycle[] };
}

const day = (d: string) => new Date(d).toLocaleDateString(undefined, { month: 'short', day: 'numeric' });

export function CyclesPage() {
  const q = useQuery('cycles', () =>
    gql<{ teams: { nodes: TeamCycles[] } }>(
      `query { teams(first: 50) { nodes { id name cycles(first: 100) { nodes {
        id number name startsAt endsAt progress isActive isFuture isPast } } } } }`,
    ).then((d) => d.teams.nodes),
  );
  return (
    <div className="page">
      <PageHeader title="Cycles" />
      {q.loading && <Loading label="Loading cycles" />}
      <ErrorMessage error={q.error} />
      {q.data?.map((team) => {
        const all = [...team.cycles.nodes].sort((a, b) => a.startsAt.localeCompare(b.startsAt));
        const groups: [string, Cycle[]][] = [
          ['Current', all.filter((c) => c.isActive)],
          ['Upcoming', all.filter((c) => c.isFuture)],
          ['Past', all.filter((c) => c.isPast).reverse()],
        ];
        return (
          <section key={team.id} className="card" aria-labelledby={`team-${team.id}`}>
            <h2 id={`team-${team.id}`}>{team.name}</h2>
            {all.length === 0 && <p className="muted">No cycles yet.</p>}
            {groups.map(([title, cycles]) =>
              cycles.length ? (
                <div key={title} className="cycle-group">
                  <h3 className="nav-group">{title}</h3>
                  <ul className="cycle-list">
                    {cycles.map((c) => (
                      <li key={c.id} className={`cycle${c.isActive ? ' active' : ''}`}>
                        <strong>{c.name || `Cycle ${c.number}`}</strong>
                        <span className="muted">
                          {day(c.startsAt)} – {day(c.endsAt)}
                        </span>
                        <Progress value={c.progress} />
                      </li>
                    ))}
                  </ul>
                </div>
              ) : null,
            )}
          </section>
        );
      })}
    </div>
  );
}

// Progress over time as a burn-up chart: scope and completed, one point per
// day, from REST `/api/{projects,cycles}/:id/progress`. Drawn as plain SVG:
// two lines do not need a charting library. A table carries the same figures
// for screen readers and for anyone who wants the numbers.
import { useQuery } from '@tanstack/react-query';
import { ok, type RestData, rest } from '../lib/api';
import { keys } from '../lib/query-keys';

export type ProgressDay = RestData<'get', '/api/projects/{id}/progress'>['days'][number];

/** A project's or a cycle's days (the two routes answer the same shape). */
const readDays = async (kind: 'projects' | 'cycles', id: string): Promise<ProgressDay[]> => {
  const path = { params: { path: { id } } };
  const r = await (kind === 'projects'
    ? ok(rest.GET('/api/projects/{id}/progress', path))
    : ok(rest.GET('/api/cycles/{id}/progress', path)));
  return r.days;
};

const W = 560;
const H = 180;
const PAD = 28;

export function BurnUp({ kind, id }: { kind: 'projects' | 'cycles'; id: string }) {
  const q = useQuery({
    queryKey: kind === 'projects' ? keys.projects.progress(id) : keys.cycles.progress(id),
    queryFn: () => readDays(kind, id),
  });
  const days = q.data ?? [];
  if (q.isLoading) return <p className="muted small">Loading progress…</p>;
  if (days.length === 0) return <p className="muted small">No progress recorded yet.</p>;
  const last = days[days.length - 1]!;
  const top = Math.max(1, ...days.map((d) => d.scope));
  const x = (i: number) => PAD + (days.length === 1 ? 0 : (i * (W - 2 * PAD)) / (days.length - 1));
  const y = (v: number) => H - PAD - (v * (H - 2 * PAD)) / top;
  const line = (pick: (d: ProgressDay) => number) => days.map((d, i) => `${x(i)},${y(pick(d))}`).join(' ');
  return (
    <figure className="burnup">
      <figcaption>
        Progress: {last.completedScope} of {last.scope} points completed
        <span className="burnup-legend" aria-hidden="true">
          <span className="swatch scope" /> Scope <span className="swatch completed" /> Completed
        </span>
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`Burn-up chart over ${days.length} days`}>
        <line className="axis" x1={PAD} y1={H - PAD} x2={W - PAD} y2={H - PAD} />
        <line className="axis" x1={PAD} y1={PAD} x2={PAD} y2={H - PAD} />
        <text className="tick" x={PAD - 6} y={y(top) + 4} textAnchor="end">
          {top}
        </text>
        <text className="tick" x={PAD - 6} y={H - PAD + 4} textAnchor="end">
          0
        </text>
        <text className="tick" x={PAD} y={H - 8}>
          {days[0]!.date}
        </text>
        <text className="tick" x={W - PAD} y={H - 8} textAnchor="end">
          {last.date}
        </text>
        <polyline className="series scope" points={line((d) => d.scope)} />
        <polyline className="series completed" points={line((d) => d.completedScope)} />
      </svg>
      <details>
        <summary>Figures by day</summary>
        <table className="table compact">
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Scope</th>
              <th scope="col">Completed</th>
              <th scope="col">Issues</th>
              <th scope="col">Completed issues</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.date}>
                <td>{d.date}</td>
                <td>{d.scope}</td>
                <td>{d.completedScope}</td>
                <td>{d.issues}</td>
                <td>{d.completedIssues}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

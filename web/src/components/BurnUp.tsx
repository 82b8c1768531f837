// Progress over time as a burn-up chart: scope and completed, one point per
// day, from REST `/api/{projects,cycles}/:id/progress`. A cycle's chart spans
// the whole cycle, start to end, with the server's outlook: the ideal line
// (nothing at the start, the scope at the end) and the projection (the rate so
// far, kept up to the end). Drawn as plain SVG. A sentence sums it up and a
// table carries the figures, for screen readers and anyone who wants numbers.
import { useQuery } from '@tanstack/react-query';
import { ok, type RestData, rest } from '../lib/api';
import { shortDate } from '../lib/dates';
import { keys } from '../lib/query-keys';

export type ProgressDay = RestData<'get', '/api/projects/{id}/progress'>['days'][number];
type Outlook = RestData<'get', '/api/cycles/{id}/progress'>['outlook'];

/** A project's or a cycle's days (the two routes answer the same days; a cycle's adds its outlook). */
const readProgress = async (
  kind: 'projects' | 'cycles',
  id: string,
): Promise<{ days: ProgressDay[]; outlook?: Outlook }> => {
  const path = { params: { path: { id } } };
  return kind === 'projects'
    ? ok(rest.GET('/api/projects/{id}/progress', path))
    : ok(rest.GET('/api/cycles/{id}/progress', path));
};

const W = 560;
const H = 180;
const PAD = 28;
const DAY = 86_400_000;
const dayNumber = (date: string) => Math.round(Date.parse(`${date}T00:00:00Z`) / DAY);
const points = (n: number) => `${n} point${n === 1 ? '' : 's'}`;

export function BurnUp({ kind, id }: { kind: 'projects' | 'cycles'; id: string }) {
  const q = useQuery({
    queryKey: kind === 'projects' ? keys.projects.progress(id) : keys.cycles.progress(id),
    queryFn: () => readProgress(kind, id),
  });
  const days = q.data?.days ?? [];
  const outlook = q.data?.outlook;
  if (q.isLoading) return <p className="muted small">Loading progress…</p>;
  if (days.length === 0 && !outlook) return <p className="muted small">No progress recorded yet.</p>;
  const last = days.at(-1);
  const firstDate = outlook?.startDate ?? days[0]!.date;
  const lastDate = outlook?.endDate ?? last!.date;
  const from = dayNumber(firstDate);
  const span = Math.max(1, dayNumber(lastDate) - from);
  const top = Math.max(1, outlook?.scope ?? 0, ...days.map((d) => d.scope));
  const x = (date: string) => PAD + ((dayNumber(date) - from) * (W - 2 * PAD)) / span;
  const y = (v: number) => H - PAD - (v * (H - 2 * PAD)) / top;
  const line = (pick: (d: ProgressDay) => number) => days.map((d) => `${x(d.date)},${y(pick(d))}`).join(' ');
  const summary = outlook
    ? `${outlook.completedScope} of ${points(outlook.scope)} done; at this rate ${outlook.projectedScope} by the end (${shortDate(outlook.endDate)}).`
    : `${last!.completedScope} of ${points(last!.scope)} completed.`;
  return (
    <figure className="burnup">
      <figcaption>
        <span>Progress</span>
        <span className="burnup-legend">
          <span className="swatch scope" aria-hidden="true" /> Scope
          <span className="swatch completed" aria-hidden="true" /> Completed
          {outlook && (
            <>
              <span className="swatch ideal" aria-hidden="true" /> Ideal
              <span className="swatch projected" aria-hidden="true" /> Projection
            </>
          )}
        </span>
      </figcaption>
      <p className="burnup-summary" data-testid="burnup-summary">
        {summary}
      </p>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`Burn-up chart from ${firstDate} to ${lastDate}. ${summary}`}
      >
        <line className="axis" x1={PAD} y1={H - PAD} x2={W - PAD} y2={H - PAD} />
        <line className="axis" x1={PAD} y1={PAD} x2={PAD} y2={H - PAD} />
        <text className="tick" x={PAD - 6} y={y(top) + 4} textAnchor="end">
          {top}
        </text>
        <text className="tick" x={PAD - 6} y={H - PAD + 4} textAnchor="end">
          0
        </text>
        <text className="tick" x={PAD} y={H - 8}>
          {firstDate}
        </text>
        <text className="tick" x={W - PAD} y={H - 8} textAnchor="end">
          {lastDate}
        </text>
        {outlook && (
          <line
            className="series ideal"
            data-series="ideal"
            x1={x(firstDate)}
            y1={y(0)}
            x2={x(lastDate)}
            y2={y(outlook.scope)}
          />
        )}
        {outlook && last && (
          <line
            className="series projected"
            data-series="projected"
            x1={x(last.date)}
            y1={y(last.completedScope)}
            x2={x(lastDate)}
            y2={y(outlook.projectedScope)}
          />
        )}
        {days.length > 0 && <polyline className="series scope" points={line((d) => d.scope)} />}
        {days.length > 0 && <polyline className="series completed" points={line((d) => d.completedScope)} />}
      </svg>
      {days.length > 0 && (
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
      )}
    </figure>
  );
}

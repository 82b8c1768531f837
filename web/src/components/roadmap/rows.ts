// The timeline's rows: projects with both a start and a target date, sorted by
// start, optionally under a heading per team or per status (a project of two
// teams shows under both); the others are listed apart, not guessed onto the axis.
import type { RoadmapProject } from '../../lib/roadmap';

export const GROUPINGS = ['none', 'team', 'status'] as const;
export type Grouping = (typeof GROUPINGS)[number];

export type Row =
  | { kind: 'group'; key: string; label: string; count: number }
  | { kind: 'project'; key: string; project: RoadmapProject };

const STATUS_ORDER = ['backlog', 'planned', 'started', 'paused', 'completed', 'canceled'];
export const statusName = (s: string) => (s[0]?.toUpperCase() ?? '') + s.slice(1);

const byDates = (a: RoadmapProject, b: RoadmapProject) =>
  (a.startDate ?? '').localeCompare(b.startDate ?? '') ||
  (a.targetDate ?? '').localeCompare(b.targetDate ?? '') ||
  a.name.localeCompare(b.name);

export function rowsOf(projects: readonly RoadmapProject[], grouping: Grouping) {
  const dated = projects.filter((p) => p.startDate && p.targetDate).sort(byDates);
  const undated = projects
    .filter((p) => !(p.startDate && p.targetDate))
    .sort((a, b) => a.name.localeCompare(b.name));
  const rows: Row[] = [];
  const group = (key: string, label: string, members: RoadmapProject[]) => {
    if (members.length === 0) return;
    rows.push({ kind: 'group', key: `g:${key}`, label, count: members.length });
    for (const p of members) rows.push({ kind: 'project', key: `${key}:${p.id}`, project: p });
  };
  if (grouping === 'none') for (const p of dated) rows.push({ kind: 'project', key: p.id, project: p });
  else if (grouping === 'status') {
    const known = [
      ...STATUS_ORDER,
      ...new Set(dated.map((p) => p.state).filter((s) => !STATUS_ORDER.includes(s))),
    ];
    for (const s of known)
      group(
        s,
        statusName(s),
        dated.filter((p) => p.state === s),
      );
  } else {
    const teams = new Map<string, string>();
    for (const p of dated) for (const t of p.teams) teams.set(t.id, t.name);
    const ordered = [...teams].sort((a, b) => a[1].localeCompare(b[1]));
    for (const [id, name] of ordered)
      group(
        id,
        name,
        dated.filter((p) => p.teams.some((t) => t.id === id)),
      );
    group(
      'none',
      'No team',
      dated.filter((p) => p.teams.length === 0),
    );
  }
  return { rows, undated };
}

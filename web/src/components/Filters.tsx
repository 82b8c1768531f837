// The filter bar shared by the list and the board.
import { useEffect, useState } from 'react';
import { useSession } from '../lib/session';
import { cycleName, type IssueFilters, PRIORITIES, useCycles, useProjects, useRefData } from '../lib/work';

export function FilterBar({
  filters,
  onChange,
  showState = true,
}: {
  filters: IssueFilters;
  onChange: (f: IssueFilters) => void;
  showState?: boolean;
}) {
  const { flag } = useSession();
  const ref = useRefData().data;
  const projects = useProjects(flag('projects')).data;
  const cycles = useCycles(flag('cycles')).data;
  // States and cycles belong to one team: with several teams, say which.
  const keyOf = new Map(ref?.teams.map((t) => [t.id, t.key]));
  const ofTeam = (teamId: string, name: string) =>
    keyOf.size > 1 && keyOf.has(teamId) ? `${keyOf.get(teamId)} · ${name}` : name;
  const set = (k: keyof IssueFilters, v: string) => onChange({ ...filters, [k]: v || undefined });
  const select = (k: keyof IssueFilters, label: string, options: { value: string; label: string }[]) => (
    <label className="filter">
      <span className="filter-label">{label}</span>
      <select value={filters[k] ?? ''} onChange={(e) => set(k, e.target.value)}>
        <option value="">Any</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
  const active = Object.entries(filters).some(([k, v]) => v && k !== 'q');
  return (
    <div className="filter-bar">
      <label className="filter search">
        <span className="filter-label">Search</span>
        <input
          type="search"
          placeholder="Title or text…"
          value={filters.q ?? ''}
          onChange={(e) => set('q', e.target.value)}
        />
      </label>
      {showState &&
        select(
          'state',
          'State',
          (ref?.states ?? []).map((s) => ({ value: s.id, label: ofTeam(s.teamId, s.name) })),
        )}
      {select('assignee', 'Assignee', [
        { value: 'none', label: 'Unassigned' },
        ...(ref?.people ?? []).map((p) => ({ value: p.id, label: p.name })),
      ])}
      {select(
        'label',
        'Label',
        (ref?.labels ?? []).map((l) => ({ value: l.id, label: l.name })),
      )}
      {select(
        'priority',
        'Priority',
        PRIORITIES.map((p) => ({ value: String(p.value), label: p.label })),
      )}
      {flag('projects') &&
        select(
          'project',
          'Project',
          (projects ?? []).map((p) => ({ value: p.id, label: p.name })),
        )}
      {flag('cycles') &&
        select(
          'cycle',
          'Cycle',
          (cycles ?? []).map((c) => ({ value: c.id, label: ofTeam(c.teamId, cycleName(c)) })),
        )}
      {active && (
        <button type="button" className="btn btn-ghost" onClick={() => onChange({ q: filters.q })}>
          Clear filters
        </button>
      )}
    </div>
  );
}

/** Filters survive moving between pages in the same tab. */
export function loadFilters(key: string): IssueFilters {
  try {
    return JSON.parse(sessionStorage.getItem(key) ?? '{}') as IssueFilters;
  } catch {
    return {};
  }
}
export const saveFilters = (key: string, f: IssueFilters) => sessionStorage.setItem(key, JSON.stringify(f));

/** The filters with the search text settled for a moment, so typing does not fire a query per key. */
export function useSettledFilters(f: IssueFilters, ms = 250): IssueFilters {
  const [settled, setSettled] = useState(f);
  const key = JSON.stringify(f);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the filters
  useEffect(() => {
    const immediate = JSON.stringify({ ...f, q: settled.q }) !== JSON.stringify(settled);
    if (immediate) {
      setSettled(f);
      return;
    }
    const t = setTimeout(() => setSettled(f), ms);
    return () => clearTimeout(t);
  }, [key]);
  return settled;
}

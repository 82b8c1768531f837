// The filter bar shared by the list and the board; its values live in the address.
import { useEffect, useState } from 'react';
import { PRIORITIES } from '../lib/issues';
import { cycleName, teamScoped, useCycles, useProjects, useRefData } from '../lib/ref';
import { useSession } from '../lib/session';
import { FILTER_KEYS, type FilterKey, isFiltered, type View } from '../lib/view';

export function FilterBar({
  view,
  onChange,
  showState = true,
  hide = [],
}: {
  view: View;
  onChange: (v: View) => void;
  showState?: boolean;
  /** Filters fixed by the page, not offered. */
  hide?: FilterKey[];
}) {
  const { flag } = useSession();
  const ref = useRefData().data;
  const projects = useProjects(flag('projects')).data;
  const cycles = useCycles(flag('cycles')).data;
  const set = (k: FilterKey | 'q', v: string) => onChange({ ...view, [k]: v || undefined });
  const select = (k: FilterKey, label: string, options: { value: string; label: string }[]) =>
    hide.includes(k) ? null : (
      <label className="filter">
        <span className="filter-label">{label}</span>
        <select value={view[k] ?? ''} onChange={(e) => set(k, e.target.value)}>
          <option value="">Any</option>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </label>
    );
  const clear = () => {
    const next: View = { ...view };
    for (const k of FILTER_KEYS) delete next[k];
    onChange(next);
  };
  return (
    <div className="filter-bar">
      <label className="filter search">
        <span className="filter-label">Search</span>
        <input
          type="search"
          placeholder="Title or text…"
          value={view.q ?? ''}
          onChange={(e) => set('q', e.target.value)}
          // Escape leaves the box with its text kept (`/` came in), so the list's keys work again.
          onKeyDown={(e) => {
            if (e.key !== 'Escape') return;
            e.preventDefault();
            e.currentTarget.blur();
          }}
        />
      </label>
      {(ref?.teams.length ?? 0) > 1 &&
        select(
          'team',
          'Team',
          (ref?.teams ?? []).map((t) => ({ value: t.id, label: t.name })),
        )}
      {showState &&
        select(
          'state',
          'State',
          (ref?.states ?? [])
            .filter((s) => !view.team || s.teamId === view.team)
            .map((s) => ({ value: s.id, label: teamScoped(ref, s.teamId, s.name) })),
        )}
      {select('assignee', 'Assignee', [
        { value: 'me', label: 'Me' },
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
        select('project', 'Project', [
          { value: 'none', label: 'No project' },
          ...(projects ?? []).map((p) => ({ value: p.id, label: p.name })),
        ])}
      {flag('cycles') &&
        select('cycle', 'Cycle', [
          { value: 'none', label: 'No cycle' },
          ...(cycles ?? [])
            .filter((c) => !view.team || c.teamId === view.team)
            .map((c) => ({ value: c.id, label: teamScoped(ref, c.teamId, cycleName(c)) })),
        ])}
      {isFiltered(view) && (
        <button type="button" className="btn btn-ghost" onClick={clear}>
          Clear filters
        </button>
      )}
    </div>
  );
}

/** The filters with the search text settled for a moment, so typing does not fire a query per key. */
export function useSettledFilters(f: View, ms = 250): View {
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

// Editing many issues at once: the bar that appears over a list with a
// selection. Each choice applies to every selected issue in batches of 50
// (issueBatchUpdate), shows at once, and is put back if the server refuses.
// States and cycles belong to a team, so they are offered only when every
// selected issue is in the same team.
import type { ReactNode } from 'react';
import { useAction } from '../lib/action';
import { type Issue, type IssueUpdateInput, PRIORITIES, updateIssues } from '../lib/issues';
import { cycleName, useCycles, useProjects, useRefData } from '../lib/ref';
import { useSession } from '../lib/session';
import { ErrorMessage } from './ui';

export function BulkBar({ selected, onClear }: { selected: Issue[]; onClear: () => void }) {
  const { flag } = useSession();
  const ref = useRefData().data;
  const projects = useProjects(flag('projects')).data;
  const cycles = useCycles(flag('cycles')).data;
  // Each write patches every list at once and puts the rows back if refused (lib/issues.ts updateIssues).
  const applying = useAction(({ input, local }: { input: IssueUpdateInput; local?: Partial<Issue> }) =>
    updateIssues(ids, input, local),
  );
  const { error, busy } = applying;
  const teams = new Set(selected.map((i) => i.teamId));
  const team = teams.size === 1 ? ref?.teamById.get([...teams][0]!) : undefined;
  const ids = selected.map((i) => i.id);

  const apply = (input: IssueUpdateInput, local?: Partial<Issue>) =>
    applying.run(local ? { input, local } : { input });
  /** A select that acts on choosing and then shows its prompt again. */
  const action = (label: string, options: ReactNode, run: (value: string) => void) => (
    <label className="filter">
      <span className="filter-label">{label}</span>
      <select
        value=""
        disabled={busy}
        onChange={(e) => {
          if (e.target.value !== '') run(e.target.value);
        }}
      >
        <option value="">Set…</option>
        {options}
      </select>
    </label>
  );
  // Ids are UUIDs, so this word cannot be one.
  const none = 'none';
  const idOrNull = (v: string) => (v === none ? null : v);

  return (
    <div className="bulk-bar" role="toolbar" aria-label="Bulk edit" aria-busy={busy || undefined}>
      <span className="bulk-count" aria-live="polite">
        {selected.length} selected
      </span>
      {team &&
        action(
          'State',
          team.states.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          )),
          (stateId) => apply({ stateId }, { stateId }),
        )}
      {action(
        'Priority',
        PRIORITIES.map((p) => (
          <option key={p.value} value={p.value}>
            {p.label}
          </option>
        )),
        (v) => apply({ priority: Number(v) }, { priority: Number(v) }),
      )}
      {action(
        'Assignee',
        <>
          <option value={none}>Unassigned</option>
          {ref?.people.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </>,
        (v) => apply({ assigneeId: idOrNull(v) }, { assigneeId: idOrNull(v) }),
      )}
      {action(
        'Add label',
        ref?.labels.map((l) => (
          <option key={l.id} value={l.id}>
            {l.name}
          </option>
        )),
        (v) => apply({ addedLabelIds: [v] }),
      )}
      {flag('projects') &&
        action(
          'Project',
          <>
            <option value={none}>No project</option>
            {projects?.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </>,
          (v) => apply({ projectId: idOrNull(v) }, { projectId: idOrNull(v) }),
        )}
      {flag('cycles') &&
        team &&
        action(
          'Cycle',
          <>
            <option value={none}>No cycle</option>
            {cycles
              ?.filter((c) => c.teamId === team.id)
              .map((c) => (
                <option key={c.id} value={c.id}>
                  {cycleName(c)}
                </option>
              ))}
          </>,
          (v) => apply({ cycleId: idOrNull(v) }, { cycleId: idOrNull(v) }),
        )}
      {!team && <span className="muted small">State and cycle: choose issues of one team</span>}
      <button type="button" className="btn btn-ghost" onClick={onClear}>
        Clear selection
      </button>
      <ErrorMessage error={error} />
    </div>
  );
}

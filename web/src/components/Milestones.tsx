// Project milestones in the UI: the list under a project (progress, status,
// reorder, add, delete) and the picker on an issue, which offers only the
// milestones of the issue's own project. Both read REST, which lists them in
// the project's order (sortOrder, then oldest first).

import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useAction } from '../lib/action';
import { ok, type RestData, rest } from '../lib/api';
import { keys } from '../lib/query-keys';
import { Button, ErrorMessage, fieldErrors, Loading, SelectField, TextField } from './ui';

export type Milestone = RestData<'get', '/api/projects/{id}/milestones'>['milestones'][number];

const STATUS_LABEL: Record<Milestone['status'], string> = {
  done: 'Done',
  next: 'Next',
  overdue: 'Overdue',
  unstarted: 'Not started',
};

export function useMilestones(projectId: string | null) {
  return useQuery({
    queryKey: keys.milestones(projectId),
    queryFn: async () =>
      (await ok(rest.GET('/api/projects/{id}/milestones', { params: { path: { id: projectId! } } })))
        .milestones,
    enabled: Boolean(projectId),
  });
}

/** A milestone picker for an issue; hidden while the issue has no project. */
export function MilestonePicker({
  projectId,
  value,
  onChange,
  disabled,
}: {
  projectId: string | null;
  value: string | null;
  onChange: (milestoneId: string | null) => void;
  disabled?: boolean;
}) {
  const q = useMilestones(projectId);
  if (!projectId) return null;
  return (
    <SelectField
      label="Milestone"
      value={value ?? ''}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value || null)}
    >
      <option value="">No milestone</option>
      {q.data?.map((m) => (
        <option key={m.id} value={m.id}>
          {m.name}
        </option>
      ))}
    </SelectField>
  );
}

/** A project's milestones with their progress; members add, reorder and delete them. */
export function ProjectMilestones({ projectId, projectName }: { projectId: string; projectName: string }) {
  const q = useMilestones(projectId);
  const [name, setName] = useState('');
  const [targetDate, setTargetDate] = useState('');
  // Adding, moving and deleting share one busy state and one error, under the form.
  const state = useAction((write: () => Promise<unknown>) => write(), {
    refreshes: [keys.milestones(projectId)],
  });
  const run = state.run;
  const byId = (id: string) => ({ params: { path: { id } } });

  async function add(e: FormEvent) {
    e.preventDefault();
    const body = { name, ...(targetDate ? { targetDate } : {}) };
    if (await run(() => ok(rest.POST('/api/projects/{id}/milestones', { ...byId(projectId), body })))) {
      setName('');
      setTargetDate('');
    }
  }

  /** Swaps places with the neighbour by giving it a sortOrder just past it. */
  function move(list: Milestone[], i: number, by: -1 | 1) {
    const other = list[i + by];
    const m = list[i];
    if (!other || !m) return;
    const beyond = list[i + 2 * by];
    const sortOrder = beyond ? (other.sortOrder + beyond.sortOrder) / 2 : other.sortOrder + by;
    void run(() => ok(rest.PATCH('/api/milestones/{id}', { ...byId(m.id), body: { sortOrder } })));
  }

  return (
    <section className="milestones" aria-label={`Milestones of ${projectName}`}>
      {q.isLoading && <Loading label="Loading milestones" />}
      <ErrorMessage error={q.error} />
      {q.data?.length === 0 && <p className="muted small">No milestones yet.</p>}
      {q.data && q.data.length > 0 && (
        <ol className="milestone-list">
          {q.data.map((m, i, list) => {
            const pct = Math.round(m.progress.progress * 100);
            return (
              <li key={m.id} className={`milestone ${m.status}`}>
                <strong>{m.name}</strong>
                <span className={`badge status-${m.status}`}>{STATUS_LABEL[m.status]}</span>
                {m.targetDate && <span className="muted small">Target {m.targetDate}</span>}
                <span className="progress">
                  <progress max={100} value={pct} aria-label={`${m.name}: ${pct}% complete`} />
                  <span className="muted small">
                    {m.progress.completedIssueCount}/{m.progress.issueCount} done
                  </span>
                </span>
                <Button
                  variant="ghost"
                  aria-label={`Move ${m.name} up`}
                  disabled={i === 0}
                  onClick={() => move(list, i, -1)}
                >
                  ↑
                </Button>
                <Button
                  variant="ghost"
                  aria-label={`Move ${m.name} down`}
                  disabled={i === list.length - 1}
                  onClick={() => move(list, i, 1)}
                >
                  ↓
                </Button>
                <Button
                  variant="ghost"
                  aria-label={`Delete ${m.name}`}
                  onClick={() => {
                    if (confirm(`Delete milestone ${m.name}? Its issues stay in the project.`))
                      void run(() => ok(rest.DELETE('/api/milestones/{id}', byId(m.id))));
                  }}
                >
                  ×
                </Button>
              </li>
            );
          })}
        </ol>
      )}
      <form onSubmit={add} className="inline-form">
        <TextField
          label="New milestone"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={fieldErrors(state.error).name}
        />
        <TextField
          label="Target date"
          type="date"
          value={targetDate}
          onChange={(e) => setTargetDate(e.target.value)}
          error={fieldErrors(state.error).targetDate}
        />
        <Button type="submit" variant="primary" busy={state.busy} disabled={!name.trim()}>
          Add milestone
        </Button>
      </form>
      <ErrorMessage error={state.error} />
    </section>
  );
}

// "New issue" dialog (button or C from anywhere).

import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useAction } from '../lib/action';
import { defaultTeam, rememberTeam } from '../lib/default-team';
import { createIssue, PRIORITIES } from '../lib/issues';
import { cycleName, labelsFor, useCycles, useProjects, useRefData } from '../lib/ref';
import { useSession } from '../lib/session';
import { LabelPicker } from './LabelPicker';
import { MarkdownField } from './MarkdownField';
import { Button, Dialog, ErrorMessage, Kbd, Loading, SelectField, TextField } from './ui';

/** `teamId`: the team it starts in; without it, the person's own (lib/default-team.ts). */
export function CreateIssueDialog({ onClose, teamId }: { onClose: () => void; teamId?: string }) {
  const navigate = useNavigate();
  const { flag } = useSession();
  const ref = useRefData();
  const projects = useProjects(flag('projects')).data;
  const cycles = useCycles(flag('cycles')).data;
  const [form, setForm] = useState({
    title: '',
    description: '',
    teamId: teamId ?? '',
    stateId: '',
    priority: 0,
    assigneeId: '',
    projectId: '',
    cycleId: '',
    labelIds: [] as string[],
  });
  const [titleError, setTitleError] = useState<string | undefined>();
  const team = ref.data?.teams.find((t) => t.id === form.teamId) ?? defaultTeam(ref.data);
  const creating = useAction(
    (teamId: string) =>
      createIssue(
        {
          title: form.title.trim(),
          teamId,
          priority: form.priority,
          ...(form.description ? { description: form.description } : {}),
          ...(form.stateId ? { stateId: form.stateId } : {}),
          ...(form.assigneeId ? { assigneeId: form.assigneeId } : {}),
          ...(form.projectId ? { projectId: form.projectId } : {}),
          ...(form.cycleId ? { cycleId: form.cycleId } : {}),
          ...(form.labelIds.length ? { labelIds: form.labelIds } : {}),
        },
        draft(teamId),
      ),
    {
      onSuccess: (issue, teamId) => {
        rememberTeam(teamId);
        onClose();
        sessionStorage.setItem('toast', `Created ${issue.identifier}`);
        void navigate({ to: `/issue/${issue.identifier}` });
      },
      // The server is away: the draft stays in the lists, marked as sending, until it is created.
      onQueued: (teamId) => {
        rememberTeam(teamId);
        onClose();
      },
    },
  );
  const state = { busy: creating.busy, error: creating.error, titleError };

  /** The new issue as lists show it while it is being sent (lib/issues.ts createIssue). */
  function draft(teamId: string) {
    const states = ref.data?.teamById.get(teamId)?.states ?? [];
    const stateId = form.stateId || (states.find((s) => s.type === 'backlog') ?? states[0])?.id;
    if (!stateId) return undefined;
    const now = new Date().toISOString();
    return {
      identifier: `${ref.data?.teamById.get(teamId)?.key ?? ''}-…`,
      title: form.title.trim(),
      priority: form.priority,
      estimate: null,
      dueDate: null,
      createdAt: now,
      updatedAt: now,
      stateId,
      teamId,
      assigneeId: form.assigneeId || null,
      projectId: form.projectId || null,
      cycleId: form.cycleId || null,
      labelIds: form.labelIds,
    };
  }

  function submit(e?: FormEvent) {
    e?.preventDefault();
    const missing = !form.title.trim();
    setTitleError(missing ? 'Give the issue a title' : undefined);
    if (missing) return creating.reset();
    if (team) void creating.run(team.id);
  }

  return (
    <Dialog title="New issue" onClose={onClose} wide>
      <form
        onSubmit={submit}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) void submit();
        }}
      >
        <div className="dialog-body">
          {ref.isLoading && <Loading />}
          <ErrorMessage error={ref.error} />
          <TextField
            label="Title"
            autoFocus
            value={form.title}
            onChange={(e) => setForm({ ...form, title: e.target.value })}
            error={state.titleError}
            placeholder="Issue title"
          />
          <MarkdownField
            label="Description"
            value={form.description}
            placeholder="Add a description… (/ for blocks, @ to mention)"
            onText={(description) => setForm((f) => ({ ...f, description }))}
          />
          <div className="prop-grid">
            {ref.data && ref.data.teams.length > 1 && (
              <SelectField
                label="Team"
                value={team?.id}
                // Another team's states, cycles and labels do not apply: they are chosen again.
                onChange={(e) =>
                  setForm({ ...form, teamId: e.target.value, stateId: '', cycleId: '', labelIds: [] })
                }
              >
                {ref.data.teams.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </SelectField>
            )}
            <SelectField
              label="State"
              value={form.stateId}
              onChange={(e) => setForm({ ...form, stateId: e.target.value })}
            >
              <option value="">Default (Backlog)</option>
              {team?.states.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </SelectField>
            <SelectField
              label="Priority"
              value={form.priority}
              onChange={(e) => setForm({ ...form, priority: Number(e.target.value) })}
            >
              {PRIORITIES.map((p) => (
                <option key={p.value} value={p.value}>
                  {p.label}
                </option>
              ))}
            </SelectField>
            <SelectField
              label="Assignee"
              value={form.assigneeId}
              onChange={(e) => setForm({ ...form, assigneeId: e.target.value })}
            >
              <option value="">Unassigned</option>
              {ref.data?.people.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </SelectField>
            {flag('projects') && (
              <SelectField
                label="Project"
                value={form.projectId}
                onChange={(e) => setForm({ ...form, projectId: e.target.value })}
              >
                <option value="">No project</option>
                {projects?.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </SelectField>
            )}
            {flag('cycles') && (
              <SelectField
                label="Cycle"
                value={form.cycleId}
                onChange={(e) => setForm({ ...form, cycleId: e.target.value })}
              >
                <option value="">No cycle</option>
                {cycles
                  ?.filter((c) => c.teamId === team?.id && !cycleIsPast(c))
                  .map((c) => (
                    <option key={c.id} value={c.id}>
                      {cycleName(c)}
                    </option>
                  ))}
              </SelectField>
            )}
          </div>
          {ref.data && team && (
            <LabelPicker
              labels={labelsFor(ref.data, [team.id])}
              value={form.labelIds}
              onChange={(labelIds) => setForm({ ...form, labelIds })}
            />
          )}
          <ErrorMessage error={state.error} />
        </div>
        <div className="dialog-foot">
          <span className="muted">
            <Kbd>Ctrl Enter</Kbd> to create
          </span>
          <div className="row">
            <Button onClick={onClose}>Cancel</Button>
            <Button type="submit" variant="primary" busy={state.busy}>
              Create issue
            </Button>
          </div>
        </div>
      </form>
    </Dialog>
  );
}

const cycleIsPast = (c: { isActive: boolean; isFuture: boolean }) => !c.isActive && !c.isFuture;

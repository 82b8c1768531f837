// A team's workflow states, grouped by type in workflow order: rename, recolour,
// reorder within the type (up/down buttons), add, and archive with a
// replacement that takes the state's issues.
import { useEffect, useRef, useState } from 'react';
import { rowError, useAction } from '../lib/action';
import { ok, type RestBody, rest } from '../lib/api';
import { STATE_TYPES, type StateType, TEAM_CHANGES, useStates, type WorkflowState } from '../lib/teams';
import { Card } from './Card';
import { NameColourRow } from './NameColourRow';
import { Button, Dialog, ErrorMessage, FormError, fieldErrors, Loading, SelectField, TextField } from './ui';

const TYPE_LABEL: Record<StateType, string> = {
  triage: 'Triage',
  backlog: 'Backlog',
  unstarted: 'Unstarted',
  started: 'Started',
  completed: 'Completed',
  canceled: 'Canceled',
};

/** A position that puts a state just before (dir -1) or after (dir 1) its neighbour in the group. */
function movedPosition(group: WorkflowState[], i: number, dir: -1 | 1): number | null {
  const j = i + dir;
  const target = group[j];
  if (!target) return null;
  const beyond = group[j + dir];
  return beyond ? (target.position + beyond.position) / 2 : target.position + dir;
}

export function WorkflowEditor({ teamId }: { teamId: string }) {
  const states = useStates(teamId);
  const [archiving, setArchiving] = useState<WorkflowState | null>(null);
  const [moved, setMoved] = useState<{ id: string; dir: -1 | 1 } | null>(null);
  const list = states.data?.workflowStates ?? [];
  const update = useAction(
    ({ id, patch }: { id: string; patch: RestBody<'patch', '/api/workflow-states/{id}'> }) =>
      ok(rest.PATCH('/api/workflow-states/{id}', { params: { path: { id } }, body: patch })),
    { refreshes: TEAM_CHANGES },
  );

  return (
    <Card
      title="Workflow"
      description="Issues move through these states. Each type (backlog to canceled) keeps at least one state; new issues start in the first backlog state. A state's type cannot change: add one of the new type and archive the old one."
    >
      {states.isLoading && <Loading label="Loading workflow" />}
      <ErrorMessage error={states.error} />
      {STATE_TYPES.map((type) => {
        const group = list.filter((s) => s.type === type).sort((a, b) => a.position - b.position);
        if (group.length === 0 && type === 'triage') return null;
        return (
          <section key={type} className="state-group" aria-labelledby={`st-${type}`}>
            <h3 id={`st-${type}`}>{TYPE_LABEL[type]}</h3>
            <ul className="state-list">
              {group.map((s, i) => (
                <StateRow
                  key={`${s.id}:${s.name}:${s.color}`}
                  state={s}
                  first={i === 0}
                  last={i === group.length - 1}
                  onSave={async (patch) => void (await update.run({ id: s.id, patch }))}
                  onMove={(dir) => {
                    const position = movedPosition(group, i, dir);
                    if (position === null) return;
                    setMoved({ id: s.id, dir });
                    void update.run({ id: s.id, patch: { position } });
                  }}
                  onArchive={() => setArchiving(s)}
                  refocus={moved?.id === s.id ? moved.dir : undefined}
                  error={rowError(update, s.id) ?? undefined}
                />
              ))}
            </ul>
          </section>
        );
      })}
      {states.data && <AddState teamId={teamId} />}
      {archiving && <ArchiveState state={archiving} states={list} onClose={() => setArchiving(null)} />}
    </Card>
  );
}

function StateRow({
  state,
  first,
  last,
  onSave,
  onMove,
  onArchive,
  refocus,
  error,
}: {
  state: WorkflowState;
  refocus: -1 | 1 | undefined;
  first: boolean;
  last: boolean;
  onSave: (patch: { name: string; color: string }) => Promise<void>;
  onMove: (dir: -1 | 1) => void;
  onArchive: () => void;
  error: unknown;
}) {
  const up = useRef<HTMLButtonElement>(null);
  const down = useRef<HTMLButtonElement>(null);
  // Re-ordering moves the row's DOM node, which drops focus: a keyboard user
  // keeps the button they pressed (or the other one once at the end).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the position lands
  useEffect(() => {
    if (!refocus) return;
    const [mine, other] = refocus < 0 ? [up, down] : [down, up];
    (mine.current?.disabled ? other : mine).current?.focus();
  }, [state.position]);
  return (
    <NameColourRow current={state} what={state.name} onSave={onSave} error={error}>
      <button
        ref={up}
        type="button"
        className="btn btn-ghost"
        disabled={first}
        aria-label={`Move ${state.name} up`}
        onClick={() => onMove(-1)}
      >
        ↑
      </button>
      <button
        ref={down}
        type="button"
        className="btn btn-ghost"
        disabled={last}
        aria-label={`Move ${state.name} down`}
        onClick={() => onMove(1)}
      >
        ↓
      </button>
      <Button variant="danger" aria-label={`Archive ${state.name}`} onClick={onArchive}>
        Archive
      </Button>
    </NameColourRow>
  );
}

function AddState({ teamId }: { teamId: string }) {
  const [form, setForm] = useState({ name: '', type: 'unstarted' as StateType, color: '#95a2b3' });
  const state = useAction(
    () => ok(rest.POST('/api/workflow-states', { body: { teamId, ...form, name: form.name.trim() } })),
    { refreshes: TEAM_CHANGES, onSuccess: () => setForm({ ...form, name: '' }) },
  );
  const fields = fieldErrors(state.error);

  return (
    <form onSubmit={state.submit} className="grid-form" aria-label="Add a state">
      <TextField
        label="New state name"
        value={form.name}
        onChange={(e) => setForm({ ...form, name: e.target.value })}
        error={fields.name}
      />
      <SelectField
        label="New state type"
        value={form.type}
        onChange={(e) => setForm({ ...form, type: e.target.value as StateType })}
        error={fields.type}
      >
        {STATE_TYPES.map((t) => (
          <option key={t} value={t}>
            {TYPE_LABEL[t]}
          </option>
        ))}
      </SelectField>
      <div className="field">
        <label htmlFor="new-state-color">New state colour</label>
        <input
          id="new-state-color"
          type="color"
          value={form.color}
          onChange={(e) => setForm({ ...form, color: e.target.value })}
        />
      </div>
      <div className="grid-form-submit">
        <Button type="submit" variant="primary" busy={state.busy} disabled={!form.name.trim()}>
          Add state
        </Button>
      </div>
      <FormError error={state.error} />
    </form>
  );
}

function ArchiveState({
  state,
  states,
  onClose,
}: {
  state: WorkflowState;
  states: WorkflowState[];
  onClose: () => void;
}) {
  // Same-type states first: issues keep their kind of progress.
  const others = states
    .filter((s) => s.id !== state.id)
    .sort((a, b) => Number(b.type === state.type) - Number(a.type === state.type));
  const [replacement, setReplacement] = useState(others[0]?.id ?? '');
  const st = useAction(
    () =>
      ok(
        rest.POST('/api/workflow-states/{id}/archive', {
          params: { path: { id: state.id } },
          // The route reads its optional body itself (its description says so): the document has no
          // body schema to type this by.
          body: { replacementStateId: replacement } as never,
        }),
      ),
    { refreshes: TEAM_CHANGES, onSuccess: onClose },
  );
  const fields = fieldErrors(st.error);

  return (
    <Dialog title={`Archive ${state.name}`} onClose={onClose}>
      <form onSubmit={st.submit}>
        <p className="muted">
          Its issues move to the replacement state (their progress times follow its type). The state leaves
          the workflow and can no longer be given to an issue.
        </p>
        <SelectField
          label="Replacement state"
          value={replacement}
          required
          onChange={(e) => setReplacement(e.target.value)}
          error={fields.replacementStateId}
        >
          {others.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name} ({TYPE_LABEL[s.type]})
            </option>
          ))}
        </SelectField>
        {st.error && !fields.replacementStateId ? <ErrorMessage error={st.error} /> : null}
        <div className="row">
          <Button type="submit" variant="danger" busy={st.busy} disabled={!replacement}>
            Archive state
          </Button>
          <Button onClick={onClose}>Cancel</Button>
        </div>
      </form>
    </Dialog>
  );
}

// Labels of one team (teamId) or of the whole workspace (teamId null): create
// with a name and a colour, rename, recolour, delete after a confirmation.
import { type FormEvent, useState } from 'react';
import { api } from '../lib/api';
import { type LabelRecord, refreshTeams, useLabels } from '../lib/teams';
import { NameColourRow } from './NameColourRow';
import { Button, ErrorMessage, fieldErrors, Loading, TextField } from './ui';

export function LabelsEditor({ teamId, title }: { teamId: string | null; title: string }) {
  const labels = useLabels(teamId);
  const [form, setForm] = useState({ name: '', color: '#5e6ad2' });
  const [state, setState] = useState<{ busy?: boolean; error?: unknown }>({});
  const [rowError, setRowError] = useState<{ id: string; error: unknown } | null>(null);
  const fields = fieldErrors(state.error);
  const scope = teamId ? 'team' : 'workspace';

  async function create(e: FormEvent) {
    e.preventDefault();
    setState({ busy: true });
    try {
      await api.post('/labels', { name: form.name.trim(), color: form.color, ...(teamId ? { teamId } : {}) });
      setForm({ ...form, name: '' });
      setState({});
      refreshTeams();
    } catch (error) {
      setState({ error });
    }
  }

  async function act(l: LabelRecord, fn: () => Promise<unknown>) {
    setRowError(null);
    try {
      await fn();
      refreshTeams();
    } catch (error) {
      setRowError({ id: l.id, error });
    }
  }

  return (
    <section className="card" aria-labelledby={`labels-${scope}-h`}>
      <h2 id={`labels-${scope}-h`}>{title}</h2>
      <p className="muted">
        {teamId
          ? 'These labels can be put only on this team’s issues.'
          : 'Workspace labels can be put on the issues of every team.'}
      </p>
      {labels.isLoading && <Loading label="Loading labels" />}
      <ErrorMessage error={labels.error} />
      <ul className="state-list">
        {labels.data?.map((l) => (
          <LabelRow
            key={`${l.id}:${l.name}:${l.color}`}
            label={l}
            onSave={(patch) => act(l, () => api.patch(`/labels/${l.id}`, patch))}
            onDelete={() => {
              if (confirm(`Delete the label ${l.name}? It is removed from every issue.`))
                void act(l, () => api.del(`/labels/${l.id}`));
            }}
            error={rowError?.id === l.id ? rowError.error : undefined}
          />
        ))}
        {labels.data?.length === 0 && <li className="muted">No labels yet.</li>}
      </ul>
      <form onSubmit={create} className="grid-form" aria-label={`New ${scope} label`}>
        <TextField
          label={`New ${scope} label name`}
          value={form.name}
          onChange={(e) => setForm({ ...form, name: e.target.value })}
          error={fields.name}
        />
        <div className="field">
          <label htmlFor={`new-${scope}-label-color`}>New {scope} label colour</label>
          <input
            id={`new-${scope}-label-color`}
            type="color"
            value={form.color}
            onChange={(e) => setForm({ ...form, color: e.target.value })}
          />
        </div>
        <div className="grid-form-submit">
          <Button type="submit" variant="primary" busy={state.busy} disabled={!form.name.trim()}>
            Create {scope} label
          </Button>
        </div>
      </form>
      {state.error && Object.keys(fields).length === 0 ? <ErrorMessage error={state.error} /> : null}
    </section>
  );
}

function LabelRow({
  label,
  onSave,
  onDelete,
  error,
}: {
  label: LabelRecord;
  onSave: (patch: { name: string; color: string }) => Promise<void>;
  onDelete: () => void;
  error: unknown;
}) {
  return (
    <NameColourRow current={label} what={`label ${label.name}`} onSave={onSave} error={error}>
      <Button variant="danger" aria-label={`Delete label ${label.name}`} onClick={onDelete}>
        Delete
      </Button>
    </NameColourRow>
  );
}

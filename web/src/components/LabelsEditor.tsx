// Labels of one team (teamId) or of the whole workspace (teamId null): create
// with a name and a colour, rename, recolour, delete after a confirmation.
import { useState } from 'react';
import { rowError, useAction } from '../lib/action';
import { ok, rest } from '../lib/api';
import { type LabelRecord, TEAM_CHANGES, useLabels } from '../lib/teams';
import { ListCard } from './Card';
import { NameColourRow } from './NameColourRow';
import { Button, FormError, fieldErrors, TextField } from './ui';

export function LabelsEditor({ teamId, title }: { teamId: string | null; title: string }) {
  const labels = useLabels(teamId);
  const [form, setForm] = useState({ name: '', color: '#5e6ad2' });
  const state = useAction(
    () =>
      ok(
        rest.POST('/api/labels', {
          body: { name: form.name.trim(), color: form.color, ...(teamId ? { teamId } : {}) },
        }),
      ),
    { refreshes: TEAM_CHANGES, onSuccess: () => setForm({ ...form, name: '' }) },
  );
  /** A change to one row (rename, recolour, delete); its error shows on that row. */
  const row = useAction(({ write }: { id: string; write: () => Promise<unknown> }) => write(), {
    refreshes: TEAM_CHANGES,
  });
  const fields = fieldErrors(state.error);
  const scope = teamId ? 'team' : 'workspace';
  const path = (id: string) => ({ params: { path: { id } } });

  return (
    <ListCard
      title={title}
      description={
        teamId
          ? 'These labels can be put only on this team’s issues.'
          : 'Workspace labels can be put on the issues of every team.'
      }
      query={labels}
      loadingLabel="Loading labels"
      items={labels.data}
      empty="No labels yet."
      listClass="state-list"
      row={(l) => (
        <LabelRow
          key={`${l.id}:${l.name}:${l.color}`}
          label={l}
          onSave={async (patch) =>
            void (await row.run({
              id: l.id,
              write: () => ok(rest.PATCH('/api/labels/{id}', { ...path(l.id), body: patch })),
            }))
          }
          onDelete={() => {
            if (confirm(`Delete the label ${l.name}? It is removed from every issue.`))
              void row.run({ id: l.id, write: () => ok(rest.DELETE('/api/labels/{id}', path(l.id))) });
          }}
          error={rowError(row, l.id) ?? undefined}
        />
      )}
    >
      <form onSubmit={state.submit} className="grid-form" aria-label={`New ${scope} label`}>
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
      <FormError error={state.error} />
    </ListCard>
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

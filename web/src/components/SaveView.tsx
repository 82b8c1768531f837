// "Save view": keeps what a list shows (its filters as an IssueFilter, its
// grouping, order and properties) under a name, for oneself or shared.
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { IssueFilter } from '../gql/graphql';
import { useAction } from '../lib/action';
import { useSession } from '../lib/session';
import type { View } from '../lib/view';
import { saveView, toDisplay } from '../lib/views';
import { Button, Dialog, FormError, fieldErrors, TextField } from './ui';

export function SaveViewButton({ view, filter }: { view: View; filter: IssueFilter }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Save view</Button>
      {open && <SaveViewDialog view={view} filter={filter} onClose={() => setOpen(false)} />}
    </>
  );
}

function SaveViewDialog({ view, filter, onClose }: { view: View; filter: IssueFilter; onClose: () => void }) {
  const { user } = useSession();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  const saving = useAction(
    () => saveView({ name: name.trim(), shared, filterData: filter, display: toDisplay(view) }),
    {
      onSuccess: (saved) => {
        onClose();
        void navigate({ to: '/views/$id', params: { id: saved.id } });
      },
    },
  );
  const { error, busy, submit } = saving;
  const fields = fieldErrors(error);
  return (
    <Dialog title="Save view" onClose={onClose}>
      <form onSubmit={submit}>
        <div className="dialog-body">
          <TextField
            label="Name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={fields.name}
            required
          />
          {user?.role !== 'guest' && (
            <label className="check">
              <input type="checkbox" checked={shared} onChange={(e) => setShared(e.target.checked)} />
              Share with the workspace (everyone sees it in their sidebar)
            </label>
          )}
          <FormError error={error} />
        </div>
        <div className="dialog-foot">
          <span className="muted small">Saves the filters, grouping, order and shown properties.</span>
          <div className="row">
            <Button onClick={onClose}>Cancel</Button>
            <Button type="submit" variant="primary" busy={busy}>
              Save
            </Button>
          </div>
        </div>
      </form>
    </Dialog>
  );
}

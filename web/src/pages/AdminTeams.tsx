// Administration: the list of teams and a form to create one. Each team opens
// its own page (AdminTeam.tsx) for settings, members, workflow and labels.

import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { Card, ListCard } from '../components/Card';
import { LabelsEditor } from '../components/LabelsEditor';
import { Button, FormError, fieldErrors, PageHeader, TextField } from '../components/ui';
import { useAction } from '../lib/action';
import { ok, rest } from '../lib/api';
import { TEAM_CHANGES, useTeams } from '../lib/teams';

const EMPTY = { key: '', name: '', description: '', private: false, timezone: 'UTC' };

export function AdminTeams() {
  const navigate = useNavigate();
  const teams = useTeams();
  const [form, setForm] = useState(EMPTY);
  const state = useAction(
    () =>
      ok(
        rest.POST('/api/teams', {
          body: {
            key: form.key,
            name: form.name,
            description: form.description.trim() || null,
            private: form.private,
            timezone: form.timezone.trim() || 'UTC',
          },
        }),
      ),
    {
      refreshes: TEAM_CHANGES,
      onSuccess: ({ team }) => {
        setForm(EMPTY);
        void navigate({ to: `/admin/teams/${team.id}` });
      },
    },
  );
  const fields = fieldErrors(state.error);
  const create = state.submit;

  return (
    <div className="page">
      <PageHeader title="Teams" />
      <ListCard
        title="All teams"
        query={teams}
        loadingLabel="Loading teams"
        items={teams.data?.teams}
        columns={['Key', 'Name', 'Visibility', 'Status', 'Members']}
        row={(t) => (
          <tr key={t.id}>
            <td>
              <code>{t.key}</code>
            </td>
            <td>
              <Link to={`/admin/teams/${t.id}`}>{t.name}</Link>
            </td>
            <td>{t.private ? 'Private' : 'Public'}</td>
            <td>
              <span className={`status-pill ${t.archivedAt ? 'disabled' : 'active'}`}>
                {t.archivedAt ? 'archived' : 'active'}
              </span>
            </td>
            <td>{t.memberCount ?? '…'}</td>
          </tr>
        )}
      />
      <Card title="Create a team">
        <form onSubmit={create} className="grid-form">
          <TextField
            label="Team key"
            value={form.key}
            maxLength={7}
            hint="Prefixes issue identifiers, e.g. ENG-12: a capital letter, then up to 6 capitals or digits."
            onChange={(e) => setForm({ ...form, key: e.target.value.toUpperCase() })}
            error={fields.key}
          />
          <TextField
            label="Team name"
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
            error={fields.name}
          />
          <TextField
            label="Description"
            value={form.description}
            onChange={(e) => setForm({ ...form, description: e.target.value })}
            error={fields.description}
          />
          <TextField
            label="Time zone"
            value={form.timezone}
            hint="An IANA name such as Europe/Paris."
            onChange={(e) => setForm({ ...form, timezone: e.target.value })}
            error={fields.timezone}
          />
          <label className="check">
            <input
              type="checkbox"
              checked={form.private}
              onChange={(e) => setForm({ ...form, private: e.target.checked })}
            />{' '}
            Private team (new accounts do not join it automatically)
          </label>
          <div className="grid-form-submit">
            <Button type="submit" variant="primary" busy={state.busy}>
              Create team
            </Button>
          </div>
        </form>
        <FormError error={state.error} />
      </Card>
    </div>
  );
}

/** Labels every team can use; each team's own labels are on its page. */
export function AdminLabels() {
  return (
    <div className="page">
      <PageHeader title="Labels" />
      <LabelsEditor teamId={null} title="Workspace labels" />
    </div>
  );
}

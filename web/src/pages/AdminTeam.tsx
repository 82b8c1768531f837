// Administration of one team: its settings, cycle settings, archiving, members, workflow
// states and labels. The id in the address may be an id or a (former) key.

import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { Card } from '../components/Card';
import { CycleSettings } from '../components/CycleSettings';
import { LabelsEditor } from '../components/LabelsEditor';
import { TeamMembers } from '../components/TeamMembers';
import {
  Button,
  ErrorMessage,
  FormError,
  fieldErrors,
  Loading,
  PageHeader,
  TextField,
} from '../components/ui';
import { WorkflowEditor } from '../components/WorkflowEditor';
import { useAction } from '../lib/action';
import { ApiError, ok, rest } from '../lib/api';
import { HEX, TEAM_CHANGES, type TeamRecord, useTeam } from '../lib/teams';

export function AdminTeam({ id }: { id: string }) {
  const q = useTeam(id);
  const team = q.data?.team;
  return (
    <div className="page">
      <p>
        <Link to="/admin/teams">← All teams</Link>
      </p>
      <PageHeader title={team ? `${team.name} (${team.key})` : 'Team'} />
      {q.isLoading && <Loading label="Loading team" />}
      <ErrorMessage error={q.error} />
      {team && (
        <>
          <TeamSettings team={team} />
          <CycleSettings team={team} />
          <TeamArchive team={team} />
          <TeamMembers team={team} />
          <WorkflowEditor teamId={team.id} />
          <LabelsEditor teamId={team.id} title={`Labels of ${team.key}`} />
        </>
      )}
    </div>
  );
}

const formOf = (t: TeamRecord) => ({
  key: t.key,
  name: t.name,
  description: t.description ?? '',
  color: t.color ?? '',
  icon: t.icon ?? '',
  private: t.private,
  timezone: t.timezone,
});

function TeamSettings({ team }: { team: TeamRecord }) {
  const [form, setForm] = useState(() => formOf(team));
  const state = useAction(
    () =>
      ok(
        rest.PATCH('/api/teams/{id}', {
          params: { path: { id: team.id } },
          body: {
            key: form.key,
            name: form.name,
            description: form.description.trim() || null,
            color: form.color ? form.color.toLowerCase() : null,
            icon: form.icon.trim() || null,
            private: form.private,
            timezone: form.timezone.trim(),
          },
        }),
      ),
    { refreshes: TEAM_CHANGES },
  );
  const fields = { ...fieldErrors(state.error) };
  // A taken key is a 409 without a field: it still belongs next to the key.
  if (state.error instanceof ApiError && state.error.code === 'CONFLICT') fields.key ??= state.error.message;
  const colorOk = form.color === '' || HEX.test(form.color);
  // A changed team (saved here or elsewhere) resets the form; a refetch of the
  // same version (after a member or label change) keeps what is being typed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: updatedAt is the version
  useEffect(() => setForm(formOf(team)), [team.updatedAt]);
  const set = (patch: Partial<typeof form>) => {
    setForm({ ...form, ...patch });
    state.reset();
  };
  const save = state.submit;

  return (
    <Card title="Settings">
      <form onSubmit={save} className="grid-form">
        <TextField
          label="Team key"
          value={form.key}
          maxLength={7}
          hint={
            form.key !== team.key
              ? `Issues will be renamed ${form.key || '…'}-n; links to ${team.key}-n keep working. ${team.key} stays reserved for this team.`
              : 'Changing the key renames every issue identifier; the old identifiers keep working.'
          }
          onChange={(e) => set({ key: e.target.value.toUpperCase() })}
          error={fields.key}
        />
        <TextField
          label="Team name"
          value={form.name}
          onChange={(e) => set({ name: e.target.value })}
          error={fields.name}
        />
        <TextField
          label="Description"
          value={form.description}
          onChange={(e) => set({ description: e.target.value })}
          error={fields.description}
        />
        <div className="color-row">
          <TextField
            label="Colour"
            value={form.color}
            placeholder="#rrggbb"
            onChange={(e) => set({ color: e.target.value })}
            error={fields.color ?? (colorOk ? undefined : 'Use the form #rrggbb')}
          />
          <label className="sr-only" htmlFor="team-color-picker">
            Pick team colour
          </label>
          <input
            id="team-color-picker"
            type="color"
            value={HEX.test(form.color) ? form.color.toLowerCase() : '#5e6ad2'}
            onChange={(e) => set({ color: e.target.value })}
          />
        </div>
        <TextField
          label="Icon"
          value={form.icon}
          onChange={(e) => set({ icon: e.target.value })}
          error={fields.icon}
        />
        <TextField
          label="Time zone"
          value={form.timezone}
          hint="An IANA name such as Europe/Paris."
          onChange={(e) => set({ timezone: e.target.value })}
          error={fields.timezone}
        />
        <label className="check">
          <input
            type="checkbox"
            checked={form.private}
            onChange={(e) => set({ private: e.target.checked })}
          />{' '}
          Private team (new accounts do not join it; existing members stay)
        </label>
        <div className="grid-form-submit row">
          <Button type="submit" variant="primary" busy={state.busy} disabled={!colorOk}>
            Save team
          </Button>
          {state.saved && (
            <span className="ok" role="status">
              Saved
            </span>
          )}
        </div>
      </form>
      <FormError error={state.error} />
    </Card>
  );
}

function TeamArchive({ team }: { team: TeamRecord }) {
  const archived = Boolean(team.archivedAt);
  const state = useAction(
    () => {
      const path = { params: { path: { id: team.id } } };
      return archived
        ? ok(rest.POST('/api/teams/{id}/unarchive', path))
        : ok(rest.POST('/api/teams/{id}/archive', path));
    },
    { refreshes: TEAM_CHANGES },
  );

  function toggle() {
    const question = archived
      ? `Unarchive ${team.name}? Issues can be created in it again.`
      : `Archive ${team.name}? Nothing is deleted, but no issue can be created in it or moved to it.`;
    if (confirm(question)) state.submit();
  }

  return (
    <Card
      title={archived ? 'Archived' : 'Archive'}
      description={
        archived
          ? 'This team is archived: its issues can be read and edited, but no issue can be created in it or moved to it.'
          : 'Archiving deletes nothing: issues, states, members and keys stay, and its issues stay editable. No issue can be created in it or moved to it until it is unarchived.'
      }
    >
      <Button variant={archived ? 'secondary' : 'danger'} busy={state.busy} onClick={toggle}>
        {archived ? 'Unarchive team' : 'Archive team'}
      </Button>
      <ErrorMessage error={state.error} />
    </Card>
  );
}

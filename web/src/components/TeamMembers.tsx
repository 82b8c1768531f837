// A team's members on its admin page: list with roles, add a workspace user,
// remove one (after a confirmation).
import { type FormEvent, useState } from 'react';
import { rowError, useAction } from '../lib/action';
import { ok, rest } from '../lib/api';
import { TEAM_CHANGES, type TeamRecord, useMembers, useUsers } from '../lib/teams';
import { ListCard } from './Card';
import { Button, ErrorMessage, FormError, fieldErrors, SelectField } from './ui';

export function TeamMembers({ team }: { team: TeamRecord }) {
  const members = useMembers(team.id);
  const users = useUsers();
  const [userId, setUserId] = useState('');
  const path = { params: { path: { id: team.id } } };
  const adding = useAction(
    (id: string) => ok(rest.POST('/api/teams/{id}/members', { ...path, body: { userId: id } })),
    { refreshes: TEAM_CHANGES, onSuccess: () => setUserId('') },
  );
  const removing = useAction(
    (userId: string) =>
      ok(rest.DELETE('/api/teams/{id}/members/{userId}', { params: { path: { id: team.id, userId } } })),
    { refreshes: TEAM_CHANGES },
  );
  const fields = fieldErrors(adding.error);
  const memberIds = new Set(members.data?.members.map((m) => m.userId));
  // Guests are listed too: an admin adds them to a team by hand.
  const candidates = users.data?.users.filter((u) => !memberIds.has(u.id)) ?? [];

  function add(e: FormEvent) {
    e.preventDefault();
    if (userId) void adding.run(userId);
  }

  function remove(id: string, name: string) {
    if (confirm(`Remove ${name} from ${team.name}?`)) void removing.run(id);
  }

  return (
    <ListCard
      title="Members"
      query={members}
      loadingLabel="Loading members"
      items={members.data?.members}
      empty="No members yet."
      columns={['Name', 'Role']}
      rowActions
      row={(m) => (
        <tr key={m.id}>
          <td>{m.user.name}</td>
          <td>
            {m.user.role} {m.owner && <span className="badge">owner</span>}
          </td>
          <td className="actions">
            <Button
              variant="danger"
              aria-label={`Remove ${m.user.name}`}
              onClick={() => remove(m.userId, m.user.name)}
            >
              Remove
            </Button>
            <ErrorMessage error={rowError(removing, m.userId)} />
          </td>
        </tr>
      )}
    >
      <form onSubmit={add} className="row">
        <SelectField
          label="Add a member"
          value={userId}
          onChange={(e) => {
            setUserId(e.target.value);
            adding.reset();
          }}
          error={fields.userId}
        >
          <option value="">Choose a person…</option>
          {candidates.map((u) => (
            <option key={u.id} value={u.id}>
              {u.name} ({u.email})
            </option>
          ))}
        </SelectField>
        <Button type="submit" busy={adding.busy} disabled={!userId}>
          Add member
        </Button>
      </form>
      <FormError error={adding.error} />
    </ListCard>
  );
}

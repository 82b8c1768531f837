// A team's settings as its owners reach them (docs/ui.md "Teams"): the cycle
// settings, which the server lets a team's owners change as well as admins
// (modules/cycles/settings.ts). The team's other settings (key, members,
// workflow, labels) are admins', at /admin/teams/:id, which this page links to
// for them. Reached from the sidebar's "Team settings · KEY".
import { Link } from '@tanstack/react-router';
import { CycleSettings } from '../components/CycleSettings';
import { ErrorMessage, Loading, PageHeader } from '../components/ui';
import { type Team, useRefData } from '../lib/ref';
import { useSession } from '../lib/session';
import { useTeam } from '../lib/teams';

/** Whether the viewer changes `team`'s cycle settings: admins, and the team's owners who are not guests. */
export function managesTeam(
  role: string | undefined,
  ownedTeamIds: readonly string[] | undefined,
  team: Pick<Team, 'id'>,
) {
  return role === 'admin' || (role !== 'guest' && Boolean(ownedTeamIds?.includes(team.id)));
}

export function TeamSettingsPage({ teamKey }: { teamKey: string }) {
  const ref = useRefData().data;
  const role = useSession().user?.role;
  if (!ref) return <Loading label="Loading" />;
  const team = ref.teams.find((t) => t.key === teamKey.toUpperCase());
  if (!team || !managesTeam(role, ref.ownedTeamIds, team))
    return (
      <div className="page">
        <PageHeader title="Team settings" />
        <p className="empty-state">
          {team
            ? `Only the owners of ${team.name} and admins change its settings.`
            : `No team with the key ${teamKey}.`}
        </p>
      </div>
    );
  return <Settings key={team.id} team={team} admin={role === 'admin'} />;
}

function Settings({ team, admin }: { team: Team; admin: boolean }) {
  const q = useTeam(team.id);
  return (
    <div className="page">
      <PageHeader title={`${team.name} (${team.key}) settings`} />
      {admin && (
        <p>
          <Link to="/admin/teams/$id" params={{ id: team.key }}>
            All of the team's settings (administration)
          </Link>
        </p>
      )}
      {q.isLoading && <Loading label="Loading team" />}
      <ErrorMessage error={q.error} />
      {q.data && <CycleSettings team={q.data.team} />}
    </div>
  );
}

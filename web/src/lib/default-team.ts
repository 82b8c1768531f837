// The team a person works in, for the screens that need one before they choose
// (the New issue dialog, the board, G T and G B): the team they last used here,
// else the first team they are a member of, else the first team they can see.
import type { Ref, Team } from './ref';

const LAST_TEAM = 'trackway:last-team';

/** Remembers a team the person just chose or worked in (created an issue in, opened the board of). */
export function rememberTeam(teamId: string) {
  try {
    localStorage.setItem(LAST_TEAM, teamId);
  } catch {
    // Storage refused (private mode, quota): the default falls back to membership.
  }
}

function lastTeam(): string | null {
  try {
    return localStorage.getItem(LAST_TEAM);
  } catch {
    return null;
  }
}

export function defaultTeam(ref: Ref | undefined): Team | undefined {
  if (!ref) return undefined;
  const last = lastTeam();
  return (
    (last ? ref.teamById.get(last) : undefined) ??
    ref.myTeamIds.map((id) => ref.teamById.get(id)).find(Boolean) ??
    ref.teams[0]
  );
}

// Who sees what: the caller's team access and, per entity, the SQL condition
// that keeps the rows they may not see out of every read. Teams are the unit
// of access; everything team-scoped follows its team. The rules are written
// once here and attached to each entity's spec (list/entities.ts), so GraphQL
// connections, by-id loaders, REST lists and filter subqueries all apply the
// same condition (docs/security.md, "Teams are the unit of access").
import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';

type Sql = RawBuilder<unknown>;

/**
 * The teams a caller may see. Admins see all; members see public teams and
 * the private ones they belong to; guests only the teams they belong to.
 */
export type TeamAccess =
  | { readonly all: true; readonly userId: string }
  | {
      readonly all: false;
      readonly userId: string;
      readonly guest: boolean;
      readonly teamIds: ReadonlySet<string>;
    };

/** Everything: for webhook payloads, which go to admins' endpoints and are not scoped. */
export const fullAccess = (userId: string): TeamAccess => ({ all: true, userId });

export const canSeeTeam = (access: TeamAccess, teamId: string): boolean =>
  access.all || access.teamIds.has(teamId);

const TRUE = sql`true`;
const FALSE = sql`false`;
const ref = (alias: string, column: string) => sql.ref(`${alias}.${column}`);

/**
 * "Who sees a team", for any user: SQL true when the user with id `user.id`
 * and role `user.role` (expressions) may see the team row under `team`.
 * Admins see every team; members the public ones and the private ones they
 * belong to; guests only the ones they belong to (an archived membership
 * counts for nothing). The caller's own `TeamAccess` is read by this rule
 * (teams/queries.ts `visibleTeamIds`), and notifications and the change
 * stream apply it to other users, so all three agree.
 */
export function userSeesTeam(user: { id: Sql; role: Sql }, team: string): Sql {
  const member = sql`exists (select 1 from team_memberships v_seen_m where v_seen_m.team_id = ${ref(team, 'id')} and v_seen_m.user_id = ${user.id} and v_seen_m.archived_at is null)`;
  return sql`(${user.role} = 'admin' or ${member} or (${user.role} <> 'guest' and not ${ref(team, 'private')}))`;
}

/** SQL true when `teamId` (an expression) names a team the caller sees. */
export function inVisibleTeam(teamId: Sql, access: TeamAccess): Sql {
  if (access.all) return TRUE;
  if (access.teamIds.size === 0) return FALSE;
  return sql`${teamId} in (${sql.join([...access.teamIds].map((id) => sql`${id}::uuid`))})`;
}

/** Rows that carry their own team_id. */
const byTeamColumn = (alias: string, access: TeamAccess) => inVisibleTeam(ref(alias, 'team_id'), access);

/** Rows that belong to an issue: visible with their issue. */
const byIssue = (alias: string, access: TeamAccess) =>
  access.all
    ? TRUE
    : sql`exists (select 1 from issues ${sql.raw(`v_${alias}`)} where ${ref(`v_${alias}`, 'id')} = ${ref(alias, 'issue_id')} and ${inVisibleTeam(ref(`v_${alias}`, 'team_id'), access)})`;

/** Rows that link two issues (issue_id, related_issue_id): visible when both issues are. */
const byBothIssues = (alias: string, access: TeamAccess) => {
  if (access.all) return TRUE;
  const end = (column: string, suffix: string) => {
    const i = `v_${alias}_${suffix}`;
    return sql`exists (select 1 from issues ${sql.raw(i)} where ${ref(i, 'id')} = ${ref(alias, column)} and ${inVisibleTeam(ref(i, 'team_id'), access)})`;
  };
  return sql`(${end('issue_id', 'i')} and ${end('related_issue_id', 'r')})`;
};

/**
 * The project rule, over any reader: a project is visible through any team it
 * is linked to that the reader sees (`seesLinkedTeam`, over the link row
 * under `link`); one linked to no team is the workspace's, not a guest's.
 * The caller's form (projectRule) and any user's (userSeesProject) are both
 * this one.
 */
function projectSeen(a: string, seesLinkedTeam: (link: string) => Sql, guest: Sql | boolean): Sql {
  const link = `v_${a}`;
  const pt = sql.raw(link);
  const linked = sql`exists (select 1 from project_teams ${pt} where ${ref(link, 'project_id')} = ${ref(a, 'id')} and ${seesLinkedTeam(link)})`;
  if (guest === true) return linked;
  const unlinked = sql`not exists (select 1 from project_teams ${pt} where ${ref(link, 'project_id')} = ${ref(a, 'id')})`;
  if (guest === false) return sql`(${linked} or ${unlinked})`;
  return sql`(${linked} or (not ${guest} and ${unlinked}))`;
}

/** The caller sees the project under `a`. */
function projectRule(a: string, access: TeamAccess): Sql {
  if (access.all) return TRUE;
  return projectSeen(a, (link) => inVisibleTeam(ref(link, 'team_id'), access), access.guest);
}

/**
 * "Who sees a project", for any user (as userSeesTeam for a team): SQL true
 * when the user with id `user.id` and role `user.role` may see the project
 * row under `project`. Notifications about a project reach only such users.
 */
export function userSeesProject(user: { id: Sql; role: Sql }, project: string): Sql {
  const team = (link: string) => {
    const t = `${link}_t`;
    return sql`exists (select 1 from teams ${sql.raw(t)} where ${ref(t, 'id')} = ${ref(link, 'team_id')} and ${userSeesTeam(user, t)})`;
  };
  return sql`(${user.role} = 'admin' or ${projectSeen(project, team, sql`(${user.role} = 'guest')`)})`;
}

/** Rows of a project (project_id): visible exactly when the project is. */
function byProject(a: string, access: TeamAccess): Sql {
  if (access.all) return TRUE;
  const p = `v_${a}`;
  return sql`exists (select 1 from projects ${sql.raw(p)} where ${ref(p, 'id')} = ${ref(a, 'project_id')} and ${projectRule(p, access)})`;
}

function customViewRule(a: string, access: TeamAccess): Sql {
  const mine = sql`${ref(a, 'owner_id')} = ${access.userId}::uuid`;
  if (access.all) return sql`(${mine} or ${ref(a, 'shared')})`;
  const workspace = access.guest ? FALSE : sql`${ref(a, 'team_id')} is null`;
  return sql`(${mine} or (${ref(a, 'shared')} and (${workspace} or ${byTeamColumn(a, access)})))`;
}

/** A condition over rows under `alias`; true for the rows the caller may see. */
export type Visibility = (alias: string, access: TeamAccess) => Sql;

export const visibility = {
  team: (a, access) => inVisibleTeam(ref(a, 'id'), access),
  issue: byTeamColumn,
  workflowState: byTeamColumn,
  cycle: byTeamColumn,
  teamMembership: byTeamColumn,
  comment: byIssue,
  attachment: byIssue,
  /** A reaction is seen with its issue: a comment's reaction carries the comment's issue (migration 0033). */
  reaction: byIssue,
  issueHistory: byIssue,
  /** A relation shows both issues, so it needs both: one hidden end hides it whole. */
  issueRelation: byBothIssues,
  /** Workspace labels (no team) are everyone's; team labels follow their team. */
  label: (a, access) =>
    access.all ? TRUE : sql`(${ref(a, 'team_id')} is null or ${byTeamColumn(a, access)})`,
  /**
   * A project is visible through any team it is linked to that the caller
   * sees; one linked to no team is the workspace's, not a guest's.
   */
  project: (a, access) => projectRule(a, access),
  /** A milestone is visible exactly when its project is (the project's rule, over its row). */
  projectMilestone: (a, access) => byProject(a, access),
  /** A project update too. */
  projectUpdate: (a, access) => byProject(a, access),
  /**
   * Members see the whole directory (they assign and mention anyone); a
   * guest sees themselves and the people in their teams.
   */
  user: (a, access) => {
    if (access.all || !access.guest) return TRUE;
    const m = sql.raw(`v_${a}`);
    // An app's own user is seen by everyone: it is named on what it wrote, and listed nowhere.
    return sql`(${ref(a, 'id')} = ${access.userId}::uuid or ${ref(a, 'status')} = 'app' or exists (select 1 from team_memberships ${m} where ${ref(`v_${a}`, 'user_id')} = ${ref(a, 'id')} and ${ref(`v_${a}`, 'archived_at')} is null and ${inVisibleTeam(ref(`v_${a}`, 'team_id'), access)}))`;
  },
  /**
   * An uploaded file: its uploader's, and everyone's who sees an attachment
   * that points at it (attachments hold the file's download URL).
   */
  file: (a, access) => {
    if (access.all) return TRUE;
    const at = sql.raw(`v_${a}`);
    return sql`(${ref(a, 'uploader_id')} = ${access.userId}::uuid or exists (select 1 from attachments ${at} where ${ref(`v_${a}`, 'file_id')} = ${ref(a, 'id')} and ${byIssue(`v_${a}`, access)}))`;
  },
  /**
   * A saved view: a personal one is its owner's alone (admins included); a
   * shared one is seen with its team, and one without a team is the
   * workspace's, not a guest's (as projects). Unlike the other rules this one
   * binds admins too, so lists apply it whatever the access (customViewRule).
   */
  customView: (a, access) => customViewRule(a, access),
  /**
   * A notification is its recipient's alone (admins included) and only while
   * they still see what it is about, its issue or its project (one of the two
   * is set, migration 0066): rechecked at every read, so leaving a team hides
   * what it sent. Like customView, it binds admins too.
   */
  notification: (a, access) =>
    access.all
      ? sql`(${ref(a, 'user_id')} = ${access.userId}::uuid)`
      : sql`(${ref(a, 'user_id')} = ${access.userId}::uuid and (${byIssue(a, access)} or ${byProject(a, access)}))`,
  /**
   * An identifier an issue had (issue_identifiers): seen only by who sees the
   * team that gave it. Its key part names that team for good (team_keys keeps
   * every key a team held), so an issue moved out of a private team does not
   * show, or answer to, that team's key elsewhere.
   */
  issueIdentifier: (a, access) => {
    if (access.all) return TRUE;
    const k = sql.raw(`v_${a}`);
    return sql`exists (select 1 from team_keys ${k} where ${ref(`v_${a}`, 'key')} = split_part(${ref(a, 'identifier')}, '-', 1) and ${inVisibleTeam(ref(`v_${a}`, 'team_id'), access)})`;
  },
  /** Webhooks are admin-only by role; no team rule applies. */
  webhook: () => TRUE,
} satisfies Record<string, Visibility>;

/** An entity's rule over `table`, as the argument of a query builder's `.where()`. */
export const visibleIn = (rule: Visibility, table: string, access: TeamAccess) => (): Expression<SqlBool> =>
  rule(table, access) as Expression<SqlBool>;

/**
 * Whether the caller may see a change event, from the scope recorded with it
 * (platform/outbox.ts): 'teams' needs every listed team (one for most records,
 * both issues' teams for a relation), 'project' follows the project rule above
 * over the teams it was linked to, 'workspace' is everyone's, 'user' is its one
 * person's alone (a notification: not even an admin sees someone else's),
 * while they still see its teams (the issue's, as a notification is read). An
 * event without a scope (written before migration 0013, or whose team was
 * unknown) is the admins' only.
 */
export function canSeeEvent(
  access: TeamAccess,
  event: {
    scope: 'teams' | 'project' | 'workspace' | 'user' | null;
    teamIds: readonly string[];
    userId?: string | null;
  },
): boolean {
  if (event.scope === 'user') {
    return event.userId === access.userId && event.teamIds.every((id) => canSeeTeam(access, id));
  }
  if (access.all) return true;
  switch (event.scope) {
    case 'workspace':
      return true;
    case 'teams':
      return event.teamIds.length > 0 && event.teamIds.every((id) => access.teamIds.has(id));
    case 'project':
      return event.teamIds.length === 0 ? !access.guest : event.teamIds.some((id) => access.teamIds.has(id));
    default:
      return false;
  }
}

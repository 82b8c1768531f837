// Team rules. Anyone signed in reads teams; admins create, change, archive and
// unarchive them and manage their members (members and guests may not: the
// simplest rule that cannot leak a private team). REST and GraphQL call these:
//
//   createTeam(ctx, actor, TeamCreateInput)             -> TeamRow
//   updateTeam(ctx, actor, idOrKey, TeamUpdateInput)    -> TeamRow   a key change re-keys the identifiers
//   archiveTeam / unarchiveTeam(ctx, actor, idOrKey)    -> TeamRow   issues stay
//   listMembers(ctx, actor, idOrKey)                    -> { membership, user }[]
//   addMember(ctx, actor, idOrKey, MembershipInput)     -> MembershipRow
//   updateMember(ctx, actor, idOrKey, userId, patch)    -> MembershipRow   owner, sortOrder
//   updateMembership(ctx, actor, membershipId, patch)   -> MembershipRow
//   removeMember(ctx, actor, idOrKey, userId)           -> MembershipRow (as it was)
//   deleteMembership(ctx, actor, membershipId)          -> MembershipRow (as it was)
//
// Teams and memberships send no webhook events: the webhook resource types
// (docs/webhooks.md) are issue, comment, project, cycle, label and attachment.

import type { Actor, AppContext } from '../../platform/context.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import type { TeamRow, UserRow } from '../../platform/db/tables.js';
import { conflict, invalidField, notFound } from '../../platform/errors.js';
import { readContextOf, viewAnswer, viewListAnswer } from '../../platform/read/rest.js';
import { auditActorOf, changes, recordAudit } from '../audit/record.js';
import { ensureTriageState, insertDefaultStates } from '../states/queries.js';
import { assertAdmin } from '../users/policy.js';
import { findUsersByIds, lockLiveUser } from '../users/queries.js';
import { findVisibleTeam, teamAccess } from './access.js';
import { TEAM_KEY } from './ids.js';
import {
  checkInput,
  MembershipBody,
  type MembershipInput,
  MembershipPatchBody,
  type MembershipUpdateInput,
  TeamCreateBody,
  type TeamCreateInput,
  TeamPatchBody,
  type TeamUpdateInput,
} from './inputs.js';
import { MEMBER_VIEW, MEMBERSHIP_VIEW, TEAM_LIST_VIEW, TEAM_VIEW } from './present.js';
import * as q from './queries.js';

const teamEntity = (t: Pick<TeamRow, 'id' | 'key'>) => ({ type: 'team', id: t.id, label: t.key });

export type { MembershipInput, MembershipUpdateInput, TeamCreateInput, TeamUpdateInput } from './inputs.js';

const keyTaken = (key: string) =>
  conflict(
    `The key ${key} is used by another team, now or in the past (its identifiers still point there)`,
    'key',
  );

/** listTeams as REST answers it: `{"teams":[...]}`, each TEAM_LIST_VIEW. */
export async function listTeamsJson(ctx: AppContext, actor: Actor): Promise<string> {
  const access = await teamAccess(ctx.db, actor);
  const { rows } = await q.listTeamRows(ctx.db, { access, now: new Date(), actorId: actor.id });
  const ids = rows.map((r) => r.id);
  return viewListAnswer(ctx.db, TEAM_LIST_VIEW, 'teams', ids, readContextOf(ctx, actor, access));
}

/** A team as REST answers it, `{"team":...}` (a write's answer read back as its GET would). */
export async function teamJson(ctx: AppContext, actor: Actor, team: Pick<TeamRow, 'id'>): Promise<string> {
  const access = await teamAccess(ctx.db, actor);
  return viewAnswer(ctx.db, TEAM_VIEW, 'team', team.id, readContextOf(ctx, actor, access), 'Team');
}

/** A team by id or key (current or former) that the caller may see. */
export async function getTeam(ctx: AppContext, actor: Actor, idOrKey: string): Promise<TeamRow> {
  const team = await findVisibleTeam(ctx.db, idOrKey, await teamAccess(ctx.db, actor));
  if (!team) throw notFound('Team');
  return team;
}

/** A key from the name when none is given: its first three letters or digits, upper case. */
function keyFromName(name: string): string {
  const letters = name
    .normalize('NFKD')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');
  const key = letters.slice(0, 3);
  if (!TEAM_KEY.test(key))
    throw invalidField('key', 'is required when the name does not start with a letter');
  return key;
}

/** An IANA zone name the runtime knows (UTC included). */
function checkTimezone(tz: string | undefined): void {
  if (tz === undefined || tz === 'UTC') return;
  if (!Intl.supportedValuesOf('timeZone').includes(tz)) {
    throw invalidField('timezone', 'must be an IANA time zone name such as Europe/Paris');
  }
}

/** Runs a write that may take a key; a key held (or once held) by another team is a 409. */
async function claimingKey<T>(key: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (key !== undefined && isUniqueViolation(err)) throw keyTaken(key);
    throw err;
  }
}

export async function createTeam(ctx: AppContext, actor: Actor, input: TeamCreateInput): Promise<TeamRow> {
  assertAdmin(actor);
  const key = input.key ?? keyFromName(input.name ?? '');
  checkInput(TeamCreateBody, { ...input, key });
  checkTimezone(input.timezone);
  const name = input.name.trim();
  if (await q.findTeamByIdOrKey(ctx.db, key)) throw keyTaken(key);
  return claimingKey(key, () =>
    ctx.db.transaction().execute(async (trx) => {
      const team = await q.insertTeam(trx, {
        key,
        name,
        description: input.description ?? null,
        color: input.color?.toLowerCase() ?? null,
        icon: input.icon ?? null,
        private: input.private ?? false,
        timezone: input.timezone ?? 'UTC',
        cycles_enabled: input.cyclesEnabled ?? true,
        triage_enabled: input.triageEnabled ?? false,
      });
      await insertDefaultStates(trx, team.id);
      if (team.triage_enabled) await ensureTriageState(trx, team.id);
      // The creator joins as owner; a public team takes every member and admin too.
      await q.insertMembership(trx, { team_id: team.id, user_id: actor.id, owner: true, sort_order: 0 });
      if (!team.private) await q.addActiveUsers(trx, team.id);
      await recordAudit(trx, {
        type: 'team.created',
        actor: auditActorOf(actor),
        entity: teamEntity(team),
        after: { key: team.key, name: team.name, private: team.private },
      });
      return team;
    }),
  );
}

export async function updateTeam(
  ctx: AppContext,
  actor: Actor,
  idOrKey: string,
  patch: TeamUpdateInput,
): Promise<TeamRow> {
  assertAdmin(actor);
  const found = await q.findTeamByIdOrKey(ctx.db, idOrKey);
  if (!found) throw notFound('Team');
  // GraphQL may send only fields we do not hold: nothing to change then.
  if (Object.keys(patch).length === 0) return found;
  checkInput(TeamPatchBody, patch);
  checkTimezone(patch.timezone);
  return claimingKey(patch.key, () =>
    ctx.db.transaction().execute(async (trx) => {
      // The lock makes issue creation wait, so no issue is numbered under the old key after the change.
      const team = (await q.lockTeam(trx, found.id))!;
      const set: q.TeamColumnsPatch = {};
      if (patch.name !== undefined) set.name = patch.name.trim();
      if (patch.description !== undefined) set.description = patch.description;
      if (patch.color !== undefined) set.color = patch.color?.toLowerCase() ?? null;
      if (patch.icon !== undefined) set.icon = patch.icon;
      if (patch.private !== undefined) set.private = patch.private;
      if (patch.timezone !== undefined) set.timezone = patch.timezone;
      if (patch.cyclesEnabled !== undefined) set.cycles_enabled = patch.cyclesEnabled;
      // Turning triage off leaves its state and the issues waiting there; they are accepted or moved by hand.
      if (patch.triageEnabled !== undefined) set.triage_enabled = patch.triageEnabled;
      const rekey = patch.key !== undefined && patch.key !== team.key;
      if (rekey) set.key = patch.key;
      if (Object.keys(set).length === 0) return team;
      const updated = await q.updateTeamRow(trx, team.id, set);
      if (updated.triage_enabled) await ensureTriageState(trx, team.id);
      if (rekey) await q.reidentifyIssues(trx, team.id, updated.key);
      const diff = changes<Record<string, unknown>>(team, set);
      if (diff)
        await recordAudit(trx, {
          type: 'team.updated',
          actor: auditActorOf(actor),
          entity: teamEntity(updated),
          ...diff,
        });
      return updated;
    }),
  );
}

async function setArchived(ctx: AppContext, actor: Actor, idOrKey: string, archived: boolean) {
  assertAdmin(actor);
  const found = await q.findTeamByIdOrKey(ctx.db, idOrKey);
  if (!found) throw notFound('Team');
  return ctx.db.transaction().execute(async (trx) => {
    const team = (await q.lockTeam(trx, found.id))!;
    if ((team.archived_at !== null) === archived) return team;
    // New issues without a team go to the oldest live team, so one must remain.
    if (archived && (await q.countOtherLiveTeams(trx, team.id)) === 0) {
      throw invalidField('id', 'the last active team cannot be archived');
    }
    const updated = await q.updateTeamRow(trx, team.id, { archived_at: archived ? new Date() : null });
    // Teams are archived, never deleted: an archive is recorded as the change it is.
    await recordAudit(trx, {
      type: 'team.updated',
      actor: auditActorOf(actor),
      entity: teamEntity(team),
      before: { archived: !archived },
      after: { archived },
    });
    return updated;
  });
}

/** Hides the team from lists; its issues, states and memberships stay. */
export const archiveTeam = (ctx: AppContext, actor: Actor, idOrKey: string) =>
  setArchived(ctx, actor, idOrKey, true);

export const unarchiveTeam = (ctx: AppContext, actor: Actor, idOrKey: string) =>
  setArchived(ctx, actor, idOrKey, false);

export async function listMembers(
  ctx: AppContext,
  actor: Actor,
  idOrKey: string,
): Promise<{ membership: q.MembershipRow; user: UserRow }[]> {
  const team = await getTeam(ctx, actor, idOrKey);
  const memberships = await q.listLiveMemberships(ctx.db, team.id);
  const users = new Map(
    (
      await findUsersByIds(
        ctx.db,
        memberships.map((x) => x.user_id),
      )
    ).map((u) => [u.id, u]),
  );
  return memberships.map((membership) => ({ membership, user: users.get(membership.user_id)! }));
}

export async function addMember(
  ctx: AppContext,
  actor: Actor,
  idOrKey: string,
  input: MembershipInput,
): Promise<q.MembershipRow> {
  assertAdmin(actor);
  checkInput(MembershipBody, input);
  const team = await q.findTeamByIdOrKey(ctx.db, idOrKey);
  if (!team) throw notFound('Team');
  if (team.archived_at) throw invalidField('teamId', 'the team is archived');
  return ctx.db.transaction().execute(async (trx) => {
    // Locked so that a deletion of the account (which drops its memberships) waits or goes first.
    if (!(await lockLiveUser(trx, input.userId))) throw invalidField('userId', 'no user with this id');
    const row = await q.insertMembership(trx, {
      team_id: team.id,
      user_id: input.userId,
      owner: input.owner ?? false,
      sort_order: input.sortOrder ?? 0,
    });
    if (!row) throw conflict('The user is already a member of this team');
    await recordAudit(trx, {
      type: 'team.memberAdded',
      actor: auditActorOf(actor),
      entity: teamEntity(team),
      after: { userId: row.user_id, owner: row.owner },
    });
    return row;
  });
}

async function change(
  ctx: AppContext,
  actor: Actor,
  membership: q.MembershipRow | undefined,
  patch: MembershipUpdateInput,
): Promise<q.MembershipRow> {
  if (!membership) throw notFound('Team membership');
  // GraphQL may send an empty input: nothing to change then.
  if (Object.keys(patch).length === 0) return membership;
  checkInput(MembershipPatchBody, patch);
  return ctx.db.transaction().execute(async (trx) => {
    const updated = await q.updateMembership(trx, membership.id, {
      ...(patch.owner !== undefined ? { owner: patch.owner } : {}),
      ...(patch.sortOrder !== undefined ? { sort_order: patch.sortOrder } : {}),
    });
    // The owner flag is the membership's role; its sort order is the member's own arrangement.
    if (updated.owner !== membership.owner) {
      await recordAudit(trx, {
        type: 'team.memberRoleChanged',
        actor: auditActorOf(actor),
        entity: { type: 'team', id: membership.team_id },
        before: { userId: membership.user_id, owner: membership.owner },
        after: { userId: membership.user_id, owner: updated.owner },
      });
    }
    return updated;
  });
}

export async function updateMember(
  ctx: AppContext,
  actor: Actor,
  idOrKey: string,
  userId: string,
  patch: MembershipUpdateInput,
): Promise<q.MembershipRow> {
  assertAdmin(actor);
  const team = await q.findTeamByIdOrKey(ctx.db, idOrKey);
  if (!team) throw notFound('Team');
  return change(ctx, actor, await q.findMembership(ctx.db, team.id, userId), patch);
}

export async function updateMembership(
  ctx: AppContext,
  actor: Actor,
  id: string,
  patch: MembershipUpdateInput,
): Promise<q.MembershipRow> {
  assertAdmin(actor);
  return change(ctx, actor, await q.findMembershipById(ctx.db, id), patch);
}

async function remove(
  ctx: AppContext,
  actor: Actor,
  membership: q.MembershipRow | undefined,
): Promise<q.MembershipRow> {
  if (!membership) throw notFound('Team membership');
  await ctx.db.transaction().execute(async (trx) => {
    await q.deleteMembership(trx, membership.id);
    await recordAudit(trx, {
      type: 'team.memberRemoved',
      actor: auditActorOf(actor),
      entity: { type: 'team', id: membership.team_id },
      before: { userId: membership.user_id, owner: membership.owner },
    });
  });
  return membership;
}

export async function removeMember(
  ctx: AppContext,
  actor: Actor,
  idOrKey: string,
  userId: string,
): Promise<q.MembershipRow> {
  assertAdmin(actor);
  const team = await q.findTeamByIdOrKey(ctx.db, idOrKey);
  if (!team) throw notFound('Team');
  return remove(ctx, actor, await q.findMembership(ctx.db, team.id, userId));
}

export async function deleteMembership(ctx: AppContext, actor: Actor, id: string): Promise<q.MembershipRow> {
  assertAdmin(actor);
  return remove(ctx, actor, await q.findMembershipById(ctx.db, id));
}

/**
 * A team's members as REST lists them, `{"members":[...]}`: each membership
 * with its user, in one statement. Every listed user is in a team the caller
 * sees, so the user rule never hides one here.
 */
export async function membersJson(
  ctx: AppContext,
  actor: Actor,
  members: readonly { membership: q.MembershipRow }[],
): Promise<string> {
  const access = await teamAccess(ctx.db, actor);
  const ids = members.map((m) => m.membership.id);
  return viewListAnswer(ctx.db, MEMBER_VIEW, 'members', ids, readContextOf(ctx, actor, access));
}

/** One membership as REST answers it, `{"membership":...}`: the add and change routes' answer. */
export async function membershipJson(ctx: AppContext, actor: Actor, id: string): Promise<string> {
  const access = await teamAccess(ctx.db, actor);
  return viewAnswer(
    ctx.db,
    MEMBERSHIP_VIEW,
    'membership',
    id,
    readContextOf(ctx, actor, access),
    'Membership',
  );
}

// SCIM 2.0 provisioning rules (docs/identity.md, "Provisioning (SCIM)").
// Tokens: admins create (the secret shown once), list and revoke them; a token
// only reaches /scim/v2 and acts as no user. Users are accounts (userName is
// the email); deactivation suspends through the admins' own code path
// (users/service changeUser), so sessions and change streams end alike; DELETE
// deletes the account by the admins' rules (deleteUser). Groups are private
// teams; members are memberships. Every change records its audit entry in its
// own transaction.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { hashPassword } from '../../platform/auth/passwords.js';
import type { Actor, AppContext, RequestOrigin } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import type { ScimTokenRow, TeamRow, UserRow } from '../../platform/db/tables.js';
import { notFound } from '../../platform/errors.js';
import { isUuid } from '../../platform/ids.js';
import { type AuditActor, auditActorOf, recordAudit, userEntity } from '../audit/record.js';
import { insertDefaultStates } from '../states/queries.js';
import { TEAM_KEY } from '../teams/ids.js';
import { insertMembership, insertTeam, lockTeam } from '../teams/queries.js';
import { findLiveUserByEmail, updateUser } from '../users/queries.js';
import { changeUser, deleteUser, insertAccount } from '../users/service.js';
import { scimError } from './errors.js';
import { compileFilter, GROUP_FILTER_ATTRIBUTES, USER_FILTER_ATTRIBUTES } from './filter.js';
import { applyPatch, type GroupInput, readGroup, readUser, type UserInput } from './inputs.js';
import { listResponse, presentGroup, presentUser } from './present.js';
import * as q from './queries.js';

export const SCIM_TOKEN_PREFIX = 'scim_';
/** Most resources one list page returns (ServiceProviderConfig's filter.maxResults). */
export const MAX_PAGE = 200;

/** Where a SCIM request came from (platform/http/auth-hook.ts originOf). */
export type Origin = RequestOrigin;

/** A request authenticated by a SCIM token: whose label the audit log names. */
export interface ScimCaller {
  token: ScimTokenRow;
  origin: Origin;
}

const hashToken = (secret: string) => createHash('sha256').update(secret).digest('hex');

// ---- Tokens (admin REST)

export async function createScimToken(ctx: AppContext, actor: Actor, label: string) {
  const secret = SCIM_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const hint = `${secret.slice(0, 9)}…${secret.slice(-4)}`;
  const token = await ctx.db.transaction().execute(async (trx) => {
    const row = await q.insertToken(trx, {
      label: label.trim(),
      hash: hashToken(secret),
      hint,
      createdBy: actor.id,
    });
    await recordAudit(trx, {
      type: 'scim.tokenCreated',
      actor: auditActorOf(actor),
      entity: { type: 'scimToken', id: row.id, label: row.label },
    });
    return row;
  });
  return { token, secret };
}

export const listScimTokens = (ctx: AppContext) => q.listTokens(ctx.db);

export async function revokeScimToken(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  if (!isUuid(id)) throw notFound('SCIM token');
  await ctx.db.transaction().execute(async (trx) => {
    const row = await q.revokeToken(trx, id);
    if (!row) throw notFound('SCIM token');
    await recordAudit(trx, {
      type: 'scim.tokenRevoked',
      actor: auditActorOf(actor),
      entity: { type: 'scimToken', id: row.id, label: row.label },
    });
  });
}

/**
 * The caller of a /scim/v2 request from its Authorization header. The token is
 * found by its hash; the stored and computed hashes are then compared in
 * constant time, so no answer's timing depends on how much of a guess matched.
 */
export async function authenticateScim(
  ctx: AppContext,
  header: string | undefined,
  origin: Origin,
): Promise<ScimCaller> {
  const secret = /^Bearer (\S+)$/i.exec(header ?? '')?.[1];
  if (!secret?.startsWith(SCIM_TOKEN_PREFIX) || secret.length > 100) {
    throw scimError(401, undefined, 'A SCIM token is required (Authorization: Bearer scim_…)');
  }
  const hash = hashToken(secret);
  const token = await q.findLiveTokenByHash(ctx.db, hash);
  if (!token || !timingSafeEqual(Buffer.from(token.token_hash), Buffer.from(hash))) {
    throw scimError(401, undefined, 'The SCIM token is not valid or has been revoked');
  }
  await q.touchToken(ctx.db, token.id);
  return { token, origin };
}

const auditActor = (c: ScimCaller): AuditActor => ({
  kind: 'scim',
  id: c.token.id,
  label: c.token.label,
  ip: c.origin.ip ?? null,
  userAgent: c.origin.userAgent ?? null,
});

// ---- Paging

/** startIndex and count as RFC 7644 §3.4.2.4 reads them: 1-based; below 1 is 1, a negative count is 0. */
export function pageOf(query: Record<string, unknown>) {
  const num = (v: unknown, fallback: number) => {
    if (v === undefined) return fallback;
    const n = Number(v);
    if (typeof v !== 'string' || !/^-?\d{1,9}$/.test(v) || !Number.isSafeInteger(n)) {
      throw scimError(400, 'invalidValue', 'startIndex and count must be integers');
    }
    return n;
  };
  const startIndex = Math.max(1, num(query['startIndex'], 1));
  const count = Math.min(MAX_PAGE, Math.max(0, num(query['count'], 100)));
  return { startIndex, offset: startIndex - 1, limit: count };
}

const filterText = (query: Record<string, unknown>) => {
  const f = query['filter'];
  if (f === undefined) return undefined;
  if (typeof f !== 'string') throw scimError(400, 'invalidFilter', 'Give one filter');
  return f;
};

// ---- Users

const userTaken = () =>
  scimError(409, 'uniqueness', 'A user with this userName or externalId already exists');

async function liveUser(ctx: AppContext, id: string): Promise<UserRow> {
  const user = isUuid(id) ? await q.findUser(ctx.db, id) : undefined;
  if (!user) throw scimError(404, undefined, `User ${id} not found`);
  return user;
}

export async function getUser(ctx: AppContext, base: string, id: string) {
  return presentUser(await liveUser(ctx, id), base);
}

export async function listUsers(ctx: AppContext, base: string, query: Record<string, unknown>) {
  const text = filterText(query);
  const where = text === undefined ? undefined : compileFilter(text, USER_FILTER_ATTRIBUTES);
  const page = pageOf(query);
  const { rows, total } = await q.pageUsers(ctx.db, where, page);
  return listResponse(
    rows.map((u) => presentUser(u, base)),
    total,
    page.startIndex,
  );
}

/** Runs a write; a unique index refusing it (email, externalId, racing writes) is a 409 uniqueness. */
async function unique<T>(write: () => Promise<T>, taken: () => Error): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
}

export async function createUser(ctx: AppContext, caller: ScimCaller, base: string, body: unknown) {
  const input = readUser(body);
  // The account signs in through SSO or a password reset: its password is random and never shown.
  const passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
  const user = await unique(
    () =>
      ctx.db.transaction().execute(async (trx) => {
        if (await findLiveUserByEmail(trx, input.email)) throw userTaken();
        if (input.externalId && (await q.findUserByExternalId(trx, input.externalId))) throw userTaken();
        const created = await insertAccount(
          trx,
          {
            name: input.name,
            email: input.email,
            role: 'member',
            passwordHash,
          },
          null,
        );
        let row = (await q.setUserIdentity(trx, created.id, { external_id: input.externalId }))!;
        if (!input.active) row = (await updateUser(trx, row.id, { status: 'suspended' }))!;
        await recordAudit(trx, {
          type: 'scim.userCreated',
          actor: auditActor(caller),
          entity: userEntity(row),
          after: { email: row.email, name: row.name, active: input.active, externalId: input.externalId },
        });
        return row;
      }),
    userTaken,
  );
  return presentUser(user, base);
}

/** PUT (Okta replaces the whole user) and PATCH (Entra ID) both end here with the resource as it should be. */
async function saveUser(ctx: AppContext, caller: ScimCaller, before: UserRow, input: UserInput) {
  const deactivating = before.status === 'active' && !input.active;
  const user = await unique(
    () =>
      changeUser(
        ctx,
        before.id,
        { name: input.name, status: input.active ? 'active' : 'suspended' },
        async (trx: Db, old: UserRow, updated: UserRow) => {
          const identity: { email?: string; external_id?: string | null } = {};
          if (input.email !== old.email) identity.email = input.email;
          if (input.externalId !== old.external_id) identity.external_id = input.externalId;
          const row =
            Object.keys(identity).length > 0
              ? ((await q.setUserIdentity(trx, old.id, identity)) ?? updated)
              : updated;
          const changed = userDiff(old, row);
          if (changed) {
            await recordAudit(trx, {
              type: deactivating ? 'scim.userDeactivated' : 'scim.userUpdated',
              actor: auditActor(caller),
              entity: userEntity(row),
              before: changed.before,
              after: changed.after,
            });
          }
          return row;
        },
      ),
    userTaken,
  );
  return user;
}

function userDiff(a: UserRow, b: UserRow) {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const [k, label] of [
    ['email', 'email'],
    ['name', 'name'],
    ['status', 'status'],
    ['external_id', 'externalId'],
  ] as const) {
    if (a[k] !== b[k]) {
      before[label] = a[k];
      after[label] = b[k];
    }
  }
  return Object.keys(after).length > 0 ? { before, after } : undefined;
}

export async function replaceUser(
  ctx: AppContext,
  caller: ScimCaller,
  base: string,
  id: string,
  body: unknown,
) {
  const before = await liveUser(ctx, id);
  const input = readUser(body);
  return presentUser(await saveUser(ctx, caller, before, input), base);
}

export async function patchUser(
  ctx: AppContext,
  caller: ScimCaller,
  base: string,
  id: string,
  body: unknown,
) {
  const before = await liveUser(ctx, id);
  const current = presentUser(before, base);
  const patched = applyPatch(current, body);
  const input = readUser(patched, current);
  return presentUser(await saveUser(ctx, caller, before, input), base);
}

/** DELETE: the account is deleted by the admins' rules (what they wrote stays, attributed to their name). */
export async function removeUser(ctx: AppContext, caller: ScimCaller, id: string): Promise<void> {
  await liveUser(ctx, id);
  await deleteUser(ctx, id, (trx, before) =>
    recordAudit(trx, {
      type: 'scim.userDeleted',
      actor: auditActor(caller),
      entity: userEntity(before),
      before: { email: before.email, name: before.name, externalId: before.external_id },
    }),
  );
}

// ---- Groups

const groupTaken = () => scimError(409, 'uniqueness', 'A group with this externalId already exists');

async function liveTeam(db: Db, id: string): Promise<TeamRow> {
  const team = isUuid(id) ? await q.findTeam(db, id) : undefined;
  if (!team) throw scimError(404, undefined, `Group ${id} not found`);
  return team;
}

const withMembers = (query: Record<string, unknown>) => {
  const excluded = typeof query['excludedAttributes'] === 'string' ? query['excludedAttributes'] : '';
  return !excluded
    .toLowerCase()
    .split(',')
    .map((s) => s.trim())
    .includes('members');
};

export async function getGroup(ctx: AppContext, base: string, id: string, query: Record<string, unknown>) {
  const team = await liveTeam(ctx.db, id);
  const members = withMembers(query) ? await q.membersOf(ctx.db, [team.id]) : undefined;
  return presentGroup(team, members, base);
}

export async function listGroups(ctx: AppContext, base: string, query: Record<string, unknown>) {
  const text = filterText(query);
  const where = text === undefined ? undefined : compileFilter(text, GROUP_FILTER_ATTRIBUTES);
  const page = pageOf(query);
  const { rows, total } = await q.pageTeams(ctx.db, where, page);
  const members = withMembers(query)
    ? await q.membersOf(
        ctx.db,
        rows.map((t) => t.id),
      )
    : undefined;
  const resources = rows.map((t) =>
    presentGroup(
      t,
      members?.filter((m) => m.team_id === t.id),
      base,
    ),
  );
  return listResponse(resources, total, page.startIndex);
}

/**
 * A SCIM-created team's key: the first three letters or digits of its name
 * (as teams created without a key get), upper case, starting with a letter
 * ("G" when the name has none); when taken now or in the past, a number is
 * appended (ENG, ENG2, ENG3 …).
 */
async function freeKey(db: Db, displayName: string): Promise<string> {
  const letters = displayName
    .normalize('NFKD')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .replace(/^[0-9]+/, '');
  const base = letters.slice(0, 3) || 'G';
  for (let n = 1; n < 10_000; n++) {
    const key = n === 1 ? base : `${base.slice(0, 7 - String(n).length)}${n}`;
    if (TEAM_KEY.test(key) && !(await q.keyInUse(db, key))) return key;
  }
  throw scimError(409, 'uniqueness', 'No free team key for this displayName');
}

async function checkMembers(db: Db, ids: readonly string[]): Promise<void> {
  const bad = ids.find((id) => !isUuid(id));
  const live = await q.liveUserIds(db, ids.filter(isUuid));
  const missing = bad ?? ids.find((id) => !live.has(id));
  if (missing !== undefined)
    throw scimError(400, 'invalidValue', `Member ${String(missing).slice(0, 100)} is not a user`);
}

export async function createGroup(ctx: AppContext, caller: ScimCaller, base: string, body: unknown) {
  const input = readGroup(body);
  const team = await unique(
    () =>
      ctx.db.transaction().execute(async (trx) => {
        await checkMembers(trx, input.members);
        if (input.externalId && (await externalIdTaken(trx, input.externalId))) throw groupTaken();
        const key = await freeKey(trx, input.displayName);
        // Private: its members are exactly the group's, not every member of the workspace.
        const created = await insertTeam(trx, {
          key,
          name: input.displayName,
          description: null,
          color: null,
          icon: null,
          private: true,
          timezone: 'UTC',
          cycles_enabled: true,
        });
        await insertDefaultStates(trx, created.id);
        const row = (await q.setTeamColumns(trx, created.id, { external_id: input.externalId }))!;
        for (const [i, userId] of input.members.entries()) {
          await insertMembership(trx, { team_id: row.id, user_id: userId, owner: false, sort_order: i });
        }
        await recordAudit(trx, {
          type: 'scim.groupCreated',
          actor: auditActor(caller),
          entity: { type: 'team', id: row.id, label: row.name },
          after: { name: row.name, key: row.key, externalId: row.external_id, members: input.members },
        });
        return row;
      }),
    groupTaken,
  );
  return presentGroup(team, await q.membersOf(ctx.db, [team.id]), base);
}

async function externalIdTaken(db: Db, externalId: string): Promise<boolean> {
  const where = compileFilter(`externalId eq ${JSON.stringify(externalId)}`, GROUP_FILTER_ATTRIBUTES);
  return (await q.pageTeams(db, where, { offset: 0, limit: 1 })).total > 0;
}

/** PUT and PATCH: the group as it should be, saved (name, externalId, members added and removed). */
async function saveGroup(
  ctx: AppContext,
  caller: ScimCaller,
  id: string,
  next: (current: ReturnType<typeof presentGroup>) => GroupInput,
  base: string,
) {
  const team = await unique(
    () =>
      ctx.db.transaction().execute(async (trx) => {
        const locked = await lockTeam(trx, id);
        if (!locked || locked.archived_at) throw scimError(404, undefined, `Group ${id} not found`);
        const members = await q.membersOf(trx, [locked.id]);
        const input = next(presentGroup(locked, members, base));
        await checkMembers(trx, input.members);
        const had = new Set(members.map((m) => m.user_id));
        const wants = new Set(input.members);
        const added = input.members.filter((u) => !had.has(u));
        const removed = [...had].filter((u) => !wants.has(u));
        for (const [i, userId] of added.entries()) {
          await insertMembership(trx, {
            team_id: locked.id,
            user_id: userId,
            owner: false,
            sort_order: had.size + i,
          });
        }
        await q.removeMembers(trx, locked.id, removed);
        const set: { name?: string; external_id?: string | null } = {};
        if (input.displayName !== locked.name) set.name = input.displayName;
        if (input.externalId !== locked.external_id) set.external_id = input.externalId;
        const row =
          Object.keys(set).length > 0 || added.length + removed.length > 0
            ? ((await q.setTeamColumns(trx, locked.id, set)) ?? locked)
            : locked;
        if (Object.keys(set).length > 0 || added.length + removed.length > 0) {
          await recordAudit(trx, {
            type: 'scim.groupUpdated',
            actor: auditActor(caller),
            entity: { type: 'team', id: row.id, label: row.name },
            before: { name: locked.name, externalId: locked.external_id },
            after: { name: row.name, externalId: row.external_id },
            metadata: { membersAdded: added, membersRemoved: removed },
          });
        }
        return row;
      }),
    groupTaken,
  );
  return team;
}

export async function replaceGroup(
  ctx: AppContext,
  caller: ScimCaller,
  base: string,
  id: string,
  body: unknown,
) {
  if (!isUuid(id)) throw scimError(404, undefined, `Group ${id} not found`);
  const input = readGroup(body);
  const team = await saveGroup(ctx, caller, id, () => input, base);
  return presentGroup(team, await q.membersOf(ctx.db, [team.id]), base);
}

/** PATCH answers 204 (Entra ID and Okta send members add/remove and read nothing back). */
export async function patchGroup(
  ctx: AppContext,
  caller: ScimCaller,
  base: string,
  id: string,
  body: unknown,
) {
  if (!isUuid(id)) throw scimError(404, undefined, `Group ${id} not found`);
  await saveGroup(ctx, caller, id, (current) => readGroup(applyPatch(current, body)), base);
}

/** DELETE archives the team: its issues stay, and it leaves SCIM's view. */
export async function removeGroup(ctx: AppContext, caller: ScimCaller, id: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const team = await liveTeam(trx, id);
    await q.setTeamColumns(trx, team.id, { archived_at: new Date(), external_id: null });
    await recordAudit(trx, {
      type: 'scim.groupDeleted',
      actor: auditActor(caller),
      entity: { type: 'team', id: team.id, label: team.name },
      before: { name: team.name, key: team.key, externalId: team.external_id },
    });
  });
}

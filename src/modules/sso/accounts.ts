// Who a verified sign-in at the provider is in Trackway: the account linked to
// its subject; else the live account with its verified email, linked now; else
// a new account (just in time) when allowed. Then the groups claim, when
// mapped, sets the role and the mapped teams' memberships, at every sign-in.
import { randomBytes } from 'node:crypto';
import { hashPassword } from '../../platform/auth/passwords.js';
import type { AppContext, RequestOrigin } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import type { Role, UserRow } from '../../platform/db/tables.js';
import { AppError } from '../../platform/errors.js';
import { type AuditActor, changes, recordAudit, userEntity } from '../audit/record.js';
import * as teams from '../teams/queries.js';
import * as users from '../users/queries.js';
import { changeUser, insertAccount } from '../users/service.js';
import type { Claims } from './provider.js';
import * as q from './queries.js';
import type { SsoSettings } from './settings.js';

/** Why a sign-in was refused: the sign-in page's message, and the audit entry's reason. */
export type SsoRefusal =
  | 'domain_not_allowed'
  | 'email_not_verified'
  | 'email_missing'
  | 'no_account'
  | 'account_suspended'
  | 'provider_unavailable'
  | 'denied'
  | 'expired'
  | 'too_many_attempts'
  | 'failed';

export class SsoRefused extends Error {
  override name = 'SsoRefused';
  constructor(
    readonly reason: SsoRefusal,
    readonly user?: UserRow,
  ) {
    super(reason);
  }
}

const EMAIL_MAX = 320;

/** The email the provider vouches for, lower-cased, or a refusal. */
function emailOf(claims: Claims, s: SsoSettings): { email: string; verified: boolean } {
  const raw = typeof claims['email'] === 'string' ? claims['email'].trim().toLowerCase() : '';
  if (!raw || raw.length > EMAIL_MAX || !/^[^\s@]+@[^\s@]+$/.test(raw)) throw new SsoRefused('email_missing');
  const verified = claims['email_verified'] === true || claims['email_verified'] === 'true';
  return { email: raw, verified: verified || s.trustUnverifiedEmail };
}

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);

/** The groups the claim names (a list of strings, or one string), or null when no claim is mapped. */
function groupsOf(claims: Claims, s: SsoSettings): Set<string> | null {
  if (!s.groupsClaim) return null;
  const v = claims[s.groupsClaim];
  const list = Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
  return new Set(list.filter((g): g is string => typeof g === 'string'));
}

/** The role the groups give: the highest one matched, else the default. */
export function roleFor(groups: Set<string> | null, s: SsoSettings): Role | null {
  if (!groups) return null;
  const has = (names: string[]) => names.some((n) => groups.has(n));
  if (has(s.adminGroups)) return 'admin';
  if (has(s.memberGroups)) return 'member';
  if (has(s.guestGroups)) return 'guest';
  return s.defaultRole;
}

const displayName = (claims: Claims, email: string) => {
  const name = [claims['name'], [claims['given_name'], claims['family_name']].filter(Boolean).join(' ')]
    .find((n): n is string => typeof n === 'string' && n.trim() !== '')
    ?.trim();
  return (name ?? email.slice(0, email.indexOf('@'))).slice(0, 100);
};

/**
 * The account this sign-in is, created or linked as the settings allow;
 * throws SsoRefused with the reason otherwise. The role and teams are
 * brought in line with the groups claim before the session starts.
 */
export async function accountFor(
  ctx: AppContext,
  s: SsoSettings,
  claims: Claims,
  origin: RequestOrigin,
): Promise<UserRow> {
  const { email, verified } = emailOf(claims, s);
  if (s.allowedDomains.length > 0 && !s.allowedDomains.includes(domainOf(email))) {
    throw new SsoRefused('domain_not_allowed');
  }
  const actor: AuditActor = { kind: 'sso', id: null, label: claims.iss, ...origin };
  let user = await linkedOrNew(ctx, s, claims, email, verified, actor);
  if (user.status !== 'active') throw new SsoRefused('account_suspended', user);
  user = await applyGroups(ctx, s, user, groupsOf(claims, s), actor);
  return user;
}

async function linkedOrNew(
  ctx: AppContext,
  s: SsoSettings,
  claims: Claims,
  email: string,
  verified: boolean,
  actor: AuditActor,
): Promise<UserRow> {
  const linked = await q.linkedUser(ctx.db, claims.iss, claims.sub);
  if (linked) {
    await q.touchIdentity(ctx.db, linked.identityId, email);
    return linked.user;
  }
  // Matching or creating by email trusts the provider's word that the email is theirs.
  if (!verified) throw new SsoRefused('email_not_verified');
  const existing = await users.findLiveUserByEmail(ctx.db, email);
  if (existing) {
    try {
      await ctx.db.transaction().execute(async (trx) => {
        await q.insertIdentity(trx, { userId: existing.id, issuer: claims.iss, subject: claims.sub, email });
        await recordAudit(trx, {
          type: 'sso.userLinked',
          actor,
          entity: userEntity(existing),
          metadata: { issuer: claims.iss, subject: claims.sub },
        });
      });
    } catch (err) {
      // Two first sign-ins of one person racing: the other one linked it.
      if (!isUniqueViolation(err)) throw err;
    }
    return existing;
  }
  if (!s.autoCreate) throw new SsoRefused('no_account');
  // The password is random and never shown: the account signs in through the provider.
  const passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const user = await insertAccount(
        trx,
        { name: displayName(claims, email), email, role: s.defaultRole, passwordHash },
        actor,
      );
      await q.insertIdentity(trx, { userId: user.id, issuer: claims.iss, subject: claims.sub, email });
      return user;
    });
  } catch (err) {
    // Two first sign-ins of one person racing: the other one made the account.
    if (isUniqueViolation(err)) {
      const again = await q.linkedUser(ctx.db, claims.iss, claims.sub);
      if (again) return again.user;
    }
    throw err;
  }
}

/** Role and mapped teams follow the groups claim; nothing changes when no claim is mapped. */
async function applyGroups(
  ctx: AppContext,
  s: SsoSettings,
  user: UserRow,
  groups: Set<string> | null,
  actor: AuditActor,
): Promise<UserRow> {
  if (!groups) return user;
  let current = user;
  const role = roleFor(groups, s);
  if (role && role !== user.role) {
    try {
      current = await changeUser(ctx, user.id, { role }, async (trx, before, after) => {
        await recordAudit(trx, {
          type: 'user.roleChanged',
          actor,
          entity: userEntity(before),
          ...changes<Record<string, unknown>>(before, { role: after.role }),
          metadata: { groupsClaim: s.groupsClaim },
        });
        return after;
      });
    } catch (err) {
      // The last admin keeps the role: the workspace must not lose its only admin to a group change.
      if (!(err instanceof AppError && err.code === 'LAST_ADMIN')) throw err;
    }
  }
  if (s.teamGroups.length > 0) await applyTeams(ctx.db, s, current, groups, actor);
  return current;
}

async function applyTeams(db: Db, s: SsoSettings, user: UserRow, groups: Set<string>, actor: AuditActor) {
  const byKey = new Map<string, boolean>();
  for (const { group, team } of s.teamGroups)
    byKey.set(team, (byKey.get(team) ?? false) || groups.has(group));
  const found = await q.liveTeamsByKey(db, [...byKey.keys()]);
  await db.transaction().execute(async (trx) => {
    for (const team of found) {
      const wanted = byKey.get(team.key) === true;
      const membership = await teams.findMembership(trx, team.id, user.id);
      const entity = { type: 'team', id: team.id, label: team.name };
      if (wanted && !membership) {
        const row = await teams.insertMembership(trx, {
          team_id: team.id,
          user_id: user.id,
          owner: false,
          sort_order: 0,
        });
        if (row)
          await recordAudit(trx, {
            type: 'team.memberAdded',
            actor,
            entity,
            after: { userId: user.id, owner: false },
          });
      } else if (!wanted && membership) {
        await teams.deleteMembership(trx, membership.id);
        await recordAudit(trx, {
          type: 'team.memberRemoved',
          actor,
          entity,
          before: { userId: user.id, owner: membership.owner },
        });
      }
    }
  });
}

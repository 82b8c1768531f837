// Account rules: creating, changing and deleting users.

import { fullAccess } from '../../platform/access.js';
import { changingCredentials } from '../../platform/auth/credential-cache.js';
import { hashPassword } from '../../platform/auth/passwords.js';
import type { Actor, AppContext } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import type { Role, UserRow, UserStatus } from '../../platform/db/tables.js';
import { AppError, conflict, notFound } from '../../platform/errors.js';
import { readContextOf, viewAnswer, viewListAnswer } from '../../platform/read/rest.js';
import { type AuditActor, auditActorOf, changes, recordAudit, userEntity } from '../audit/record.js';
import { teamAccess } from '../teams/access.js';
import { joinOpenTeams } from '../teams/memberships.js';
import { assertAdmin } from './policy.js';
import { USER_VIEW } from './present.js';
import * as q from './queries.js';

export interface NewAccount {
  name: string;
  email: string;
  password: string;
  role: Role;
}

const emailTaken = () => conflict('An account with this email already exists', 'email');

/**
 * Inserts an account inside the caller's transaction (the password already
 * hashed), recorded in the audit log as `user.created` by `recordedAs` (an
 * admin, the new user themselves, the system); null when the caller writes
 * its own entry (SCIM's `scim.userCreated`).
 */
export async function insertAccount(
  trx: Db,
  input: Omit<NewAccount, 'password'> & { passwordHash: string },
  recordedAs: AuditActor | 'self' | null,
) {
  const name = input.name.trim();
  const user = await q.insertUser(trx, {
    name,
    display_name: name.split(/\s+/)[0] ?? name,
    email: input.email.trim().toLowerCase(),
    password_hash: input.passwordHash,
    role: input.role,
    avatar_url: null,
  });
  await joinOpenTeams(trx, user);
  if (recordedAs) {
    await recordAudit(trx, {
      type: 'user.created',
      actor: recordedAs === 'self' ? { kind: 'user', id: user.id, label: user.email } : recordedAs,
      entity: userEntity(user),
      after: { name: user.name, email: user.email, role: user.role },
    });
  }
  return user;
}

/** Creates an account in its own transaction; a taken email is a 409. */
export async function createAccount(db: Db, input: NewAccount, by?: Actor): Promise<UserRow> {
  if (await q.findLiveUserByEmail(db, input.email.trim())) throw emailTaken();
  const passwordHash = await hashPassword(input.password);
  try {
    const recordedAs = by ? auditActorOf(by) : 'self';
    return await db
      .transaction()
      .execute((trx) => insertAccount(trx, { ...input, passwordHash }, recordedAs));
  } catch (err) {
    // Two registrations of one email racing past the check above.
    if (isUniqueViolation(err)) throw emailTaken();
    throw err;
  }
}

export async function adminCreateUser(ctx: AppContext, actor: Actor, input: NewAccount): Promise<UserRow> {
  assertAdmin(actor);
  return createAccount(ctx.db, input, actor);
}

export async function adminListUsersJson(
  ctx: AppContext,
  actor: Actor,
  page: { limit: number; offset: number },
): Promise<string> {
  assertAdmin(actor);
  return listUsersJson(ctx, actor, page);
}

/**
 * Live accounts the caller may see (everyone for members, their teams' people
 * for guests) as REST lists them: the page's ids, then their JSON in one statement.
 */
export async function listUsersJson(
  ctx: AppContext,
  actor: Actor,
  page: { limit: number; offset: number },
): Promise<string> {
  const access = await teamAccess(ctx.db, actor);
  const { rows, total } = await q.listVisibleUsers(ctx.db, access, page);
  const ids = rows.map((r) => r.id);
  return viewListAnswer(ctx.db, USER_VIEW, 'users', ids, readContextOf(ctx, actor, access), {
    pageInfo: { total, ...page },
  });
}

/** An account as an admin's answer shows it, `{"user":...}`, read after their change. */
export async function adminUserJson(ctx: AppContext, actor: Actor, id: string): Promise<string> {
  assertAdmin(actor);
  const c = readContextOf(ctx, actor, await teamAccess(ctx.db, actor));
  return viewAnswer(ctx.db, USER_VIEW, 'user', id, c, 'User');
}

const lastAdmin = () =>
  new AppError(
    400,
    'LAST_ADMIN',
    'The workspace must keep at least one active admin; promote someone else first',
  );

/** Refuses a change that would leave the workspace without an active admin. */
async function assertAdminsRemain(
  trx: Db,
  target: UserRow,
  next: { role: Role; status: UserStatus } | 'deleted',
) {
  const staysActiveAdmin = next !== 'deleted' && next.role === 'admin' && next.status === 'active';
  const isActiveAdmin = target.role === 'admin' && target.status === 'active';
  if (!isActiveAdmin || staysActiveAdmin) return;
  const admins = await q.lockActiveAdmins(trx);
  if (admins.length <= 1 && admins.includes(target.id)) throw lastAdmin();
}

export async function adminUpdateUser(
  ctx: AppContext,
  actor: Actor,
  id: string,
  patch: { role?: Role; status?: UserStatus; name?: string },
): Promise<UserRow> {
  assertAdmin(actor);
  return changeUser(ctx, id, patch, async (trx, before, after) => {
    // One entry per kind of change, each with only its fields.
    const entity = userEntity(before);
    for (const [type, field] of [
      ['user.roleChanged', 'role'],
      ['user.statusChanged', 'status'],
      ['user.updated', 'name'],
    ] as const) {
      const diff = changes<Record<string, unknown>>(before, { [field]: after[field] });
      if (diff) await recordAudit(trx, { type, actor: auditActorOf(actor), entity, ...diff });
    }
    return after;
  });
}

/** What a caller adds to a user change inside its transaction (SCIM: externalId, email, its audit entry). */
export type AlsoInTransaction = (trx: Db, before: UserRow, after: UserRow) => Promise<UserRow | undefined>;

/**
 * The one way an account's role, status or name changes, for admins (above)
 * and SCIM provisioning (modules/scim) alike: a suspension ends the account's
 * sessions and open change streams the same whoever asks for it.
 * The caller has authorised the change.
 */
export function changeUser(
  ctx: AppContext,
  id: string,
  patch: { role?: Role; status?: UserStatus; name?: string },
  also?: AlsoInTransaction,
): Promise<UserRow> {
  return changingCredentials(ctx.credentials, id, () => updateLocked(ctx, id, patch, also));
}

function updateLocked(
  ctx: AppContext,
  id: string,
  patch: { role?: Role; status?: UserStatus; name?: string },
  also?: AlsoInTransaction,
): Promise<UserRow> {
  return ctx.db.transaction().execute(async (trx) => {
    await q.serialiseAdminChanges(trx);
    // Read (and lock) the target only now, so we see any change that finished while we waited.
    const target = await q.lockLiveUser(trx, id);
    if (!target) throw notFound('User');
    await assertAdminsRemain(trx, target, {
      role: patch.role ?? target.role,
      status: patch.status ?? target.status,
    });
    const name = patch.name?.trim();
    // Suspending ends the account's sessions: its login tokens are retired
    // (epoch), so reactivating does not bring them back. API keys are kept,
    // refused while suspended, as they survive a password change: they are
    // credentials the owner made on purpose and revokes one by one.
    const suspending = patch.status === 'suspended' && target.status !== 'suspended';
    const updated = await q.updateUser(trx, id, {
      ...(patch.role ? { role: patch.role } : {}),
      ...(patch.status ? { status: patch.status } : {}),
      ...(name ? { name, display_name: name.split(/\s+/)[0] ?? name } : {}),
      bumpEpoch: suspending,
    });
    return (await also?.(trx, target, updated!)) ?? updated!;
  });
}

/**
 * Deletes an account. What the user wrote stays (issues they created, their
 * comments), still attributed to their name; they are unassigned from open
 * work, lose their API keys and memberships, and can no longer sign in.
 */
export async function adminDeleteUser(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  assertAdmin(actor);
  await deleteUser(ctx, id, (trx, target) =>
    recordAudit(trx, {
      type: 'user.deleted',
      actor: auditActorOf(actor),
      entity: userEntity(target),
      before: { name: target.name, email: target.email, role: target.role, status: target.status },
    }),
  );
}

/** The one way an account is deleted (admins above, SCIM DELETE); the caller has authorised it. */
export async function deleteUser(
  ctx: AppContext,
  id: string,
  also?: (trx: Db, before: UserRow) => Promise<void>,
): Promise<void> {
  await changingCredentials(ctx.credentials, id, () =>
    ctx.db.transaction().execute(async (trx) => {
      await q.serialiseAdminChanges(trx);
      const target = await q.lockLiveUser(trx, id);
      if (!target) throw notFound('User');
      await assertAdminsRemain(trx, target, 'deleted');
      await q.softDeleteUser(trx, id);
      await q.detachDeletedUser(trx, id);
      await also?.(trx, target);
    }),
  );
}

/**
 * A person's own record as the session answers show it (sign-in, registration,
 * /api/auth/me): every user sees their own row, and none of its fields depends
 * on what else they see.
 */
export async function ownUserJson(ctx: AppContext, userId: string): Promise<string> {
  const c = readContextOf(ctx, { id: userId }, fullAccess(userId));
  return viewAnswer(ctx.db, USER_VIEW, 'user', userId, c, 'User');
}

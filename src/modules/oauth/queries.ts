// SQL of the OAuth authorization server: oidc-provider's store (adapter.ts)
// and the dynamic-registration switch in the settings table.
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';

export interface StoredModel {
  payload: Record<string, unknown>;
  consumedAt: Date | null;
}

/** Expired rows this many at a time are removed when a row is written: the sweep's cost is bounded. */
const SWEEP_BATCH = 100;

export async function upsertModel(
  db: Db,
  row: {
    model: string;
    id: string;
    payload: Record<string, unknown>;
    grantId: string | null;
    uid: string | null;
    userCode: string | null;
    expiresInSeconds: number | undefined;
  },
): Promise<void> {
  const expiresAt =
    row.expiresInSeconds === undefined
      ? null
      : sql<Date>`now() + make_interval(secs => ${row.expiresInSeconds})`;
  const payload = sql`${JSON.stringify(row.payload)}::jsonb`;
  await db
    .insertInto('oauth_store')
    .values({
      model: row.model,
      id: row.id,
      payload,
      grant_id: row.grantId,
      uid: row.uid,
      user_code: row.userCode,
      expires_at: expiresAt,
      consumed_at: null,
    })
    .onConflict((oc) =>
      oc.columns(['model', 'id']).doUpdateSet({
        payload,
        grant_id: row.grantId,
        uid: row.uid,
        user_code: row.userCode,
        expires_at: expiresAt,
      }),
    )
    .execute();
}

/** Removes a bounded batch of expired rows of every model. */
export async function sweepExpired(db: Db): Promise<void> {
  await db
    .deleteFrom('oauth_store')
    .where(({ eb, selectFrom }) =>
      eb(
        sql`(model, id)`,
        'in',
        selectFrom('oauth_store')
          .select(['model', 'id'])
          .where('expires_at', '<', sql<Date>`now()`)
          .limit(SWEEP_BATCH),
      ),
    )
    .execute();
}

const live = sql<boolean>`(expires_at is null or expires_at > now())`;

async function findWhere(
  db: Db,
  model: string,
  column: 'id' | 'uid' | 'user_code',
  value: string,
): Promise<StoredModel | undefined> {
  const row = await db
    .selectFrom('oauth_store')
    .select(['payload', 'consumed_at'])
    .where('model', '=', model)
    .where(column, '=', value)
    .where(live)
    .executeTakeFirst();
  return row && { payload: row.payload as Record<string, unknown>, consumedAt: row.consumed_at };
}

export const findModel = (db: Db, model: string, id: string) => findWhere(db, model, 'id', id);
export const findModelByUid = (db: Db, model: string, uid: string) => findWhere(db, model, 'uid', uid);
export const findModelByUserCode = (db: Db, model: string, code: string) =>
  findWhere(db, model, 'user_code', code);

export async function consumeModel(db: Db, model: string, id: string): Promise<void> {
  await db
    .updateTable('oauth_store')
    .set({ consumed_at: sql<Date>`now()` })
    .where('model', '=', model)
    .where('id', '=', id)
    .execute();
}

export async function destroyModel(db: Db, model: string, id: string): Promise<void> {
  await db.deleteFrom('oauth_store').where('model', '=', model).where('id', '=', id).execute();
}

/** The store's name for which account a pending authorization belongs to (binding.ts). */
const CLAIM_MODEL = 'InteractionClaim';

/**
 * Claims interaction `uid` for `accountId` unless someone already has, and
 * answers the claimant: the first signed-in person to use it, whoever comes later.
 */
export async function claimInteraction(
  db: Db,
  uid: string,
  accountId: string,
  expiresInSeconds: number,
): Promise<string | undefined> {
  await db
    .insertInto('oauth_store')
    .values({
      model: CLAIM_MODEL,
      id: uid,
      payload: sql`${JSON.stringify({ accountId })}::jsonb`,
      grant_id: null,
      uid: null,
      user_code: null,
      expires_at: sql<Date>`now() + make_interval(secs => ${expiresInSeconds})`,
      consumed_at: null,
    })
    .onConflict((oc) => oc.columns(['model', 'id']).doNothing())
    .execute();
  const claim = await findModel(db, CLAIM_MODEL, uid);
  const owner = claim?.payload['accountId'];
  return typeof owner === 'string' ? owner : undefined;
}

/** Everything issued under a grant (its codes and tokens): revoking the grant ends them all. */
export async function destroyByGrant(db: Db, grantId: string): Promise<void> {
  await db.deleteFrom('oauth_store').where('grant_id', '=', grantId).execute();
}

// The apps (clients) and who authorized them. A grant is one person's
// authorization of one app; each consent writes one, so a person's app is the
// group of their live grants of it.

const liveRow = sql<boolean>`(s.expires_at is null or s.expires_at > now())`;

export interface AuthorizedAppRow {
  client_id: string;
  name: string | null;
  logo_uri: string | null;
  scopes: string | null;
  authorized_at: Date | null;
  last_used_at: Date | null;
  total: string | number;
}

/** A page of the apps a person authorized (newest authorization first), with the union of their scopes. */
export async function authorizedApps(
  db: Db,
  userId: string,
  page: { limit: number; offset: number },
): Promise<AuthorizedAppRow[]> {
  const result = await sql<AuthorizedAppRow>`
    with grants as (
      select s.id, s.payload->>'clientId' as client_id, s.payload->'openid'->>'scope' as scope,
             (s.payload->>'iat')::double precision as iat
      from oauth_store s
      where s.model = 'Grant' and s.payload->>'accountId' = ${userId} and ${liveRow}
    ), apps as (
      select client_id, max(iat) as iat, string_agg(coalesce(scope, ''), ' ') as scopes, array_agg(id) as grant_ids
      from grants group by client_id
    )
    select a.client_id, c.payload->>'client_name' as name, c.payload->>'logo_uri' as logo_uri, a.scopes,
           to_timestamp(a.iat) as authorized_at,
           (select to_timestamp(max((t.payload->>'iat')::double precision)) from oauth_store t
             where t.grant_id = any(a.grant_ids) and t.model in ('AccessToken', 'RefreshToken')) as last_used_at,
           count(*) over () as total
    from apps a left join oauth_store c on c.model = 'Client' and c.id = a.client_id
    order by a.iat desc, a.client_id
    limit ${page.limit} offset ${page.offset}`.execute(db);
  return result.rows;
}

const grantsOf = (db: Db, clientId: string, userId: string | undefined) => {
  let q = db
    .selectFrom('oauth_store')
    .select('id')
    .where('model', '=', 'Grant')
    .where(sql<string>`payload->>'clientId'`, '=', clientId);
  if (userId !== undefined) q = q.where(sql<string>`payload->>'accountId'`, '=', userId);
  return q;
};

/**
 * Ends one person's grants of an app (userId) or everyone's (undefined): the
 * grants and every code and token issued under them. Returns how many grants ended.
 */
export async function revokeGrants(db: Db, clientId: string, userId: string | undefined): Promise<number> {
  const ids = (await grantsOf(db, clientId, userId).execute()).map((r) => r.id);
  if (ids.length === 0) return 0;
  await db.deleteFrom('oauth_store').where('grant_id', 'in', ids).execute();
  await db.deleteFrom('oauth_store').where('model', '=', 'Grant').where('id', 'in', ids).execute();
  await db.deleteFrom('oauth_app_actor_grants').where('grant_id', 'in', ids).execute();
  return ids.length;
}

export interface AppRow {
  client_id: string;
  payload: Record<string, unknown>;
  admin_registered: boolean;
  registered_at: Date | null;
  users: string | number;
  total: string | number;
}

/** A page of every registered app (newest first) with how many people authorized it and who registered it. */
export async function allApps(db: Db, page: { limit: number; offset: number }): Promise<AppRow[]> {
  const issued = sql<Date | null>`to_timestamp((c.payload->>'client_id_issued_at')::double precision)`;
  const result = await sql<AppRow>`
    select c.id as client_id, c.payload, (a.client_id is not null) as admin_registered,
           coalesce(a.registered_at, ${issued}) as registered_at,
           (select count(distinct s.payload->>'accountId') from oauth_store s
             where s.model = 'Grant' and s.payload->>'clientId' = c.id and ${liveRow}) as users,
           count(*) over () as total
    from oauth_store c left join oauth_admin_apps a on a.client_id = c.id
    where c.model = 'Client'
    order by coalesce(a.registered_at, ${issued}) desc nulls last, c.id
    limit ${page.limit} offset ${page.offset}`.execute(db);
  return result.rows;
}

/** One registered app's stored metadata, and whether an admin registered it. */
export async function findApp(
  db: Db,
  clientId: string,
): Promise<{ payload: Record<string, unknown>; adminRegistered: boolean } | undefined> {
  const row = await db
    .selectFrom('oauth_store as c')
    .leftJoin('oauth_admin_apps as a', 'a.client_id', 'c.id')
    .select(['c.payload', sql<boolean>`(a.client_id is not null)`.as('admin_registered')])
    .where('c.model', '=', 'Client')
    .where('c.id', '=', clientId)
    .executeTakeFirst();
  return row && { payload: row.payload as Record<string, unknown>, adminRegistered: row.admin_registered };
}

/** Stores a client's metadata where the provider finds it (its Client model), kept until removed. */
export const saveClient = (db: Db, clientId: string, payload: Record<string, unknown>) =>
  upsertModel(db, {
    model: 'Client',
    id: clientId,
    payload,
    grantId: null,
    uid: null,
    userCode: null,
    expiresInSeconds: undefined,
  });

export async function insertAdminApp(db: Db, clientId: string, registeredBy: string): Promise<void> {
  await db
    .insertInto('oauth_admin_apps')
    .values({ client_id: clientId, registered_by: registeredBy })
    .execute();
}

/** Removes an app: its client row and the record of its registration (its grants end first). */
export async function deleteApp(db: Db, clientId: string): Promise<void> {
  await db.deleteFrom('oauth_store').where('model', '=', 'Client').where('id', '=', clientId).execute();
  await db.deleteFrom('oauth_admin_apps').where('client_id', '=', clientId).execute();
}

// Apps acting under their own name (actor=app): the app's own user and the
// grants given that way.

/** The app's own user (created on its first actor=app grant, renamed with the app); returns its id. */
export async function ensureAppUser(
  db: Db,
  clientId: string,
  name: string,
  iconUrl: string | null,
): Promise<string> {
  const row = await db
    .insertInto('users')
    .values({
      name,
      display_name: name,
      // Never mailed nor signed in with: .invalid is reserved (RFC 2606) and the hash matches no password.
      email: `app-${clientId.toLowerCase()}@apps.invalid`,
      password_hash: '!',
      role: 'member',
      status: 'app',
      avatar_url: iconUrl,
      email_notifications: false,
      app_client_id: clientId,
    })
    .onConflict((oc) =>
      oc
        .column('app_client_id')
        .doUpdateSet({ name, display_name: name, avatar_url: iconUrl, updated_at: sql<Date>`now()` }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function markAppActorGrant(db: Db, grantId: string, appUserId: string): Promise<void> {
  await db
    .insertInto('oauth_app_actor_grants')
    .values({ grant_id: grantId, app_user_id: appUserId })
    .onConflict((oc) => oc.column('grant_id').doNothing())
    .execute();
}

/** The app user a grant's tokens act as, when it was given with actor=app. */
export async function appActorOfGrant(db: Db, grantId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('oauth_app_actor_grants')
    .select('app_user_id')
    .where('grant_id', '=', grantId)
    .executeTakeFirst();
  return row?.app_user_id;
}

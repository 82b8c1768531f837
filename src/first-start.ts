// First start on an empty database: workspace, team ENG with its workflow,
// default labels, feature flags, the first admin and the JWT secret. Runs on
// every start and changes nothing once the workspace exists (new flags from a
// newer version are added).
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Config } from './config.js';
import { FLAG_CATALOG } from './modules/flags/catalog.js';
import { insertAccount } from './modules/users/service.js';
import { hashPassword } from './platform/auth/passwords.js';
import type { Db } from './platform/db/database.js';
import type { StateType } from './platform/db/tables.js';

const LOCK_ID = 727_002; // "trackway first start"

export const DEFAULT_STATES: { name: string; type: StateType; color: string }[] = [
  { name: 'Backlog', type: 'backlog', color: '#bec2c8' },
  { name: 'Todo', type: 'unstarted', color: '#e2e2e2' },
  { name: 'In Progress', type: 'started', color: '#f2c94c' },
  { name: 'In Review', type: 'started', color: '#0f783c' },
  { name: 'Done', type: 'completed', color: '#5e6ad2' },
  { name: 'Canceled', type: 'canceled', color: '#95a2b3' },
  { name: 'Duplicate', type: 'canceled', color: '#95a2b3' },
];

const DEFAULT_LABELS = [
  { name: 'Bug', color: '#eb5757' },
  { name: 'Feature', color: '#bb87fc' },
  { name: 'Improvement', color: '#4ea7fc' },
];

export interface FirstStartResult {
  jwtSecret: string;
  /** Set only when this start created the admin with a generated password. */
  generatedAdmin?: { email: string; password: string };
}

export async function firstStart(db: Db, config: Config): Promise<FirstStartResult> {
  const adminPassword = config.adminPassword ?? randomBytes(12).toString('base64url');
  // Hash outside the transaction (it is slow and needs no lock), and only when
  // the workspace does not exist yet: restarts skip the cost.
  const seeded = await db.selectFrom('workspace').select('id').executeTakeFirst();
  const adminHash = seeded ? '' : await hashPassword(adminPassword);

  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${LOCK_ID})`.execute(trx);

    await trx
      .insertInto('feature_flags')
      .values(
        FLAG_CATALOG.map((f) => ({
          key: f.key,
          label: f.label,
          description: f.description,
          enabled: f.enabled,
        })),
      )
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();

    let jwtSecret = config.jwtSecret;
    if (!jwtSecret) {
      await trx
        .insertInto('settings')
        .values({ key: 'jwt_secret', value: randomBytes(48).toString('base64url') })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      const row = await trx
        .selectFrom('settings')
        .select('value')
        .where('key', '=', 'jwt_secret')
        .executeTakeFirstOrThrow();
      jwtSecret = row.value;
    }

    const existing = await trx.selectFrom('workspace').select('id').executeTakeFirst();
    if (existing) return { jwtSecret };

    await trx
      .insertInto('workspace')
      .values({ name: 'Trackway', tagline: 'Plan, track and ship, together.', accent_color: '#5e6ad2' })
      .execute();
    const team = await trx
      .insertInto('teams')
      .values({ key: 'ENG', name: 'Engineering', description: null, color: '#5e6ad2', icon: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('workflow_states')
      .values(DEFAULT_STATES.map((s, i) => ({ ...s, team_id: team.id, position: i, description: null })))
      .execute();
    await trx
      .insertInto('labels')
      .values(
        DEFAULT_LABELS.map((l) => ({
          ...l,
          team_id: null,
          parent_id: null,
          description: null,
          creator_id: null,
        })),
      )
      .execute();

    const email = config.adminEmail ?? 'admin@localhost';
    await insertAccount(
      trx,
      { name: 'Admin', email, role: 'admin', passwordHash: adminHash },
      { kind: 'system', label: 'first start' },
    );
    return config.adminPassword
      ? { jwtSecret }
      : { jwtSecret, generatedAdmin: { email, password: adminPassword } };
  });
}

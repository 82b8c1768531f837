// Team membership rules shared by account creation and team management.
import type { Db } from '../../platform/db/database.js';

/** New accounts join every non-private team, as a workspace of one org expects. */
export async function joinOpenTeams(db: Db, userId: string): Promise<void> {
  await db
    .insertInto('team_memberships')
    .columns(['team_id', 'user_id'])
    .expression((eb) =>
      eb
        .selectFrom('teams')
        .select((e) => ['id', e.val(userId).as('user_id')])
        .where('private', '=', false)
        .where('archived_at', 'is', null),
    )
    .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
    .execute();
}

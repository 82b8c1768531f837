// Events for one person: a notification's event (modules/notifications/notify.ts)
// reaches its recipient's change streams and nobody else's, admins included,
// while the recipient still sees the teams in `team_ids` (the issue's)
// (platform/access.ts canSeeEvent). `user_id` names that person; webhooks
// never get these events (platform/outbox.ts writes no delivery for them).
export const name = 'user_scoped_events';

export const up = /* sql */ `
alter table webhook_events drop constraint webhook_events_scope_check;
alter table webhook_events add constraint webhook_events_scope_check
  check (scope in ('teams', 'project', 'workspace', 'user'));
alter table webhook_events add column user_id uuid;
alter table webhook_events add constraint webhook_events_user_scope
  check ((scope = 'user') = (user_id is not null));
`;

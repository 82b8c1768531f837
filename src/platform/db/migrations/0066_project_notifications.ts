// Notifications about a project (issue 26): a new project update reaches the
// project's members and lead as a `projectUpdateCreated` notification
// (modules/notifications/notify.ts). A row is about an issue or about a
// project, never both nor neither; deleting the project or the update deletes
// its notifications, as deleting an issue or comment does. The digest's
// waiting lines (mail_notification_items) name a project the same way.
export const name = 'project_notifications';

export const up = /* sql */ `
alter table notifications alter column issue_id drop not null;
alter table notifications add column project_id uuid references projects (id) on delete cascade;
alter table notifications add column project_update_id uuid references project_updates (id) on delete cascade;
alter table notifications add constraint notifications_about_one
  check ((issue_id is null) <> (project_id is null));
alter table notifications add constraint notifications_update_of_project
  check (project_update_id is null or project_id is not null);
-- The cascades, and the batch mutations' "one project's notifications".
create index notifications_project on notifications (project_id) where project_id is not null;
create index notifications_project_update on notifications (project_update_id) where project_update_id is not null;

alter table mail_notification_items alter column issue_id drop not null;
alter table mail_notification_items add column project_id uuid references projects (id) on delete cascade;
alter table mail_notification_items add constraint mail_notification_items_about_one
  check ((issue_id is null) <> (project_id is null));
create index mail_notification_items_project on mail_notification_items (project_id) where project_id is not null;
`;

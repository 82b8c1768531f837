// The file an attachment carries is no longer read from its URL (migration
// 0010 took the id from any URL on any host, so attaching a guessed or leaked
// id shared a file its attacher could not read). It becomes a plain column
// that the attachments service sets, only for our own download URL and only
// when the attacher may read the file (docs/security.md, "The file rule").
//
// Existing rows keep their file only where the attacher could read it by the
// rule that held when they attached: they uploaded it, they are an admin, or
// they see an issue where the uploader or an admin attached it. Every other
// row (a foreign host's URL took an id; an attacher who could not read it)
// becomes a plain link: its URL is kept, it carries no file. The host of old
// rows is not checked: PUBLIC_URL is not known here, and an attacher who may
// read a file shares nothing new by naming it through another host.
export const name = 'attachment_file_rule';

export const up = /* sql */ `
alter table attachments add column carried_file uuid references files (id) on delete set null;

update attachments a set carried_file = a.file_id
where a.file_id is not null
  and exists (select 1 from files f where f.id = a.file_id)
  and (
    exists (select 1 from files f where f.id = a.file_id and f.uploader_id = a.creator_id)
    or exists (select 1 from users u where u.id = a.creator_id and u.role = 'admin' and u.deleted_at is null)
    or exists (
      select 1
      from attachments o
      join files f on f.id = o.file_id
      join issues i on i.id = o.issue_id
      join teams tm on tm.id = i.team_id
      join users u on u.id = a.creator_id
      where o.file_id = a.file_id
        and (
          o.creator_id = f.uploader_id
          or exists (select 1 from users ou where ou.id = o.creator_id and ou.role = 'admin' and ou.deleted_at is null)
        )
        and (
          (not tm.private and u.role <> 'guest')
          or exists (
            select 1 from team_memberships m
            where m.team_id = tm.id and m.user_id = u.id and m.archived_at is null
          )
        )
    )
  );

alter table attachments drop column file_id;
alter table attachments rename column carried_file to file_id;
create index attachments_file on attachments (file_id) where file_id is not null;
`;

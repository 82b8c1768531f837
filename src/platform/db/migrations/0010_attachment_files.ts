// Which uploaded file an attachment points at, derived from its URL
// (`.../api/files/<id>`), so a file can be shown to whoever sees an issue
// that carries it (platform/access.ts) with one indexed lookup. A generated
// column cannot drift from the URL it is read from.
export const name = 'attachment_files';

export const up = /* sql */ `
alter table attachments add column file_id uuid generated always as (
  case when url ~* '/api/files/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
    then lower(right(url, 36))::uuid end
) stored;
create index attachments_file on attachments (file_id) where file_id is not null;
`;

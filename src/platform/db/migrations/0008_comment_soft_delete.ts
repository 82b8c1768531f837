// A comment deleted while it has replies stays as an empty placeholder
// (deleted_at set, body and author cleared) so the replies, which may be other
// people's, keep their thread. Without replies a comment is removed as before.
export const name = 'comment_soft_delete';

export const up = /* sql */ `
alter table comments add column deleted_at timestamptz;
`;

// GraphQL's notifications list pages by keyset over (created_at, id) for one
// user, archived rows included or not (docs/graphql.md, "The inbox"). The
// notifications_inbox index of 0017 leads with the archived flag, which a
// list of both cannot use for its order; this one serves the order and the
// cursor directly, so a page stops after its rows whatever the inbox's size.
export const name = 'notification_keyset';

export const up = /* sql */ `
create index notifications_user_created on notifications (user_id, created_at desc, id desc);
`;

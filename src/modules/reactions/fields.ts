// A target's reactions as every door reads them: the read model's
// Comment/Issue `reactions` and `reactionData`, REST's comment and issue views
// and the resolver fallback's loaders all take their SQL from here.
import { type RawBuilder, sql } from 'kysely';
import { type TeamAccess, visibility } from '../../platform/access.js';

type Sql = RawBuilder<unknown>;

/** What a reaction is on: an issue itself, or one of its comments. */
export type ReactionTarget = 'issue' | 'comment';

/**
 * The reactions of the target whose id is `id`, under alias `rcn` (a name
 * no reader of the target's row uses for it): a comment's
 * by comment_id; an issue's are those with no comment (a comment's reaction
 * carries its issue too, for the visibility rule, but is not the issue's).
 */
function onTarget(target: ReactionTarget, id: Sql, r = 'rcn'): Sql {
  return target === 'comment'
    ? sql`${sql.ref(`${r}.comment_id`)} = ${id}`
    : sql`${sql.ref(`${r}.issue_id`)} = ${id} and ${sql.ref(`${r}.comment_id`)} is null`;
}

/** A target's reactions as rows (id, ord), first given first: the read model's plain list. */
export const reactionIdsSql = (target: ReactionTarget, id: Sql): Sql =>
  sql`select rcn.id, row_number() over (order by rcn.created_at, rcn.id) as ord from reactions rcn where ${onTarget(target, id)}`;

/**
 * The summary the schema calls reactionData, as a JSON value: one entry per
 * emoji, in the order each was first given, with how many gave it and the ids
 * of those among them the caller may see (a guest sees only the people of
 * their teams; the count is everyone's, as the reactions list shows each
 * reaction with its user null where hidden).
 *   [{ "emoji": "👍", "count": 2, "userIds": ["…", "…"] }]
 */
export function reactionDataSql(target: ReactionTarget, id: Sql, access: TeamAccess): Sql {
  const seen =
    access.all || !access.guest
      ? sql`true`
      : sql`exists (select 1 from users rcn_user where rcn_user.id = rcn.user_id and ${visibility.user('rcn_user', access)})`;
  return sql`(select coalesce(json_agg(json_build_object('emoji', g.emoji, 'count', g.n, 'userIds', g.users) order by g.first, g.emoji), '[]'::json)
    from (select rcn.emoji, count(*)::int as n, min(rcn.created_at) as first,
      coalesce(array_agg(rcn.user_id order by rcn.created_at, rcn.id) filter (where ${seen}), '{}') as users
      from reactions rcn where ${onTarget(target, id)} group by rcn.emoji) as g)`;
}

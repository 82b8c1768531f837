// An issue's computed fields, each defined once for every door: REST
// (the read model's issue declaration, platform/read/entities.ts, and
// queries.ts selectIssues for the services' records), GraphQL (the compiled
// reads, nodes.ts and the Issue resolvers' loaders) and event payloads. What depends on the
// caller (whose name a branch carries, which sub-issues count) takes their
// TeamAccess and applies platform/access.ts's rule, so no door can show more
// than another. test/doors-agree.test.ts compares the doors field by field.
import { type RawBuilder, sql } from 'kysely';
import { type TeamAccess, visibility } from '../../platform/access.js';
import { integer, object } from '../../platform/read/json.js';
import { fillBranchFormat } from './branch-format.js';

type Sql = RawBuilder<unknown>;

// priorityLabel is the shared vocabulary's (priorities.ts, which the web UI imports too).
export { priorityLabel } from './priorities.js';

/** Lower-case ASCII words joined by dashes, accents folded, cut at a word end near `max`. */
export function slugify(text: string, max = 40): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (slug.length <= max) return slug;
  const cut = slug.slice(0, max + 1);
  const dash = cut.lastIndexOf('-');
  return (dash > max / 2 ? cut.slice(0, dash) : slug.slice(0, max)).replace(/-+$/, '');
}

export function issueUrl(publicUrl: string, identifier: string, title: string): string {
  const slug = slugify(title);
  return `${publicUrl}/issue/${identifier}${slug ? `/${slug}` : ''}`;
}

/**
 * The issue's branch name: the workspace's format (branch-format.ts) filled
 * with the issue and its owner's name; "user" when the owner is none or out
 * of the caller's sight.
 */
export function branchName(
  format: string,
  ownerName: string | null,
  issue: { identifier: string; number: number; title: string },
): string {
  const identifier = issue.identifier.toLowerCase();
  return fillBranchFormat(format, {
    identifier,
    number: String(issue.number),
    title: slugify(issue.title),
    teamKey: identifier.replace(/-\d+$/, ''),
    username: slugify(ownerName ?? '', 40) || 'user',
  });
}

/** The workspace's format, as SQL: one value per statement (an uncorrelated sub-select). */
export const branchFormatSql = sql<string>`(select w.git_branch_format from workspace w where w.id = 1)`;

/**
 * branchName as SQL over an issue row with its stored title slug (migration
 * 0031) and the owner's stored name slug: the same replacements in the same
 * order, then the same trimming, as fillBranchFormat.
 */
export function branchNameSql(issue: Sql, access: TeamAccess | undefined): Sql {
  const identifier = sql`lower(${issue}.identifier)`;
  const user = sql`coalesce(nullif(${branchOwnerSql(issue, access, 'name_slug')}, ''), 'user')`;
  const filled = sql`replace(replace(replace(replace(replace(${branchFormatSql},
    '{issue.identifier}', ${identifier}),
    '{issue.number}', ${issue}.number::text),
    '{issue.title}', coalesce(${issue}.title_slug, '')),
    '{team.key}', regexp_replace(${identifier}, '-[0-9]+$', '')),
    '{user.username}', ${user})`;
  return sql`regexp_replace(regexp_replace(${filled}, '/{2,}', '/', 'g'), '^[-_./]+|[-_./]+$', '', 'g')`;
}

/**
 * The display name branchName carries: the assignee's, else the creator's,
 * when the caller sees that person (visibility.user; undefined access: all).
 * An assignee out of sight gives none, not the creator's name. The compiled
 * reads take the name's slug as stored (`name_slug`, migration 0031).
 */
export const branchOwnerSql = (
  issue: Sql,
  access: TeamAccess | undefined,
  column: 'display_name' | 'name_slug' = 'display_name',
) =>
  sql<string | null>`(select ${sql.ref(`bo.${column}`)} from users bo
    where bo.id = coalesce(${issue}.assignee_id, ${issue}.creator_id)
    ${access ? sql`and ${visibility.user('bo', access)}` : sql``})`;

/**
 * The issue's label ids, ordered by id: the one order of labelIds in every
 * door (a label's name can change, its id cannot, so the order is stable
 * across renames; docs/rest-issues.md).
 */
export const labelIdsSql = (issue: Sql) =>
  sql<string[]>`array(select il.label_id::text from issue_labels il
    where il.issue_id = ${issue}.id order by il.label_id)`;

/**
 * How far an issue's sub-issues are: live (not archived) children the reader
 * sees, how many of them are completed, and how many canceled. The UI shows
 * "completed/(total - canceled) done", leaving canceled work out of scope as
 * project progress does.
 */
export interface ChildProgress {
  total: number;
  completed: number;
  canceled: number;
}

/**
 * childProgress as JSON (text built as the read model builds objects, typed
 * json), counted through the parent_id index; children out of the caller's
 * sight are not.
 */
export const childProgressSql = (issue: Sql, access: TeamAccess | undefined) =>
  sql<ChildProgress>`(select ${object([
    ['total', integer(sql`count(*)`)],
    ['completed', integer(sql`count(*) filter (where cs.type = 'completed')`)],
    ['canceled', integer(sql`count(*) filter (where cs.type = 'canceled')`)],
  ])}::json
    from issues ch join workflow_states cs on cs.id = ch.state_id
    where ch.parent_id = ${issue}.id and ch.archived_at is null
    ${access && !access.all ? sql`and ${visibility.issue('ch', access)}` : sql``})`;

/** json_build_object's counts may arrive as strings (int8); the field holds numbers. */
export const childProgressOf = (p: ChildProgress): ChildProgress => ({
  total: Number(p.total),
  completed: Number(p.completed),
  canceled: Number(p.canceled),
});

// The workspace's git branch name format (Organization.gitBranchFormat): a
// template of fixed text and placeholders, checked when an admin saves it and
// filled the same way in JavaScript (branchName in fields.ts) and in SQL (the
// read model). Import-free: the admin page checks a format with these rules
// before sending it.

export const DEFAULT_BRANCH_FORMAT = '{user.username}/{issue.identifier}-{issue.title}';
export const MAX_BRANCH_FORMAT_LENGTH = 100;

/**
 * What a placeholder becomes; every value is lower-case letters, digits and
 * dashes, so no value can contain a placeholder or a character git refuses.
 */
export const BRANCH_PLACEHOLDERS = {
  '{issue.identifier}': "the issue's identifier, lower-case (eng-123)",
  '{issue.number}': "the issue's number (123)",
  '{issue.title}': "the title's slug, cut near 40 characters (fix-the-login)",
  '{team.key}': "the team's key, lower-case (eng)",
  '{user.username}': 'the assignee\'s (else the creator\'s) display name as a slug, or "user"',
} as const;
export type BranchPlaceholder = keyof typeof BRANCH_PLACEHOLDERS;
export const BRANCH_PLACEHOLDER_NAMES = Object.keys(BRANCH_PLACEHOLDERS) as BranchPlaceholder[];

/** Characters allowed between placeholders: what git allows in a ref name, less the risky ones. */
const FIXED_TEXT = /^[A-Za-z0-9._/-]*$/;

/**
 * Why a format cannot be saved, or null when it can. The identifier is
 * required because it is what links a pushed branch back to its issue.
 */
export function branchFormatProblem(format: string): string | null {
  if (format.length === 0 || format.length > MAX_BRANCH_FORMAT_LENGTH)
    return `must be 1 to ${MAX_BRANCH_FORMAT_LENGTH} characters`;
  const unknown = (format.match(/\{[^{}]*\}/g) ?? []).find((p) => !Object.hasOwn(BRANCH_PLACEHOLDERS, p));
  if (unknown) return `unknown placeholder ${unknown}; known: ${BRANCH_PLACEHOLDER_NAMES.join(', ')}`;
  const fixed = format.replace(/\{[^{}]*\}/g, '');
  if (!FIXED_TEXT.test(fixed)) return 'may hold only letters, digits, ".", "_", "-", "/" and placeholders';
  if (!format.includes('{issue.identifier}')) return 'must contain {issue.identifier}';
  if (/^[/.-]/.test(format) || format.includes('//') || format.includes('..') || format.endsWith('.lock'))
    return 'must not start with "/", "." or "-", nor contain "//" or ".."';
  return null;
}

/** The values a format is filled with, already slugged. */
export interface BranchValues {
  identifier: string;
  number: string;
  title: string;
  teamKey: string;
  username: string;
}

/**
 * The format filled in; an empty value (a title without letters) leaves no
 * dangling separator at either end and no empty path part. The SQL twin is fields.ts branchNameSql.
 */
export function fillBranchFormat(format: string, v: BranchValues): string {
  return format
    .replaceAll('{issue.identifier}', v.identifier)
    .replaceAll('{issue.number}', v.number)
    .replaceAll('{issue.title}', v.title)
    .replaceAll('{team.key}', v.teamKey)
    .replaceAll('{user.username}', v.username)
    .replace(/\/{2,}/g, '/')
    .replace(/^[-_./]+|[-_./]+$/g, '');
}

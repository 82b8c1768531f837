// Our descriptions of the schema, written by rule from names: the third-party
// schema's names and types are facts we match, its prose is not ours to copy.
// A field this service does not hold says so, and says what it answers.

import { DEFAULT_PAGE, MAX_PAGE } from '../../platform/list/window.js';

const words = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
const plural = (w: string) => (w.endsWith('y') ? `${w.slice(0, -1)}ies` : w.endsWith('s') ? w : `${w}s`);
const sentence = (name: string) => {
  const w = words(name);
  return `${w[0]?.toUpperCase()}${w.slice(1)}`;
};

const TYPE_ABOUT: Record<string, string> = {
  Query: 'Entry points for reading.',
  Mutation: 'Entry points for changing data. Payloads report success and the latest sync id.',
  Node: 'Anything with a stable id.',
  PageInfo: 'Where a page sits in its list, for fetching the next or previous page.',
  Issue: 'A unit of work tracked by a team.',
  Comment: 'A message on an issue; replies point at their parent comment.',
  Project: 'A body of work spanning issues, possibly across teams.',
  Cycle: 'A numbered, time-boxed iteration of one team.',
  Team: 'A group of people with its own issue numbering, workflow and labels; the unit of access.',
  TeamMembership: 'A user belonging to a team.',
  WorkflowState: "A step in a team's workflow; its type places it in the lifecycle.",
  IssueLabel: 'A tag for issues, owned by a team or shared by the workspace.',
  User: 'A person with an account in this workspace.',
  Attachment: 'A link or uploaded file attached to an issue.',
  Webhook: 'An endpoint that receives signed change notifications.',
  Organization: 'The workspace itself.',
  UploadFile: 'Where and how to upload a file, and the address to reference it by afterwards.',
  IssueHistory: 'One recorded change of an issue.',
  IssueSearchResult: 'An issue matched by a text search.',
  DateTime: 'An ISO-8601 timestamp in UTC.',
  DateTimeOrDuration: 'An ISO-8601 timestamp, or an ISO-8601 duration relative to now (e.g. -P2W).',
  TimelessDate: 'A calendar date, YYYY-MM-DD.',
  TimelessDateOrDuration: 'A calendar date, or an ISO-8601 duration relative to today (e.g. P1D).',
  Duration: 'An ISO-8601 duration.',
  JSON: 'Any JSON value.',
  JSONObject: 'A JSON object.',
  UUID: 'A UUID.',
};

const FIELD_ABOUT: Record<string, string> = {
  id: 'Unique identifier.',
  createdAt: 'When it was created.',
  updatedAt: 'When it last changed in a meaningful way.',
  archivedAt: 'When it was archived; null while active.',
  nodes: 'The records of this page.',
  edges: 'The records of this page with their cursors.',
  node: 'The record.',
  cursor: 'Opaque position of this record, for after/before.',
  pageInfo: 'Paging information.',
  success: 'Whether the operation succeeded.',
  lastSyncId: 'Change counter after the operation.',
  identifier: 'Team key and number, e.g. ENG-123.',
  url: 'Address of the record in the web UI.',
  color: 'Colour, as #rrggbb.',
  and: 'All of these conditions.',
  or: 'Any of these conditions.',
  some: 'At least one related record matches.',
  every: 'Every related record matches.',
  length: 'Number of related records.',
  null: 'Whether the value is (true) or is not (false) absent.',
  eq: 'Equal to.',
  neq: 'Not equal to.',
  in: 'One of.',
  nin: 'None of.',
  lt: 'Less than.',
  lte: 'Less than or equal to.',
  gt: 'Greater than.',
  gte: 'Greater than or equal to.',
  contains: 'Contains (case-sensitive).',
  notContains: 'Does not contain (case-sensitive).',
  containsIgnoreCase: 'Contains, ignoring case.',
  notContainsIgnoreCase: 'Does not contain, ignoring case.',
  containsIgnoreCaseAndAccent: 'Contains, ignoring case and accents.',
  startsWith: 'Starts with.',
  notStartsWith: 'Does not start with.',
  endsWith: 'Ends with.',
  notEndsWith: 'Does not end with.',
  eqIgnoreCase: 'Equal to, ignoring case.',
  neqIgnoreCase: 'Not equal to, ignoring case.',
  startsWithIgnoreCase: 'Starts with, ignoring case.',
};

const ARG_ABOUT: Record<string, string> = {
  first: `Page size from the start (default ${DEFAULT_PAGE}, at most ${MAX_PAGE}).`,
  last: `Page size from the end (at most ${MAX_PAGE}).`,
  after: 'Cursor after which the page starts.',
  before: 'Cursor before which the page ends.',
  filter: 'Conditions the records must meet.',
  includeArchived: 'Include archived records.',
  orderBy: 'createdAt or updatedAt, newest first; ties broken by id.',
  id: 'Id of the record.',
  input: 'The values to write.',
};

const TYPE_RULES: [RegExp, (m: RegExpExecArray) => string][] = [
  [/^(\w+)Connection$/, (m) => `A page of ${plural(words(m[1] as string))}.`],
  [/^(\w+)Edge$/, (m) => `A ${words(m[1] as string)} with its cursor.`],
  [/^(\w+)Payload$/, (m) => `Result of a change to a ${words(m[1] as string)}.`],
  [/^(\w+)CreateInput$/, (m) => `Values for a new ${words(m[1] as string)}.`],
  [/^(\w+)UpdateInput$/, (m) => `Changes to a ${words(m[1] as string)}; omitted fields stay as they are.`],
  [/^(\w+)CollectionFilter$/, (m) => `Conditions on a set of ${plural(words(m[1] as string))}.`],
  [/^Nullable(\w+)Filter$/, (m) => `Conditions on an optional ${words(m[1] as string)}.`],
  [/^(\w+)Filter$/, (m) => `Conditions on ${plural(words(m[1] as string))}; fields combine with AND.`],
  [/^(\w+)Comparator$/, (m) => `Comparisons for a ${words(m[1] as string)} value.`],
  [/^(\w+)SortInput$/, (m) => `Sort keys for ${plural(words(m[1] as string))}.`],
  [/^(\w+)Sort$/, (m) => `Sort by ${words(m[1] as string)}.`],
];

export type TypeKind = 'object' | 'interface' | 'input' | 'enum' | 'union' | 'scalar';

/** A type's description; `held` is false for object types this service does not hold at all. */
export function describeType(name: string, kind: TypeKind, held: boolean): string {
  const about = TYPE_ABOUT[name];
  if (about) return about;
  if (kind === 'object' && !held) return `${sentence(name)}: not held by this service.`;
  for (const [re, text] of TYPE_RULES) {
    const m = re.exec(name);
    if (m) return text(m);
  }
  if (kind === 'enum') return `Values of ${words(name)}.`;
  if (kind === 'scalar') return `Scalar ${name}.`;
  return `${sentence(name)}.`;
}

/** What an unheld output field answers, by its type (see unheldValue in build-schema.ts). */
function unheldAnswer(type: string): string {
  if (!type.endsWith('!')) return 'always null';
  if (type.startsWith('[')) return 'always an empty list';
  if (/Connection!$/.test(type)) return 'always an empty page';
  if (/^(Boolean|Int|Float)!$/.test(type)) return `always ${type === 'Boolean!' ? 'false' : '0'}`;
  return 'an empty value';
}

export function describeField(name: string, type: string, held: boolean): string {
  const about = FIELD_ABOUT[name] ?? `${sentence(name)}.`;
  return held ? about : `${about} Not held by this service: ${unheldAnswer(type)}.`;
}

export function describeRootField(root: 'Query' | 'Mutation', name: string, held: boolean): string {
  if (held) return `${sentence(name)}.`;
  return root === 'Mutation'
    ? `${sentence(name)}. Not held by this service: answers a "feature not accessible" error.`
    : `${sentence(name)}. Not held by this service: answers empty, or "feature not accessible" where a value is required.`;
}

export const describeArg = (name: string) => ARG_ABOUT[name] ?? `${sentence(name)}.`;
export const describeInputField = (name: string) => FIELD_ABOUT[name] ?? `${sentence(name)}.`;

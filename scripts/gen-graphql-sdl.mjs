#!/usr/bin/env node
// One-off drafting tool: writes src/graphql/schema/*.ts (SDL strings) from the
// names and types listed in ../shared/linear-compat/surface.json. The output is
// committed and edited by hand afterwards; the server never reads ../shared.
// Descriptions are our own, generated from simple rules below.
//   node scripts/gen-graphql-sdl.mjs [path/to/surface.json]
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const surfacePath = process.argv[2] ?? path.join(root, '../shared/linear-compat/surface.json');
const { types } = JSON.parse(fs.readFileSync(surfacePath, 'utf8'));
const outDir = path.join(root, 'src/graphql/schema');

const HELD = {
  issue:
    /^(Issue(Connection|Payload|ArchivePayload|CreateInput|UpdateInput|History|HistoryConnection|RelationHistoryPayload|SearchPayload|SearchResult|SharedAccess|SharedAccessDisallowedField|Import)?|ArchiveResponse|SLADayCountType)$/,
  label: /^(IssueLabel\w*|LabelGroupType)$/,
  comment: /^Comment(Connection|Payload|CreateInput|UpdateInput)?$/,
  project:
    /^(Project(Connection|Payload|ArchivePayload|CreateInput|UpdateInput|Status|StatusType|UpdateHealthType)?|DateResolutionType|FrequencyResolutionType)$/,
  cycle: /^Cycle(Connection|Payload|CreateInput|UpdateInput)?$/,
  team: /^(Team(Connection|Membership|MembershipConnection)?|TeamVisibility)$/,
  'workflow-state': /^WorkflowState(Connection)?$/,
  user: /^(User(Connection)?|ActorBot|ExternalUser)$/,
  attachment: /^Attachment(Connection|Payload|CreateInput|UpdateInput)?$/,
  file: /^Upload(File|FileHeader|Payload)$/,
  webhook: /^Webhook(Connection|Payload|CreateInput|UpdateInput)?$/,
  organization:
    /^(Organization|PaidSubscription|Day|ReleaseChannel|FeedSummarySchedule|ProjectUpdateReminderFrequency)$/,
};

function moduleOf(name, t) {
  if (name === 'Query' || name === 'Mutation') return 'root';
  if (t.kind === 'scalar' || /^(PageInfo|Node|ArchivePayload|DeletePayload|Pagination\w+)$/.test(name))
    return 'common';
  if (t.kind === 'input' && /Comparator$/.test(name)) return 'comparators';
  if (t.kind === 'input' && /Filter$/.test(name)) return 'filters';
  if (t.kind === 'input' && /Sort(Input)?$/.test(name)) return 'sorting';
  for (const [mod, re] of Object.entries(HELD)) if (re.test(name)) return mod;
  return 'unheld';
}

const words = (name) => name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
const plural = (w) => (w.endsWith('y') ? `${w.slice(0, -1)}ies` : w.endsWith('s') ? w : `${w}s`);

const TYPE_DESC = {
  Query: 'Entry points for reading.',
  Mutation: 'Entry points for changing data. Payloads report success and the latest sync id.',
  Node: 'Anything with a stable id.',
  ArchivePayload: 'Result of an archive-style change.',
  PageInfo: 'Where a page sits in its list, for fetching the next or previous page.',
  DeletePayload: 'Result of a deletion: the id of what was removed.',
  Issue: 'A unit of work tracked by a team.',
  Comment: 'A message on an issue; replies point at their parent comment.',
  Project: 'A body of work spanning issues, possibly across teams.',
  Cycle: 'A numbered, time-boxed iteration of one team.',
  Team: 'A group of people with its own issue numbering, workflow and labels.',
  TeamMembership: 'A user belonging to a team.',
  WorkflowState: "A step in a team's workflow; its type places it in the lifecycle.",
  IssueLabel: 'A tag for issues, owned by a team or shared by the workspace.',
  User: 'A person with an account in this workspace.',
  Attachment: 'A link or uploaded file attached to an issue.',
  Webhook: 'An endpoint that receives signed change notifications.',
  Organization: 'The workspace itself.',
  UploadFile: 'Where and how to upload a file, and the address to reference it by afterwards.',
  UploadFileHeader: 'A header the upload request must carry.',
  IssueHistory: 'One recorded change of an issue.',
  IssueSearchResult: 'An issue matched by a text search.',
  DateTime: 'An ISO-8601 timestamp in UTC.',
  DateTimeOrDuration: 'An ISO-8601 timestamp, or an ISO-8601 duration relative to now (e.g. -P2W).',
  TimelessDate: 'A calendar date, YYYY-MM-DD.',
  TimelessDateOrDuration: 'A calendar date, or an ISO-8601 duration relative to today (e.g. P1D).',
  Duration: 'An ISO-8601 duration.',
  JSON: 'Any JSON value.',
  JSONObject: 'A JSON object.',
};

const FIELD_DESC = {
  id: 'Unique identifier.',
  createdAt: 'When it was created.',
  updatedAt: 'When it last changed in a meaningful way.',
  archivedAt: 'When it was archived; null while active.',
  nodes: 'The records of this page.',
  edges: 'The records of this page with their cursors.',
  pageInfo: 'Paging information.',
  success: 'Whether the operation succeeded.',
  lastSyncId: 'Change counter after the operation.',
  entityId: 'Id of the removed record.',
  name: 'Name.',
  description: 'Longer description.',
  color: 'Colour, as #rrggbb.',
  identifier: 'Team key and number, e.g. ENG-123.',
  title: 'Title.',
  url: 'Address of the record.',
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

const ARG_DESC = {
  first: 'Page size from the start (default 50, at most 250).',
  last: 'Page size from the end (at most 250).',
  after: 'Cursor after which the page starts.',
  before: 'Cursor before which the page ends.',
  filter: 'Conditions the records must meet.',
  includeArchived: 'Include archived records.',
  orderBy: 'Sort key; newest first.',
  id: 'Id of the record.',
  input: 'The values to write.',
};

const RULES = [
  [/^(\w+)Connection$/, (m) => `A page of ${plural(words(m[1]))}.`],
  [/^(\w+)Edge$/, (m) => `A ${words(m[1])} with its cursor.`],
  [/^(\w+)Payload$/, (m) => `Result of a change to a ${words(m[1])}.`],
  [/^(\w+)CreateInput$/, (m) => `Values for a new ${words(m[1])}.`],
  [/^(\w+)UpdateInput$/, (m) => `Changes to a ${words(m[1])}; omitted fields stay as they are.`],
  [
    /^(\w+)CollectionFilter$/,
    (m) => `Conditions on a set of ${plural(words(m[1]))}: some, every, or conditions every member meets.`,
  ],
  [/^Nullable(\w+)Filter$/, (m) => `Conditions on an optional ${words(m[1])}.`],
  [/^(\w+)Filter$/, (m) => `Conditions on ${plural(words(m[1]))}; fields combine with AND.`],
  [/^(\w+)Comparator$/, (m) => `Comparisons for a ${words(m[1])} value.`],
  [/^(\w+)SortInput$/, (m) => `Sort keys for ${plural(words(m[1]))}.`],
  [/^(\w+)Sort$/, (m) => `Sort by ${words(m[1])}.`],
];

const sentence = (name) => `${words(name)[0].toUpperCase()}${words(name).slice(1)}`;

function typeDesc(name, t) {
  if (TYPE_DESC[name]) return TYPE_DESC[name];
  for (const [re, text] of RULES) {
    const m = re.exec(name);
    if (m) return text(m);
  }
  if (t.kind === 'enum') return `Values of ${words(name)}.`;
  if (t.kind === 'scalar') return `Scalar ${name}.`;
  if (moduleOf(name, t) === 'unheld') return `${sentence(name)}: not held by this service; always absent.`;
  return `${sentence(name)}.`;
}

const desc = (text, indent) => `${indent}"""${text.replace(/"""/g, '\\"""')}"""\n`;
const BUILT_IN = new Set(['String', 'Int', 'Float', 'Boolean', 'ID']);

function fieldLine(fname, f, indent) {
  let out = desc(FIELD_DESC[fname] ?? `${words(fname)[0].toUpperCase()}${words(fname).slice(1)}.`, indent);
  if (typeof f === 'string') return `${out}${indent}${fname}: ${f}\n`;
  const args = Object.entries(f.args)
    .map(([a, at]) => `${indent}  ${ARG_DESC[a] ? `"${ARG_DESC[a]}" ` : ''}${a}: ${at}`)
    .join('\n');
  out += `${indent}${fname}(\n${args}\n${indent}): ${f.type}\n`;
  return out;
}

const modules = new Map();
const add = (mod, text) => {
  if (!modules.has(mod)) modules.set(mod, []);
  modules.get(mod).push(text);
};

for (const [name, t] of Object.entries(types).sort(([a], [b]) => a.localeCompare(b))) {
  const mod = moduleOf(name, t);
  if (t.kind === 'scalar' && BUILT_IN.has(name)) continue;
  let text = desc(typeDesc(name, t), '');
  if (t.kind === 'scalar') text += `scalar ${name}\n`;
  else if (t.kind === 'enum') text += `enum ${name} {\n${t.values.map((v) => `  ${v}`).join('\n')}\n}\n`;
  else if (t.kind === 'union') text += `union ${name} = ${t.types.join(' | ')}\n`;
  else {
    const kw = t.kind === 'input' ? 'input' : t.kind === 'interface' ? 'interface' : 'type';
    const impl = t.implements?.length ? ` implements ${t.implements.join(' & ')}` : '';
    const fields = { ...t.fields };
    // Our additions beyond the surface: deletions through archive payloads name what they removed.
    if (name === 'IssueArchivePayload' || name === 'ProjectArchivePayload') fields.entityId = 'String';
    // Connections also offer edges (node + cursor), which the SDK does not select.
    const m = t.kind === 'object' ? /^(\w+)Connection$/.exec(name) : null;
    if (m) {
      fields.edges = `[${m[1]}Edge!]!`;
      add(
        mod,
        `${desc(typeDesc(`${m[1]}Edge`, t), '')}type ${m[1]}Edge {\n${fieldLine('node', `${m[1]}!`, '  ')}${desc('Opaque position of this record, for after/before.', '  ')}  cursor: String!\n}\n`,
      );
    }
    text += `${kw} ${name}${impl} {\n${Object.entries(fields)
      .map(([f, ft]) => fieldLine(f, ft, '  '))
      .join('')}}\n`;
  }
  add(mod, text);
}

fs.mkdirSync(outDir, { recursive: true });
const names = [...modules.keys()].sort();
for (const mod of names) {
  const ident = mod.replace(/-(\w)/g, (_, c) => c.toUpperCase());
  const body = modules.get(mod).join('\n').replace(/`/g, '\\`');
  fs.writeFileSync(
    path.join(outDir, `${mod}.ts`),
    `// GraphQL SDL: ${mod === 'unheld' ? 'types of concepts this service does not hold (resolved as empty)' : `${mod} types`}.\n// Names and types match the schema @linear/sdk expects; descriptions are ours.\nexport const ${ident}Sdl = /* GraphQL */ \`\n${body}\`;\n`,
  );
}
fs.writeFileSync(
  path.join(outDir, 'index.ts'),
  `// The whole schema's SDL, assembled from one module per domain.\n${names
    .map((m) => `import { ${m.replace(/-(\w)/g, (_, c) => c.toUpperCase())}Sdl } from './${m}.js';`)
    .join('\n')}\n\nexport const schemaSdl = [\n${names
    .map((m) => `  ${m.replace(/-(\w)/g, (_, c) => c.toUpperCase())}Sdl,`)
    .join('\n')}\n].join('\\n');\n`,
);
console.log(`wrote ${names.length} modules to ${path.relative(root, outDir)}`);

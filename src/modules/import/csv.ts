// A generic CSV importer: a file of issues, one a row, and a mapping (JSON)
// naming the column of each field. Parsed by csv-parse (quoted newlines, a
// BOM, CRLF). What is wrong with the input as a whole (an unreadable file, a
// mapping naming no title column, a column the file lacks) is an
// ImportInputError before anything is written; a row that cannot be an issue
// (no title, a date that is no date, a key seen before) is refused and
// reported, and the other rows are imported.
import { parse } from 'csv-parse/sync';
// The one function, not the package's index (300 modules, about 5 MB of heap in every process).
import { parse as parseDate } from 'date-fns/parse';
import type { StateType } from '../../platform/db/tables.js';
import { wikiToMarkdown } from './jira-wiki.js';
import { type ImportComment, ImportInputError, type ImportIssue, type ImportSource } from './model.js';

const STATE_TYPES: readonly StateType[] = [
  'triage',
  'backlog',
  'unstarted',
  'started',
  'completed',
  'canceled',
];
export const FIELDS = [
  'key',
  'title',
  'description',
  'state',
  'priority',
  'assignee',
  'creator',
  'labels',
  'created',
  'updated',
  'completed',
  'due',
  'estimate',
  'parent',
  'comments',
] as const;
type Field = (typeof FIELDS)[number];

export interface CsvMapping {
  /** The team every row goes to (its key; created when missing). */
  team: string;
  teamName?: string;
  /** Which column holds each field; `title` is required. */
  columns: Partial<Record<Field, string>>;
  /** Between labels in the labels column (default ","). */
  labelSeparator?: string;
  /** A state's name in the file → a state name of the team, or a state type to create it with. */
  states?: Record<string, string>;
  /** A priority's name in the file → 0 (none) to 4 (low). */
  priorities?: Record<string, number>;
  /** How dates are written, in date-fns' tokens (Jira's default: `dd/MMM/yy h:mm a`); read as UTC. Default: ISO 8601. */
  dateFormat?: string;
  /** A person named without an email (an account id, a username) becomes `<name>@<userDomain>`; without it, nobody. */
  userDomain?: string;
  /** `jira`: a comment cell is `date;author;body`, as Jira's CSV export writes it. Default: the cell is the body. */
  commentFormat?: 'plain' | 'jira';
  /** `jira-wiki`: descriptions and comments are Jira's wiki markup, turned into Markdown. Default: as written. */
  textFormat?: 'markdown' | 'jira-wiki';
}

/** The largest CSV text accepted, and the most rows: an import's cost is bounded. */
export const CSV_MAX_BYTES = 50 * 1024 * 1024;
export const CSV_MAX_ROWS = 100_000;
const PAGE = 100;
const TEAM_KEY = /^[A-Za-z][A-Za-z0-9]{0,9}$/;

/** Checks a mapping as parsed from JSON; its faults are ImportInputErrors naming the field. */
export function checkMapping(raw: unknown): CsvMapping {
  const fail = (m: string): never => {
    throw new ImportInputError(`mapping: ${m}`);
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('must be a JSON object');
  const m = raw as Record<string, unknown>;
  if (typeof m.team !== 'string' || !TEAM_KEY.test(m.team))
    fail('team must be a team key (letters and digits)');
  if (m.teamName !== undefined && (typeof m.teamName !== 'string' || m.teamName.trim() === ''))
    fail('teamName must be text');
  if (typeof m.columns !== 'object' || m.columns === null || Array.isArray(m.columns))
    fail('columns must be an object');
  const columns = m.columns as Record<string, unknown>;
  for (const [k, v] of Object.entries(columns)) {
    if (!(FIELDS as readonly string[]).includes(k)) fail(`columns.${k} is not one of ${FIELDS.join(', ')}`);
    if (typeof v !== 'string' || v === '') fail(`columns.${k} must name a column`);
  }
  if (typeof columns.title !== 'string') fail('columns.title is required');
  if (m.labelSeparator !== undefined && (typeof m.labelSeparator !== 'string' || m.labelSeparator === ''))
    fail('labelSeparator must be text');
  if (m.dateFormat !== undefined && (typeof m.dateFormat !== 'string' || m.dateFormat.trim() === ''))
    fail('dateFormat must be text');
  if (
    m.userDomain !== undefined &&
    (typeof m.userDomain !== 'string' || !/^[a-z0-9.-]+$/i.test(m.userDomain))
  )
    fail('userDomain must be a domain name');
  if (m.commentFormat !== undefined && m.commentFormat !== 'plain' && m.commentFormat !== 'jira')
    fail('commentFormat must be plain or jira');
  if (m.textFormat !== undefined && m.textFormat !== 'markdown' && m.textFormat !== 'jira-wiki')
    fail('textFormat must be markdown or jira-wiki');
  for (const name of ['states', 'priorities'] as const) {
    const v = m[name];
    if (v === undefined) continue;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(`${name} must be an object`);
    for (const [k, x] of Object.entries(v as object)) {
      if (name === 'states' && (typeof x !== 'string' || x.trim() === '')) fail(`states.${k} must be text`);
      if (name === 'priorities' && !(Number.isInteger(x) && x >= 0 && x <= 4))
        fail(`priorities.${k} must be 0-4`);
    }
  }
  return m as unknown as CsvMapping;
}

/** A parsed row and the line of the file it starts on (what a refusal names). A repeated column's cells come as a list. */
interface Row {
  cells: Record<string, string | string[]>;
  line: number;
}

function parseRows(text: string, mapping: CsvMapping): Row[] {
  if (Buffer.byteLength(text) > CSV_MAX_BYTES)
    throw new ImportInputError(`the file is over ${CSV_MAX_BYTES} bytes`);
  let rows: Row[];
  try {
    // Line ends made LF first: csv-parse counts a CRLF inside a quoted field as two lines, and a
    // description's line breaks are LF anyway. `info.lines` is the line a record ends on; it
    // starts as many lines earlier as its fields hold line breaks.
    const parsed = parse(text.replace(/\r\n?/g, '\n'), {
      columns: true,
      bom: true,
      skip_empty_lines: true,
      trim: false,
      info: true,
      // Jira's export repeats a column once per value (Labels, Comment, Sprint): all are kept.
      group_columns_by_name: true,
      to: CSV_MAX_ROWS + 1,
    }) as unknown as { record: Record<string, string | string[]>; info: { lines: number } }[];
    rows = parsed.map(({ record, info }) => ({
      cells: record,
      line:
        info.lines -
        Object.values(record)
          .flat()
          .reduce((n, v) => n + (v.match(/\n/g)?.length ?? 0), 0),
    }));
  } catch (err) {
    throw new ImportInputError(`the file is not readable CSV: ${(err as Error).message}`);
  }
  if (rows.length > CSV_MAX_ROWS) throw new ImportInputError(`the file has more than ${CSV_MAX_ROWS} rows`);
  const header = rows[0] ? Object.keys(rows[0].cells) : [];
  for (const [field, column] of Object.entries(mapping.columns)) {
    if (rows.length && !header.includes(column!))
      throw new ImportInputError(`mapping: columns.${field} names "${column}", which the file lacks`);
  }
  return rows;
}

/** A date as the mapping writes it (date-fns tokens, read as UTC), or ISO 8601; undefined when it is none. */
function dateReader(format: string | undefined) {
  return (v: string) => {
    let d = new Date(v);
    if (format) {
      const local = parseDate(v, format, new Date());
      // date-fns reads in the process's time zone: the same wall time in UTC.
      d = new Date(local.getTime() - local.getTimezoneOffset() * 60_000);
    }
    return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
  };
}

/** A Jira export's comment cell: `07/Mar/24 8:00 AM;<account id or username>;<body>`. */
function jiraComment(cell: string, readDate: (v: string) => string | undefined) {
  const m = /^([^;]*);([^;]*);([\s\S]*)$/.exec(cell);
  const createdAt = m ? readDate(m[1]!.trim()) : undefined;
  if (!m || !createdAt) return { author: undefined, body: cell, createdAt: undefined };
  return { author: m[2]!.trim() || undefined, body: m[3]!, createdAt };
}

/** `name` names the source (re-runs of one name find their records); `text` the file; `mapping` as checked. */
export function csvSource(name: string, text: string, rawMapping: unknown): ImportSource {
  const mapping = checkMapping(rawMapping);
  const rows = parseRows(text, mapping);
  const teamRef = `team:${mapping.team.toUpperCase()}`;
  const sep = mapping.labelSeparator ?? ',';
  const cells = (row: Row['cells'], f: Field) => {
    const c = mapping.columns[f];
    const v = c === undefined ? undefined : row[c];
    return (Array.isArray(v) ? v : v === undefined ? [] : [v]).map((x) => x.trim()).filter(Boolean);
  };
  // A repeated column: its labels are all of them, any other field its first non-empty cell.
  const col = (row: Row['cells'], f: Field) =>
    f === 'labels' ? cells(row, f).join(sep) || undefined : cells(row, f)[0];
  const isoDate = dateReader(mapping.dateFormat);
  const markdown = (v: string) => (mapping.textFormat === 'jira-wiki' ? wikiToMarkdown(v) : v);
  const person = (v: string | undefined) =>
    !v
      ? undefined
      : v.includes('@')
        ? v
        : mapping.userDomain
          ? `${v.toLowerCase()}@${mapping.userDomain}`
          : undefined;
  const stateOf = (raw: string) => {
    const to = mapping.states?.[raw];
    const type = STATE_TYPES.find((t) => t === to?.toLowerCase());
    return type ? { name: raw, type } : { name: to ?? raw, type: undefined };
  };

  // Each row becomes an issue or a refusal, once: the reference data is what the accepted rows name.
  const issues: (ImportIssue | string)[] = [];
  const seen = new Map<string, number>();
  const states = new Map<string, { name: string; type: StateType | undefined }>();
  const labels = new Map<string, string>();
  for (const [i, { cells: row, line }] of rows.entries()) {
    // Without a key column a row is keyed by its place among the rows (not its line: a
    // description gaining a line break must not change the keys of the rows after it).
    const key = col(row, 'key') ?? `row ${i + 1}`;
    const at = `${key} (line ${line})`;
    const first = seen.get(key);
    if (first !== undefined) {
      issues.push(`${at}: duplicate key (first on line ${first}); skipped`);
      continue;
    }
    seen.set(key, line);
    const title = col(row, 'title');
    if (!title) {
      issues.push(`${at}: no title`);
      continue;
    }
    const dates: Record<string, string | undefined> = {};
    const badDate = (['created', 'updated', 'completed', 'due'] as const).find((f) => {
      const v = col(row, f);
      if (v === undefined) return false;
      dates[f] = isoDate(v);
      return dates[f] === undefined;
    });
    if (badDate) {
      issues.push(`${at}: ${badDate} "${col(row, badDate)!.slice(0, 40)}" is not a date`);
      continue;
    }
    const rawPriority = col(row, 'priority');
    const mapped = rawPriority === undefined ? undefined : mapping.priorities?.[rawPriority];
    const n = rawPriority === undefined ? undefined : Number(rawPriority);
    const priority = mapped ?? (n !== undefined && Number.isInteger(n) && n >= 0 && n <= 4 ? n : undefined);
    const estimate = col(row, 'estimate') === undefined ? undefined : Number(col(row, 'estimate'));
    const rawState = col(row, 'state');
    const state = rawState === undefined ? undefined : stateOf(rawState);
    if (state) states.set(state.name.toLowerCase(), state);
    const names = (col(row, 'labels') ?? '')
      .split(sep)
      .map((l) => l.trim())
      .filter(Boolean);
    for (const l of names) labels.set(l.toLowerCase(), l);
    const comments = cells(row, 'comments').map((cell, n): ImportComment => {
      const c =
        mapping.commentFormat === 'jira'
          ? jiraComment(cell, isoDate)
          : { author: undefined, body: cell, createdAt: undefined };
      return {
        key: `${key}#comment-${n + 1}`,
        authorEmail: person(c.author) ?? null,
        body: markdown(c.body),
        createdAt: c.createdAt,
        updatedAt: c.createdAt,
      };
    });
    issues.push({
      key,
      identifier: key,
      teamRef,
      title: title.replace(/\s+/g, ' '),
      description: markdown(col(row, 'description') ?? '') || null,
      stateRef: state ? `state:${state.name.toLowerCase()}` : null,
      priority: priority ?? null,
      estimate: estimate !== undefined && Number.isFinite(estimate) ? estimate : null,
      dueDate: dates.due ?? null,
      assigneeEmail: person(col(row, 'assignee')) ?? null,
      creatorEmail: person(col(row, 'creator')) ?? null,
      labelRefs: names.map((l) => `label:${l.toLowerCase()}`),
      parentRef: col(row, 'parent') ?? null,
      createdAt: dates.created,
      updatedAt: dates.updated,
      completedAt: dates.completed ?? null,
      comments,
    });
  }

  return {
    kind: 'csv',
    name: `csv:${name}`,
    label: 'CSV',
    async reference() {
      const emails = new Set<string>();
      for (const x of issues) {
        if (typeof x === 'string') continue;
        for (const e of [x.assigneeEmail, x.creatorEmail, ...(x.comments ?? []).map((c) => c.authorEmail)])
          if (e) emails.add(e.toLowerCase());
      }
      return {
        users: [...emails].map((email) => ({ email })),
        teams: [
          { key: teamRef, teamKey: mapping.team.toUpperCase(), name: mapping.teamName ?? mapping.team },
        ],
        states: [...states.entries()].map(([k, s]) => ({
          key: `state:${k}`,
          teamRef,
          name: s.name,
          type: s.type,
        })),
        labels: [...labels.entries()].map(([k, name]) => ({ key: `label:${k}`, teamRef, name })),
        projects: [],
        milestones: [],
        cycles: [],
      };
    },
    async *issues(cursor: string | null) {
      // The cursor is the index of the next row: a resumed run skips what the run already wrote.
      const start = cursor === null ? 0 : Math.max(0, Number.parseInt(cursor, 10) || 0);
      for (let i = start; i < issues.length; i += PAGE) {
        const slice = issues.slice(i, i + PAGE);
        const next = i + PAGE < issues.length ? String(i + PAGE) : null;
        yield {
          issues: slice.filter((x): x is ImportIssue => typeof x !== 'string'),
          refused: slice.filter((x): x is string => typeof x === 'string'),
          next,
          // Every row is an issue or a refusal: the file's size is known.
          total: { count: issues.length, unit: 'issue' as const },
        };
      }
    },
  };
}

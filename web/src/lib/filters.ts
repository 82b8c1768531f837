// The filter builder's filters (components/Filters.tsx): each one a field, an
// operator and values, kept in the address as one `f` parameter and sent to the
// server as a GraphQL IssueFilter (the server filters, never the browser).
//
// Address form: filters joined by `~`, each `field.op.values` with values
// joined by `_`; every word is letters, digits and `-` (ids, `me`, numbers,
// date words such as `next-P7D`), so nothing needs escaping:
//   f=state.anyOf.<id>_<id>~assignee.isNot.me~due.is.overdue
// Anything malformed is dropped, never thrown on: a shared or old link opens.
// No imports: the server-side property test (test/web-filters.test.ts) loads it as is.

export const FIELDS = [
  'team',
  'state',
  'assignee',
  'creator',
  'priority',
  'label',
  'project',
  'cycle',
  'estimate',
  'due',
  'created',
  'updated',
  'subIssues',
  'blocked',
] as const;
export type Field = (typeof FIELDS)[number];

export const OPS = ['is', 'isNot', 'anyOf', 'noneOf', 'empty'] as const;
export type Op = (typeof OPS)[number];

export interface Filter {
  field: Field;
  op: Op;
  /** Empty for `empty`; one for a date or a yes/no field; one or more otherwise. */
  values: string[];
}

/** How a field is chosen: from a list (many at once), a relative date, or one of a few states. */
export type FieldKind = 'set' | 'date' | 'flag';
export const FIELD_KIND: Record<Field, FieldKind> = {
  team: 'set',
  state: 'set',
  assignee: 'set',
  creator: 'set',
  priority: 'set',
  label: 'set',
  project: 'set',
  cycle: 'set',
  estimate: 'set',
  due: 'date',
  created: 'date',
  updated: 'date',
  subIssues: 'flag',
  blocked: 'flag',
};
/** Fields an issue may have no value of: they offer "is empty". */
const NULLABLE: ReadonlySet<Field> = new Set([
  'assignee',
  'creator',
  'label',
  'project',
  'cycle',
  'estimate',
  'due',
]);

/** The operators a field offers, in menu order. */
export function opsFor(field: Field): Op[] {
  const kind = FIELD_KIND[field];
  if (kind === 'flag') return ['is', 'isNot'];
  if (kind === 'date') return NULLABLE.has(field) ? ['is', 'empty'] : ['is'];
  return NULLABLE.has(field)
    ? ['is', 'isNot', 'anyOf', 'noneOf', 'empty']
    : ['is', 'isNot', 'anyOf', 'noneOf'];
}

export const FLAG_VALUES: Record<'subIssues' | 'blocked', string[]> = {
  subIssues: ['parent', 'child'],
  blocked: ['blocked', 'blocking'],
};

/**
 * Relative dates: `overdue` (due before today, not done), `next-P7D` (from
 * today to 7 days on), `last-P2W` (within the last 2 weeks), `before-P1M`
 * (longer ago than a month). Durations are whole days, weeks or months.
 */
const DATE_WORD = /^(?:overdue|(?:next|last|before)-P([1-9]\d{0,2}|0)([DWM]))$/;
export const DATE_CHOICES: Record<'due' | 'created' | 'updated', string[]> = {
  due: ['overdue', 'next-P0D', 'next-P7D', 'next-P2W', 'next-P1M', 'last-P7D'],
  created: ['last-P1D', 'last-P7D', 'last-P2W', 'last-P1M', 'last-P3M', 'before-P1M', 'before-P3M'],
  updated: ['last-P1D', 'last-P7D', 'last-P2W', 'last-P1M', 'before-P1M', 'before-P3M'],
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MAX_VALUES = 50;
const MAX_FILTERS = 20;

/** Whether `v` is a value `field` can hold. */
export function validValue(field: Field, v: string): boolean {
  switch (field) {
    case 'assignee':
    case 'creator':
      return v === 'me' || UUID.test(v);
    case 'priority':
      return /^[0-4]$/.test(v);
    case 'estimate':
      return /^(?:0|[1-9]\d{0,2})$/.test(v);
    case 'due':
      return DATE_WORD.test(v);
    case 'created':
    case 'updated':
      return DATE_WORD.test(v) && v !== 'overdue' && !v.startsWith('next-');
    case 'subIssues':
    case 'blocked':
      return FLAG_VALUES[field].includes(v);
    default:
      return UUID.test(v);
  }
}

/** A filter as the builder keeps it: valid values once each, the operator fitting their number. */
export function normalize(f: Filter): Filter | null {
  if (!opsFor(f.field).includes(f.op)) return null;
  if (f.op === 'empty') return { field: f.field, op: 'empty', values: [] };
  const values = [...new Set(f.values.filter((v) => validValue(f.field, v)))].slice(0, MAX_VALUES);
  if (values.length === 0) return null;
  if (FIELD_KIND[f.field] !== 'set') return { field: f.field, op: f.op, values: values.slice(0, 1) };
  return { field: f.field, op: f.op, values };
}

export function encodeFilters(filters: readonly Filter[]): string {
  return filters.map((f) => `${f.field}.${f.op}.${f.values.join('_')}`).join('~');
}

/** The filters an address's `f` holds; never throws, drops what it cannot read. */
export function decodeFilters(text: unknown): Filter[] {
  if (typeof text !== 'string' || text === '') return [];
  const out: Filter[] = [];
  for (const part of text.slice(0, 8000).split('~')) {
    const [field, op, values, ...rest] = part.split('.');
    if (rest.length > 0 || !isOneOf(FIELDS, field) || !isOneOf(OPS, op)) continue;
    const f = normalize({ field, op, values: values ? values.split('_') : [] });
    if (f) out.push(f);
    if (out.length === MAX_FILTERS) break;
  }
  return out;
}

/** The filters of several sources, each once (an old address's key and its `f` twin say one thing). */
export function uniqueFilters(filters: readonly Filter[]): Filter[] {
  const seen = new Set<string>();
  return filters.filter((f) => {
    const key = encodeFilters([f]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const isOneOf = <T extends string>(list: readonly T[], v: unknown): v is T =>
  typeof v === 'string' && (list as readonly string[]).includes(v);

/**
 * The filters of an old address (one value per key: `state=<id>`,
 * `assignee=me|none|<id>`, `priority=2`, `project=none`...), as builder filters.
 */
export function fromSingleValues(search: Record<string, unknown>): Filter[] {
  const out: Filter[] = [];
  const keys: [string, Field][] = [
    ['state', 'state'],
    ['assignee', 'assignee'],
    ['label', 'label'],
    ['priority', 'priority'],
    ['project', 'project'],
    ['cycle', 'cycle'],
  ];
  for (const [key, field] of keys) {
    const raw = search[key];
    const v = typeof raw === 'number' ? String(raw) : raw;
    if (typeof v !== 'string' || v === '') continue;
    const f = normalize(
      v === 'none' && NULLABLE.has(field)
        ? { field, op: 'empty', values: [] }
        : { field, op: 'is', values: [v] },
    );
    if (f) out.push(f);
  }
  return out;
}

// ---------- as a GraphQL IssueFilter ----------

type Json = { [key: string]: unknown };
const DONE = ['completed', 'canceled'];
const unit = { D: 'D', W: 'W', M: 'M' } as const;

/** A relative date word as the filter's comparator on that date (the server resolves durations). */
function dateComparator(word: string): { cmp: Json; open?: boolean } {
  if (word === 'overdue') return { cmp: { lt: 'P0D' }, open: true };
  const m = /^(next|last|before)-P(\d+)([DWM])$/.exec(word)!;
  const d = `P${m[2]}${unit[m[3] as 'D']}`;
  if (m[1] === 'next') return { cmp: { gte: 'P0D', lte: d } };
  if (m[1] === 'last') return { cmp: { gte: `-${d}` } };
  return { cmp: { lt: `-${d}` } };
}

/** The IssueFilter field and how an id is compared there, for the fields chosen from lists. */
const RELATION: Partial<Record<Field, string>> = {
  team: 'team',
  state: 'state',
  assignee: 'assignee',
  creator: 'creator',
  project: 'project',
  cycle: 'cycle',
};

/** One filter as an IssueFilter; `me` stands for the viewer. */
export function filterToIssueFilter(f: Filter, viewerId: string | undefined): Json {
  const ids = f.values.map((v) => (v === 'me' ? (viewerId ?? '') : v));
  const many = f.op === 'anyOf' || f.op === 'noneOf' || ids.length > 1;
  const negated = f.op === 'isNot' || f.op === 'noneOf';
  const relation = RELATION[f.field];
  if (relation) {
    if (f.op === 'empty') return { [relation]: { null: true } };
    const id = negated ? (many ? { nin: ids } : { neq: ids[0] }) : many ? { in: ids } : { eq: ids[0] };
    // "Is not X" keeps the issues with none at all, as a person reading it expects.
    if (negated && NULLABLE.has(f.field))
      return { or: [{ [relation]: { null: true } }, { [relation]: { id } }] };
    return { [relation]: { id } };
  }
  switch (f.field) {
    case 'priority':
    case 'estimate': {
      const key = f.field;
      if (f.op === 'empty') return { [key]: { null: true } };
      const n = f.values.map(Number);
      const cmp = negated ? (many ? { nin: n } : { neq: n[0] }) : many ? { in: n } : { eq: n[0] };
      if (negated && key === 'estimate') return { or: [{ estimate: { null: true } }, { estimate: cmp }] };
      return { [key]: cmp };
    }
    case 'label': {
      if (f.op === 'empty') return { labels: { null: true } };
      if (negated) return { labels: { every: { id: { nin: ids } } } };
      return { labels: { some: { id: many ? { in: ids } : { eq: ids[0] } } } };
    }
    case 'due':
    case 'created':
    case 'updated': {
      const key = f.field === 'due' ? 'dueDate' : `${f.field}At`;
      if (f.op === 'empty') return { [key]: { null: true } };
      const { cmp, open } = dateComparator(f.values[0]!);
      // Overdue is what is still to do: a done issue's date has passed harmlessly.
      return open ? { [key]: cmp, state: { type: { nin: DONE } } } : { [key]: cmp };
    }
    case 'subIssues': {
      const key = f.values[0] === 'parent' ? 'children' : 'parent';
      return { [key]: { null: negated } };
    }
    case 'blocked': {
      const key = f.values[0] === 'blocked' ? 'hasBlockedByRelations' : 'hasBlockingRelations';
      return { [key]: { eq: !negated } };
    }
    default:
      return {};
  }
}

/**
 * The filters as one IssueFilter: side by side when each says something of
 * its own field (`{ priority: { eq: 1 } }` for `priority=1`, as saved views
 * always stored it), else under `and`.
 */
export function filtersToIssueFilter(filters: readonly Filter[], viewerId: string | undefined): Json {
  const parts = filters.map((f) => filterToIssueFilter(f, viewerId));
  const merged: Json = {};
  for (const p of parts) {
    if (Object.keys(p).some((k) => k in merged)) return { and: parts };
    Object.assign(merged, p);
  }
  return merged;
}

// ---------- from a GraphQL IssueFilter ----------

/** What of an IssueFilter the builder shows as chips, and the rest it cannot (kept as it is). */
export interface ReadFilter {
  filters: Filter[];
  /** The conditions no chip says (another client's filter), ANDed with the chips; null when none. */
  rest: Json | null;
}

const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const only = (v: unknown, key: string): unknown =>
  isJson(v) && Object.keys(v).length === 1 && key in v ? v[key] : undefined;
const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The conditions an IssueFilter ANDs: its `and` parts' and each of its other keys, one by one. */
function conjuncts(f: unknown, depth = 0): Json[] {
  if (!isJson(f) || depth > 8) return [{ and: [f] }];
  const out: Json[] = [];
  for (const [k, v] of Object.entries(f)) {
    if (k === 'and' && Array.isArray(v)) for (const part of v) out.push(...conjuncts(part, depth + 1));
    else out.push({ [k]: v });
  }
  return out;
}

/** An id comparison (`{ eq }`, `{ in }`, `{ neq }`, `{ nin }`) as an operator and values. */
function idsOf(cmp: unknown): { op: Op; values: string[] } | null {
  if (!isJson(cmp) || Object.keys(cmp).length !== 1) return null;
  const [[k, v]] = Object.entries(cmp) as [[string, unknown]];
  const list = Array.isArray(v) ? v : [v];
  if (!list.every((x) => typeof x === 'string' || typeof x === 'number')) return null;
  const values = list.map(String);
  if (k === 'eq' && !Array.isArray(v)) return { op: 'is', values };
  if (k === 'neq' && !Array.isArray(v)) return { op: 'isNot', values };
  if (k === 'in' && Array.isArray(v)) return { op: 'anyOf', values };
  if (k === 'nin' && Array.isArray(v)) return { op: 'noneOf', values };
  return null;
}

/** A relative date comparator back to its word (dateComparator's inverse). */
function dateWord(cmp: unknown): string | null {
  if (!isJson(cmp)) return null;
  const keys = Object.keys(cmp).sort().join(',');
  const d = (s: unknown, sign: string) =>
    typeof s === 'string' ? new RegExp(`^${sign}(P\\d+[DWM])$`).exec(s)?.[1] : undefined;
  if (keys === 'gte,lte' && cmp['gte'] === 'P0D' && d(cmp['lte'], '')) return `next-${d(cmp['lte'], '')}`;
  if (keys === 'gte' && d(cmp['gte'], '-')) return `last-${d(cmp['gte'], '-')}`;
  if (keys === 'lt' && d(cmp['lt'], '-')) return `before-${d(cmp['lt'], '-')}`;
  return null;
}

const FIELD_OF_RELATION = Object.fromEntries(Object.entries(RELATION).map(([f, r]) => [r, f as Field]));
const DATE_FIELD: Record<string, Field> = { dueDate: 'due', createdAt: 'created', updatedAt: 'updated' };

/** One condition as one chip (filterToIssueFilter's inverse), or null when no chip says it. */
function chipOf(c: Json): Filter | null {
  const [[key, v]] = Object.entries(c) as [[string, unknown]];
  const nullable = (field: Field, cmp: unknown) =>
    sameJson(cmp, { null: true }) && opsFor(field).includes('empty')
      ? { field, op: 'empty' as const, values: [] }
      : null;
  const relation = FIELD_OF_RELATION[key];
  if (relation) {
    const ids = idsOf(only(v, 'id'));
    // A nullable field's "is not" keeps the issues with none: written as an `or` (below).
    if (ids && (ids.op === 'is' || ids.op === 'anyOf' || !NULLABLE.has(relation)))
      return { field: relation, ...ids };
    return nullable(relation, v);
  }
  if (key === 'priority' || key === 'estimate') {
    const n = idsOf(v);
    if (n && (n.op === 'is' || n.op === 'anyOf' || key === 'priority')) return { field: key, ...n };
    return nullable(key, v);
  }
  if (key === 'labels') {
    const some = idsOf(only(only(v, 'some'), 'id'));
    if (some && (some.op === 'is' || some.op === 'anyOf')) return { field: 'label', ...some };
    const every = idsOf(only(only(v, 'every'), 'id'));
    if (every?.op === 'noneOf')
      return { field: 'label', op: every.values.length > 1 ? 'noneOf' : 'isNot', values: every.values };
    return nullable('label', v);
  }
  if (key in DATE_FIELD) {
    const field = DATE_FIELD[key]!;
    const word = dateWord(v);
    return word ? { field, op: 'is', values: [word] } : nullable(field, v);
  }
  if (key === 'children' || key === 'parent') {
    const isNull = only(v, 'null');
    if (typeof isNull !== 'boolean') return null;
    return {
      field: 'subIssues',
      op: isNull ? 'isNot' : 'is',
      values: [key === 'children' ? 'parent' : 'child'],
    };
  }
  if (key === 'hasBlockedByRelations' || key === 'hasBlockingRelations') {
    const eq = only(v, 'eq');
    if (typeof eq !== 'boolean') return null;
    const value = key === 'hasBlockedByRelations' ? 'blocked' : 'blocking';
    return { field: 'blocked', op: eq ? 'is' : 'isNot', values: [value] };
  }
  if (key === 'or' && Array.isArray(v) && v.length === 2) {
    // "Is not" on a field an issue may lack: { or: [{ f: { null: true } }, { f: <negated> }] }.
    const [none, neg] = v as unknown[];
    if (!isJson(none) || !isJson(neg) || Object.keys(none).length !== 1) return null;
    const [k] = Object.keys(none) as [string];
    if (!sameJson(none, { [k]: { null: true } }) || Object.keys(neg).join() !== k) return null;
    const field = FIELD_OF_RELATION[k] ?? (k === 'estimate' ? 'estimate' : undefined);
    if (!field || !NULLABLE.has(field)) return null;
    const ids = idsOf(field === 'estimate' ? neg[k] : only(neg[k], 'id'));
    if (ids && (ids.op === 'isNot' || ids.op === 'noneOf')) return { field, ...ids };
  }
  return null;
}

/**
 * An IssueFilter (a saved view's, written by any client) as builder chips:
 * each condition a chip says becomes one, the rest is kept as it is. Never
 * throws; a chip always reads back to the condition it came from.
 */
export function issueFilterToFilters(filter: unknown): ReadFilter {
  const parts = conjuncts(filter ?? {});
  // Overdue is two conditions: the due date before today, and the issue still to do; paired here.
  const where = (like: Json) => parts.flatMap((c, i) => (sameJson(c, like) ? [i] : []));
  const toDo = where({ state: { type: { nin: DONE } } });
  const dueBefore = where({ dueDate: { lt: 'P0D' } });
  const pairs = Math.min(toDo.length, dueBefore.length);
  const overdue = new Set(dueBefore.slice(0, pairs));
  const paired = new Set([...toDo.slice(0, pairs), ...overdue]);
  const filters: Filter[] = [];
  const rest: Json[] = [];
  parts.forEach((c, i) => {
    if (paired.has(i)) {
      if (overdue.has(i)) filters.push({ field: 'due', op: 'is', values: ['overdue'] });
      return;
    }
    const chip = chipOf(c);
    const fixed = chip && normalize(chip);
    // Only a chip that says exactly this condition: anything it would drop or change stays as it is.
    if (fixed && sameJson(filterToIssueFilter(fixed, undefined), c)) filters.push(fixed);
    else rest.push(c);
  });
  return { filters, rest: rest.length === 0 ? null : rest.length === 1 ? rest[0]! : { and: rest } };
}

// Whether an issue belongs in a cached list, judged in the browser from the
// list's own IssueFilter: lets a change from elsewhere (or an optimistic edit)
// be put where it belongs without reading the list again. Only the parts of the
// filter the UI builds are understood; anything else (a text search, a saved
// view's richer filter) answers `undefined`, "cannot tell", and that list is
// read again instead.
// No imports: the server-side property test (test/web-issue-match.test.ts) loads it as is.

/** An IssueFilter, as far as this reads it. */
type IssueFilter = { [field: string]: unknown };
/** The parts of a list row a filter is judged on. */
interface Issue {
  id: string;
  teamId: string;
  stateId: string;
  assigneeId: string | null;
  projectId: string | null;
  cycleId: string | null;
  priority: number;
  labelIds: string[];
}

type Verdict = boolean | undefined;

const and = (vs: Verdict[]): Verdict =>
  vs.includes(false) ? false : vs.includes(undefined) ? undefined : true;
const or = (vs: Verdict[]): Verdict =>
  vs.includes(true) ? true : vs.includes(undefined) ? undefined : false;

/** A comparator on an id: `{ eq }`, `{ neq }`, `{ in }`, `{ nin }`; undefined for anything else. */
function compareId(c: unknown, value: string | null): Verdict {
  if (!c || typeof c !== 'object') return undefined;
  const out: Verdict[] = [];
  for (const [op, arg] of Object.entries(c as Record<string, unknown>)) {
    if (op === 'eq') out.push(value === arg);
    else if (op === 'neq') out.push(value !== arg);
    else if (op === 'in' && Array.isArray(arg)) out.push(value !== null && arg.includes(value));
    else if (op === 'nin' && Array.isArray(arg)) out.push(value === null || !arg.includes(value));
    else return undefined;
  }
  return and(out);
}

function nullId(c: unknown): Verdict {
  if (!c || typeof c !== 'object') return undefined;
  const ops = Object.keys(c);
  return ops.length > 0 && ops.every((op) => op === 'eq' || op === 'in') ? false : undefined;
}

/** A relation filter such as `assignee: { null: true }` or `assignee: { id: { eq } }`. */
function compareRef(f: unknown, value: string | null): Verdict {
  if (!f || typeof f !== 'object') return undefined;
  const out: Verdict[] = [];
  for (const [k, v] of Object.entries(f as Record<string, unknown>)) {
    if (k === 'null') out.push((value === null) === v);
    // An unset relation: eq/in never match it; the server's neq/nin rules for it are left to the server.
    else if (k === 'id') out.push(value === null ? nullId(v) : compareId(v, value));
    else return undefined;
  }
  return and(out);
}

function compareNumber(c: unknown, value: number): Verdict {
  if (!c || typeof c !== 'object') return undefined;
  const out: Verdict[] = [];
  for (const [op, arg] of Object.entries(c as Record<string, unknown>)) {
    if (op === 'eq') out.push(value === arg);
    else if (op === 'neq') out.push(value !== arg);
    else if (op === 'in' && Array.isArray(arg)) out.push(arg.includes(value));
    else return undefined;
  }
  return and(out);
}

function labelsMatch(f: unknown, labelIds: string[]): Verdict {
  if (!f || typeof f !== 'object') return undefined;
  const out: Verdict[] = [];
  for (const [k, v] of Object.entries(f as Record<string, unknown>)) {
    if (k === 'some' && v && typeof v === 'object' && Object.keys(v).join() === 'id')
      out.push(or(labelIds.map((id) => compareId((v as { id: unknown }).id, id))));
    else return undefined;
  }
  return and(out);
}

/** True, false, or undefined when the filter says something this cannot judge. */
export function matchesFilter(filter: IssueFilter, issue: Issue): Verdict {
  const out: Verdict[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined || value === null) continue;
    switch (key) {
      case 'and':
        out.push(and((value as IssueFilter[]).map((f) => matchesFilter(f, issue))));
        break;
      case 'or':
        out.push(or((value as IssueFilter[]).map((f) => matchesFilter(f, issue))));
        break;
      case 'id':
        out.push(compareId(value, issue.id));
        break;
      case 'team':
        out.push(compareRef(value, issue.teamId));
        break;
      case 'state':
        out.push(compareRef(value, issue.stateId));
        break;
      case 'assignee':
        out.push(compareRef(value, issue.assigneeId));
        break;
      case 'project':
        out.push(compareRef(value, issue.projectId));
        break;
      case 'cycle':
        out.push(compareRef(value, issue.cycleId));
        break;
      case 'priority':
        out.push(compareNumber(value, issue.priority));
        break;
      case 'labels':
        out.push(labelsMatch(value, issue.labelIds));
        break;
      default:
        out.push(undefined);
    }
  }
  return and(out);
}

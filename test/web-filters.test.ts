// The web UI's filter builder (web/src/lib/filters.ts, issue 26): its address
// form reads back what it wrote and never throws on any address, an old
// single-value address still opens, and every filter it can build is one the
// server accepts and answers as a person reads the chip (a small model of each
// field judged against the server's list).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import {
  DATE_CHOICES,
  decodeFilters,
  encodeFilters,
  FIELD_KIND,
  FIELDS,
  type Filter,
  FLAG_VALUES,
  filtersToIssueFilter,
  fromSingleValues,
  issueFilterToFilters,
  normalize,
  opsFor,
} from '../web/src/lib/filters.js';
import { parseView } from '../web/src/lib/view.js';
import { startTestApp, type TestApp } from './support/harness.js';

const byText = (a: Filter, b: Filter) => encodeFilters([a]).localeCompare(encodeFilters([b]));

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 12) * 8;
const uuid = fc.uuid({ version: 4 });

/** Values a field may hold, given the ids to draw from. */
function valuesOf(field: Filter['field'], ids: fc.Arbitrary<string>): fc.Arbitrary<string> {
  switch (field) {
    case 'assignee':
    case 'creator':
      return fc.oneof(fc.constant('me'), ids);
    case 'priority':
      return fc.integer({ min: 0, max: 4 }).map(String);
    case 'estimate':
      return fc.integer({ min: 0, max: 999 }).map(String);
    case 'due':
    case 'created':
    case 'updated':
      return fc.constantFrom(...DATE_CHOICES[field]);
    case 'subIssues':
    case 'blocked':
      return fc.constantFrom(...FLAG_VALUES[field]);
    default:
      return ids;
  }
}

/** Any filter the builder can hold (normalised as the builder keeps it). */
function builderFilter(ids: fc.Arbitrary<string> = uuid, fields = FIELDS): fc.Arbitrary<Filter> {
  return fc
    .constantFrom(...fields)
    .chain((field) =>
      fc.record({
        field: fc.constant(field),
        op: fc.constantFrom(...opsFor(field)),
        values: fc.uniqueArray(valuesOf(field, ids), {
          minLength: 1,
          maxLength: FIELD_KIND[field] === 'set' ? 4 : 1,
        }),
      }),
    )
    .map((f) => normalize(f)!);
}

describe('the filter builder in the address', () => {
  test('decode(encode(filters)) is the filters', () => {
    fc.assert(
      fc.property(fc.array(builderFilter(), { maxLength: 8 }), (filters) => {
        assert.deepEqual(decodeFilters(encodeFilters(filters)), filters);
      }),
      { numRuns: RUNS * 4 },
    );
  });

  test('any text decodes without throwing, to filters that encode and decode to themselves', () => {
    const pieces = fc.oneof(
      fc.string(),
      fc.constantFrom(...FIELDS, 'is', 'isNot', 'anyOf', 'noneOf', 'empty', 'me', '~', '.', '_', 'overdue'),
      uuid,
    );
    fc.assert(
      fc.property(
        fc.array(pieces, { maxLength: 12 }).map((p) => p.join('')),
        (text) => {
          const filters = decodeFilters(text);
          for (const f of filters) assert.deepEqual(normalize(f), f);
          assert.deepEqual(decodeFilters(encodeFilters(filters)), filters);
        },
      ),
      { numRuns: RUNS * 4 },
    );
  });

  test('any query string parses to a view without throwing, and parsing it again changes nothing', () => {
    const value = fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.array(fc.string()), fc.object());
    const keys = fc.constantFrom(
      'f',
      'q',
      'team',
      'state',
      'assignee',
      'label',
      'priority',
      'project',
      'cycle',
      'group',
      'order',
      'show',
      'view',
      'x',
    );
    fc.assert(
      fc.property(fc.dictionary(keys, value), (search) => {
        const view = parseView(search as Record<string, unknown>);
        assert.deepEqual(parseView(view as Record<string, unknown>), view);
      }),
      { numRuns: RUNS * 4 },
    );
  });

  test('a saved IssueFilter reads back as the chips that wrote it, nothing left over', () => {
    const viewer = '0b7e6c1a-2222-4333-8444-955566667777';
    /** One meaning, one form: several values are "any of"/"none of"; a label's one "none of" is "is not". */
    const canonical = (fs: Filter[]) =>
      fs
        .map((f) => {
          const values = f.values.map((v) => (v === 'me' ? viewer : v));
          const many = values.length > 1;
          const op =
            f.op === 'is' && many
              ? 'anyOf'
              : f.op === 'isNot' && many
                ? 'noneOf'
                : f.field === 'label' && f.op === 'noneOf' && !many
                  ? 'isNot'
                  : f.op;
          return encodeFilters([{ ...f, op, values }]);
        })
        .sort();
    fc.assert(
      fc.property(fc.array(builderFilter(), { maxLength: 8 }), (filters) => {
        const read = issueFilterToFilters(filtersToIssueFilter(filters, viewer));
        assert.equal(read.rest, null, JSON.stringify(filtersToIssueFilter(filters, viewer)));
        assert.deepEqual(canonical(read.filters), canonical(filters));
      }),
      { numRuns: RUNS },
    );
  });

  test('any JSON as a saved filter reads without throwing; its chips and the rest say all of it', () => {
    const viewer = '0b7e6c1a-2222-4333-8444-955566667777';
    const built = fc.array(builderFilter(), { maxLength: 4 }).map((fs) => filtersToIssueFilter(fs, viewer));
    const foreign = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }),
      fc.record({ and: fc.array(fc.oneof(built, fc.jsonValue({ maxDepth: 3 })), { maxLength: 4 }) }),
      fc
        .tuple(
          built,
          fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
        )
        .map(([a, b]) => ({ ...b, ...a })),
    );
    fc.assert(
      fc.property(foreign, (filter) => {
        const read = issueFilterToFilters(filter);
        for (const f of read.filters)
          assert.deepEqual(normalize(f), f, 'every chip is one the builder holds');
        // Read again, the chips and the rest are what they were: nothing is lost or changed between them.
        const chips = filtersToIssueFilter(read.filters, undefined);
        const again = issueFilterToFilters(read.rest ? { and: [read.rest, chips] } : chips);
        assert.deepEqual(
          encodeFilters(again.filters.slice().sort(byText)),
          encodeFilters(read.filters.slice().sort(byText)),
        );
      }),
      { numRuns: RUNS },
    );
    // By hand: another client's title condition stays beside the chip it could not be.
    assert.deepEqual(issueFilterToFilters({ title: { contains: 'x' }, priority: { eq: 1 } }), {
      filters: [{ field: 'priority', op: 'is', values: ['1'] }],
      rest: { title: { contains: 'x' } },
    });
    // An "is not" that would drop the unassigned is not the builder's: kept as it is.
    const strict = { assignee: { id: { neq: viewer } } };
    assert.deepEqual(issueFilterToFilters(strict), { filters: [], rest: strict });
  });

  test('an old single-value address opens as builder filters', () => {
    const id = '8a3f1d2e-1111-4222-8333-944455556666';
    assert.deepEqual(
      fromSingleValues({ state: id, assignee: 'none', priority: 1, project: 'none', cycle: id, label: id }),
      [
        { field: 'state', op: 'is', values: [id] },
        { field: 'assignee', op: 'empty', values: [] },
        { field: 'label', op: 'is', values: [id] },
        { field: 'priority', op: 'is', values: ['1'] },
        { field: 'project', op: 'empty', values: [] },
        { field: 'cycle', op: 'is', values: [id] },
      ],
    );
    const view = parseView({ priority: '1', assignee: 'me', group: 'none' });
    assert.deepEqual(view, { f: 'assignee.is.me~priority.is.1', group: 'none' });
    // The router hands a page the old key beside its `f` twin: still one filter.
    assert.deepEqual(parseView({ priority: 1, f: 'priority.is.1' }), { f: 'priority.is.1' });
    // What saved views always stored for `?priority=1` is still what is saved.
    assert.deepEqual(filtersToIssueFilter(decodeFilters('priority.is.1'), undefined), {
      priority: { eq: 1 },
    });
  });
});

// ---------- against the server ----------

interface Row {
  id: string;
  title: string;
  stateId: string;
  stateType: string;
  assigneeId: string | null;
  creatorId: string | null;
  priority: number;
  estimate: number | null;
  dueDate: string | null;
  labelIds: string[];
  parentId: string | null;
  children: number;
  blocked: boolean;
  blocking: boolean;
}

let t: TestApp;
let me = '';
let other = '';
let stateIds: string[] = [];
let labelIds: string[] = [];
const rows: Row[] = [];
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

before(async () => {
  t = await startTestApp();
  const token = t.adminToken;
  me = (await t.get('/api/auth/me', token)).body.user.id;
  other = (await t.register('Fran Filter')).user.id;
  const states = (await t.get('/api/workflow-states?teamId=ENG', token)).body.workflowStates as {
    id: string;
    type: string;
  }[];
  stateIds = states.map((s) => s.id);
  labelIds = (await t.get('/api/labels', token)).body.labels.map((l: { id: string }) => l.id).slice(0, 3);
  const dues = [null, -20, -3, -1, 0, 1, 5, 7, 8, 13, 20];
  for (let n = 0; n < 14; n++) {
    const parent = n >= 10 ? rows[n - 10]! : undefined;
    const due = dues[n % dues.length]!;
    const body = {
      teamId: 'ENG',
      title: `Sieved ${n}`,
      priority: n % 5,
      stateId: stateIds[n % stateIds.length],
      ...(n % 3 ? { assigneeId: [me, other][n % 2] } : {}),
      ...(n % 4 ? { estimate: [1, 2, 3, 5][n % 4] } : {}),
      ...(due === null ? {} : { dueDate: day(due) }),
      labelIds: labelIds.filter((_, i) => (n >> i) & 1),
      ...(parent ? { parentId: parent.id } : {}),
    };
    const res = await t.post('/api/issues', body, token);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const i = res.body.issue;
    if (parent) parent.children++;
    rows.push({
      id: i.id,
      title: i.title,
      stateId: i.stateId,
      stateType: states.find((s) => s.id === i.stateId)!.type,
      assigneeId: i.assigneeId,
      creatorId: me,
      priority: i.priority,
      estimate: i.estimate,
      dueDate: i.dueDate,
      labelIds: i.labelIds,
      parentId: parent?.id ?? null,
      children: 0,
      blocked: false,
      blocking: false,
    });
  }
  for (const [from, to] of [
    [0, 1],
    [2, 1],
    [3, 4],
  ] as const) {
    const res = await t.post(
      `/api/issues/${rows[from]!.id}/relations`,
      { type: 'blocks', relatedIssueId: rows[to]!.id },
      token,
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    rows[from]!.blocking = true;
    rows[to]!.blocked = true;
  }
});
after(() => t?.close());

/** Whether a person reading the chip expects `r` in the list. */
function holds(f: Filter, r: Row): boolean {
  const negated = f.op === 'isNot' || f.op === 'noneOf';
  const values = f.values.map((v) => (v === 'me' ? me : v));
  const among = (v: string | number | null) => v !== null && values.includes(String(v));
  const pick = (v: string | number | null) =>
    f.op === 'empty' ? v === null : negated ? !among(v) : among(v);
  switch (f.field) {
    case 'team':
      return pick(teamId);
    case 'state':
      return pick(r.stateId);
    case 'assignee':
      return pick(r.assigneeId);
    case 'creator':
      return pick(r.creatorId);
    case 'priority':
      return pick(r.priority);
    case 'estimate':
      return pick(r.estimate);
    case 'project':
    case 'cycle':
      return pick(null);
    case 'label':
      if (f.op === 'empty') return r.labelIds.length === 0;
      return negated ? !r.labelIds.some(among) : r.labelIds.some(among);
    case 'due': {
      if (f.op === 'empty') return r.dueDate === null;
      const w = f.values[0]!;
      if (r.dueDate === null) return false;
      if (w === 'overdue') return r.dueDate < day(0) && !['completed', 'canceled'].includes(r.stateType);
      const m = /^(next|last|before)-P(\d+)D$/.exec(w)!;
      const n = Number(m[2]);
      if (m[1] === 'next') return r.dueDate >= day(0) && r.dueDate <= day(n);
      if (m[1] === 'last') return r.dueDate >= day(-n);
      return r.dueDate < day(-n);
    }
    case 'created':
    case 'updated':
      // Everything here was made moments ago.
      return f.values[0]!.startsWith('last-');
    case 'subIssues': {
      const yes = f.values[0] === 'parent' ? r.children > 0 : r.parentId !== null;
      return negated ? !yes : yes;
    }
    case 'blocked': {
      const yes = f.values[0] === 'blocked' ? r.blocked : r.blocking;
      return negated ? !yes : yes;
    }
  }
}
let teamId = '';

test('every filter the builder makes is answered by the server as the chip reads', async () => {
  teamId = (await t.get('/api/teams/ENG', t.adminToken)).body.team.id;
  const ids = fc.constantFrom(
    ...stateIds,
    ...labelIds,
    me,
    other,
    teamId,
    '00000000-0000-4000-8000-000000000000',
  );
  // Day-based due words only: the model counts days, not calendar months.
  const dayWords = (f: Filter) => f.field !== 'due' || f.op === 'empty' || !/P\d+[WM]$/.test(f.values[0]!);
  const anyFilters = fc.array(builderFilter(ids).filter(dayWords), { minLength: 1, maxLength: 3 });
  let matched = 0;
  await fc.assert(
    fc.asyncProperty(anyFilters, async (filters) => {
      const filter = filtersToIssueFilter(filters, me);
      const q = new URLSearchParams({
        limit: '250',
        filter: JSON.stringify({ and: [filter, { title: { startsWith: 'Sieved' } }] }),
      });
      const res = await t.get(`/api/issues?${q}`, t.adminToken);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const listed = new Set((res.body.issues as { id: string }[]).map((i) => i.id));
      for (const r of rows) {
        const expected = filters.every((f) => holds(f, r));
        if (expected) matched++;
        assert.equal(
          listed.has(r.id),
          expected,
          `${r.title} under ${encodeFilters(filters)}: ${JSON.stringify(filter)}`,
        );
      }
    }),
    { numRuns: RUNS },
  );
  assert.ok(matched > 0, 'some filters selected some issues');
});

test('a few filters by hand: overdue, is-not keeps the unassigned, none-of keeps the unlabeled', async () => {
  const list = async (f: string) => {
    const q = new URLSearchParams({
      limit: '250',
      filter: JSON.stringify({
        and: [filtersToIssueFilter(decodeFilters(f), me), { title: { startsWith: 'Sieved' } }],
      }),
    });
    const res = await t.get(`/api/issues?${q}`, t.adminToken);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return new Set((res.body.issues as { title: string }[]).map((i) => i.title));
  };
  const titles = (p: (r: Row) => boolean) => new Set(rows.filter(p).map((r) => r.title));
  assert.deepEqual(
    await list('due.is.overdue'),
    titles(
      (r) => r.dueDate !== null && r.dueDate < day(0) && !['completed', 'canceled'].includes(r.stateType),
    ),
  );
  assert.ok((await list('due.is.overdue')).size > 0);
  assert.deepEqual(
    await list('assignee.isNot.me'),
    titles((r) => r.assigneeId !== me),
  );
  assert.ok(
    [...(await list('assignee.isNot.me'))].some(
      (title) => rows.find((r) => r.title === title)!.assigneeId === null,
    ),
  );
  assert.deepEqual(
    await list(`label.noneOf.${labelIds[0]}_${labelIds[1]}`),
    titles((r) => !r.labelIds.includes(labelIds[0]!) && !r.labelIds.includes(labelIds[1]!)),
  );
  assert.deepEqual(
    await list('subIssues.is.child'),
    titles((r) => r.parentId !== null),
  );
  assert.deepEqual(await list('blocked.is.blocked'), new Set(['Sieved 1', 'Sieved 4']));
});

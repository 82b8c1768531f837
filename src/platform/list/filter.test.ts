// test-runner: any database
// The filter grammar compiled to SQL, comparator by comparator (no database:
// the SQL text and parameters are checked; test/graphql*.test.ts runs filters
// against both real databases).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type RawBuilder,
  sql,
} from 'kysely';
import { AppError } from '../errors.js';
import { issueEntity, userEntity } from './entities.js';
import { compileFilter, escapeLike, FILTER_LIMITS } from './filter.js';
import { applyDuration, resolveDate, resolveDateTime } from './relative-time.js';

const db = new Kysely<Record<string, never>>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
const NOW = new Date('2026-03-15T12:00:00.000Z');
const ID = '00000000-0000-4000-8000-000000000001';

function compile(filter: Record<string, unknown>, entity = issueEntity) {
  const expr = compileFilter(entity, 't', filter, { now: NOW, actorId: ID }) as RawBuilder<unknown>;
  const c = sql`${expr}`.compile(db);
  return { sql: c.sql.replace(/\s+/g, ' '), params: c.parameters };
}

const invalid = (filter: Record<string, unknown>) =>
  assert.throws(
    () => compile(filter),
    (e: unknown) => e instanceof AppError && e.status === 400,
  );

describe('comparators', () => {
  test('eq, neq, in, nin', () => {
    assert.deepEqual(compile({ title: { eq: 'A' } }), { sql: '("t"."title" = $1::text)', params: ['A'] });
    assert.deepEqual(compile({ title: { neq: 'A' } }), {
      sql: '("t"."title" is distinct from $1::text)',
      params: ['A'],
    });
    assert.deepEqual(compile({ priority: { in: [1, 2] } }), {
      sql: '("t"."priority" in ($1::float8, $2::float8))',
      params: [1, 2],
    });
    assert.equal(
      compile({ priority: { nin: [1] } }).sql,
      '("t"."priority" is null or not ("t"."priority" in ($1::float8)))',
    );
    assert.equal(compile({ priority: { in: [] } }).sql, 'false');
  });

  test('lt, lte, gt, gte on numbers and dates; refused on text', () => {
    assert.equal(compile({ priority: { lt: 3 } }).sql, '("t"."priority" < $1::float8)');
    assert.equal(
      compile({ priority: { gte: 1, lte: 2 } }).sql,
      '(("t"."priority" >= $1::float8) and ("t"."priority" <= $2::float8))',
    );
    assert.deepEqual(compile({ createdAt: { gt: '2026-01-01T00:00:00Z' } }).params, [
      '2026-01-01T00:00:00.000Z',
    ]);
    invalid({ title: { gt: 'a' } });
  });

  test('text: contains, ignore case, starts/ends with, negations, LIKE wildcards escaped', () => {
    assert.deepEqual(compile({ title: { contains: '50%_off' } }), {
      sql: `("t"."title" like $1::text escape '\\')`,
      params: ['%50\\%\\_off%'],
    });
    assert.equal(
      compile({ title: { containsIgnoreCase: 'x' } }).sql,
      `("t"."title" ilike $1::text escape '\\')`,
    );
    assert.deepEqual(compile({ title: { startsWith: 'a' } }).params, ['a%']);
    assert.deepEqual(compile({ title: { endsWith: 'a' } }).params, ['%a']);
    assert.equal(
      compile({ title: { notContains: 'x' } }).sql,
      `(not coalesce(("t"."title" like $1::text escape '\\'), false))`,
    );
    assert.match(compile({ title: { notStartsWith: 'x' } }).sql, /^\(not coalesce/);
    assert.match(compile({ title: { notEndsWith: 'x' } }).sql, /^\(not coalesce/);
    assert.match(compile({ title: { notContainsIgnoreCase: 'x' } }).sql, /ilike/);
    assert.match(compile({ title: { containsIgnoreCaseAndAccent: 'é' } }).sql, /unaccent\(lower/);
    assert.equal(escapeLike('a\\b'), 'a\\\\b');
    invalid({ priority: { contains: '1' } });
  });

  test('null on optional fields', () => {
    assert.equal(compile({ dueDate: { null: true } }).sql, '("t"."due_date" is null)');
    assert.equal(compile({ dueDate: { null: false } }).sql, '("t"."due_date" is not null)');
  });

  test('ids that are not uuids match nothing instead of failing', () => {
    assert.equal(compile({ id: { eq: 'ENG-1' } }).sql, 'false');
    assert.equal(compile({ id: { neq: 'ENG-1' } }).sql, 'true');
  });

  test('booleans', () => {
    assert.equal(compile({ isMe: { eq: true } }, userEntity).sql, '(("t"."id" = $1::uuid) = $2::boolean)');
    assert.match(compile({ admin: { eq: true } }, userEntity).sql, /"t"."role" = 'admin'/);
  });
});

describe('relative dates', () => {
  test('ISO-8601 durations resolve against now', () => {
    assert.equal(applyDuration('-P2W', NOW)?.toISOString(), '2026-03-01T12:00:00.000Z');
    assert.equal(applyDuration('P1D', NOW)?.toISOString(), '2026-03-16T12:00:00.000Z');
    assert.equal(applyDuration('-PT1H30M', NOW)?.toISOString(), '2026-03-15T10:30:00.000Z');
    assert.equal(applyDuration('P', NOW), undefined);
    assert.equal(applyDuration('2026-01-01', NOW), undefined);
    assert.equal(resolveDate('-P1M', NOW, 'x'), '2026-02-15');
    assert.deepEqual(compile({ createdAt: { gt: '-P2W' } }).params, ['2026-03-01T12:00:00.000Z']);
    assert.deepEqual(compile({ dueDate: { lte: 'P1D' } }), {
      sql: '("t"."due_date" <= $1::date)',
      params: ['2026-03-16'],
    });
    invalid({ createdAt: { gt: 'last week' } });
    invalid({ dueDate: { eq: '2026-13-45' } });
  });
});

describe('combinators and relations', () => {
  test('fields AND together; and/or take lists', () => {
    assert.equal(
      compile({ title: { eq: 'a' }, priority: { eq: 1 } }).sql,
      '(("t"."title" = $1::text) and ("t"."priority" = $2::float8))',
    );
    assert.equal(
      compile({ or: [{ title: { eq: 'a' } }, { title: { eq: 'b' } }] }).sql,
      '(("t"."title" = $1::text) or ("t"."title" = $2::text))',
    );
    assert.equal(compile({ and: [{ title: { eq: 'a' } }] }).sql, '("t"."title" = $1::text)');
    assert.equal(compile({ or: [] }).sql, 'false');
    assert.equal(compile({}).sql, 'true');
  });

  test('to-one relations become EXISTS; null tests the foreign key', () => {
    const s = compile({ state: { type: { eq: 'started' } } }).sql;
    assert.match(
      s,
      /^exists \(select 1 from "workflow_states" as (\w+) where "\1"."id" = "t"."state_id" and \("\1"."type" = \$1::text\)\)$/,
    );
    assert.equal(compile({ assignee: { null: true } }).sql, '("t"."assignee_id" is null)');
    assert.match(compile({ assignee: { email: { eq: 'a@b.c' } } }).sql, /from "users" as \w+ where/);
    assert.match(compile({ project: { name: { eq: 'P' } } }).sql, /from "projects"/);
    assert.match(compile({ team: { key: { eq: 'ENG' } } }).sql, /from "teams"/);
  });

  test('collections: some, every, length, and direct member conditions', () => {
    const some = compile({ labels: { some: { name: { eq: 'Bug' } } } }).sql;
    assert.match(
      some,
      /^exists \(select 1 from "labels" as (\w+) join "issue_labels" as \1_l on "\1_l"."label_id" = "\1"."id" where "\1_l"."issue_id" = "t"."id"/,
    );
    const every = compile({ labels: { every: { name: { eq: 'Bug' } } } }).sql;
    assert.match(
      every,
      /^\(not coalesce\(exists \(.* and \(not coalesce\(\(".*"."name" = \$1::text\), false\)\)\), false\)\)$/,
    );
    assert.match(compile({ comments: { length: { gt: 2 } } }).sql, /^\(\(select count\(\*\) from "comments"/);
    assert.match(compile({ labels: { name: { eq: 'Bug' } } }).sql, /^exists/);
  });

  test('a field this service does not hold is invalid input naming it, at any depth', () => {
    for (const [filter, path] of [
      [{ customerCount: { eq: 0 } }, 'filter.customerCount'],
      [{ and: [{ title: { eq: 'x' } }, { slaStatus: { eq: 'Breached' } }] }, 'filter.and[1].slaStatus'],
      [{ assignee: { timezone: { eq: 'UTC' } } }, 'filter.assignee.timezone'],
    ] as const) {
      assert.throws(
        () => compile(filter as never),
        (e: AppError) =>
          e.status === 400 && e.details?.[0]?.field === `/${path}` && /not held/.test(e.details[0].message),
      );
    }
  });

  test('an unheld flag beside held ones stays an error', () => {
    invalid({ hasSuggestedAssignees: { eq: false } });
  });

  test('relation flags: EXISTS on the indexed end; for a member, only relations to issues they see', () => {
    const blocked = compile({ hasBlockedByRelations: { eq: true } });
    assert.equal(
      blocked.sql,
      '(exists (select 1 from issue_relations f_1 where "f_1"."related_issue_id" = "t"."id" and "f_1"."type" = $1) = $2::boolean)',
    );
    assert.deepEqual(blocked.params, ['blocks', true]);
    assert.match(compile({ hasBlockingRelations: { neq: true } }).sql, /"f_1"."issue_id" = "t"."id"/);
    const either = compile({ hasDuplicateRelations: { eq: true } });
    assert.match(
      either.sql,
      /f_1a.*"f_1a"."issue_id" = "t"."id".* or .*f_1b.*"f_1b"."related_issue_id" = "t"."id"/,
    );
    const member = compileFilter(
      issueEntity,
      't',
      { hasRelatedRelations: { eq: true } },
      { now: NOW, access: { all: false, userId: ID, guest: false, teamIds: new Set([ID]) } },
    ) as RawBuilder<unknown>;
    assert.match(
      sql`${member}`.compile(db).sql,
      /join issues f_1a_o on .* "f_1a_o"."team_id" in \(\$2::uuid\)/,
    );
    invalid({ hasBlockedByRelations: { in: [true] } });
    invalid({ hasBlockedByRelations: { eq: 'yes' } });
  });

  test('a milestone is a relation like any other: its key for null', () => {
    assert.equal(compile({ projectMilestone: { null: true } }).sql, '("t"."project_milestone_id" is null)');
  });

  test('malformed filters are invalid input', () => {
    invalid({ title: 'x' });
    invalid({ or: { title: { eq: 'x' } } });
    invalid({ title: { like: 'x' } });
    invalid({ priority: { eq: 'high' } });
  });
});

describe('subquery aliases', () => {
  test('are numbered per filter, so the same filter always compiles to the same SQL', () => {
    const filter = {
      team: { key: { eq: 'ENG' } },
      state: { name: { eq: 'Todo' } },
      labels: { some: { name: { eq: 'x' } } },
    };
    const first = compile(filter).sql;
    assert.match(first, /as f_1 .* as f_2 .* as f_3 /);
    // A process-wide counter once reached `for` after about 900 filters and broke the query.
    for (let i = 0; i < 2_000; i++) assert.equal(compile(filter).sql, first);
  });
});

describe('relations compared by id alone', () => {
  test('compile to the foreign key, with no subquery', () => {
    const { sql: text } = compile({ state: { id: { eq: ID } }, project: { id: { in: [ID] } } });
    assert.equal(text, '(("t"."state_id" = $1::uuid) and ("t"."project_id" in ($2::uuid)))');
  });

  test('a caller who may not see every related row gets the subquery with its visibility rule', () => {
    const access = { all: false as const, userId: ID, guest: false, teamIds: new Set([ID]) };
    const expr = compileFilter(
      issueEntity,
      't',
      { state: { id: { eq: ID } }, project: { id: { eq: ID } } },
      { now: NOW, actorId: ID, access },
    ) as RawBuilder<unknown>;
    const text = sql`${expr}`.compile(db).sql;
    // The state is in the issue's team: the key is enough. A project may be in another team.
    assert.match(text, /^\(\("t"."state_id" = \$1::uuid\) and exists \(select 1 from "projects" as f_1 /);
    assert.match(text, /project_teams/);
  });
});

/** Refused as a 400 naming `field` (the error's first detail). */
const refused = (filter: Record<string, unknown>, field: string) =>
  assert.throws(
    () => compile(filter),
    (e: unknown) => e instanceof AppError && e.status === 400 && e.details?.[0]?.field === `/${field}`,
    `${JSON.stringify(filter).slice(0, 80)} not refused at ${field}`,
  );

const nested = (key: string, depth: number, leaf: Record<string, unknown>) => {
  let f = leaf;
  for (let i = 0; i < depth; i++) f = { [key]: f };
  return f;
};

describe('values are checked before they reach SQL', () => {
  test('dates: real calendar days in years 0001 to 9999', () => {
    refused({ dueDate: { eq: '2024-02-30' } }, 'filter.dueDate.eq');
    refused({ dueDate: { eq: '2023-02-29' } }, 'filter.dueDate.eq');
    refused({ createdAt: { gt: '0000-01-01' } }, 'filter.createdAt.gt');
    refused({ createdAt: { gt: '2024-01-01T24:00:00Z' } }, 'filter.createdAt.gt');
    refused({ createdAt: { in: ['2024-01-01', '2024-04-31'] } }, 'filter.createdAt.in[1]');
    refused({ createdAt: { lt: '10000-01-01' } }, 'filter.createdAt.lt');
    refused({ createdAt: { lt: 'Tue Mar 03 2026' } }, 'filter.createdAt.lt');
    refused({ createdAt: { lt: 20260101 } }, 'filter.createdAt.lt');
    assert.deepEqual(compile({ dueDate: { eq: '2024-02-29' } }).params, ['2024-02-29']);
    assert.deepEqual(compile({ createdAt: { gte: '0001-01-01' } }).params, ['0001-01-01T00:00:00.000Z']);
    assert.deepEqual(compile({ createdAt: { lt: '2026-01-01T10:00' } }).params, ['2026-01-01T10:00:00.000Z']);
    assert.deepEqual(compile({ createdAt: { lt: '2026-01-01T10:00:00+02:00' } }).params, [
      '2026-01-01T08:00:00.000Z',
    ]);
  });

  test('durations: only as far as the years 0001 to 9999 allow', () => {
    for (const d of ['-P99999999Y', 'P1000000000000D', '-PT9999999999999H', 'P99999999D', 'P8000Y']) {
      refused({ createdAt: { gt: d } }, 'filter.createdAt.gt');
      refused({ dueDate: { lte: d } }, 'filter.dueDate.lte');
    }
    refused({ createdAt: { gt: `PT${'9'.repeat(400)}S` } }, 'filter.createdAt.gt');
    assert.deepEqual(compile({ dueDate: { lte: 'P7973Y' } }).params, ['9999-03-15']);
  });

  test('any string either resolves to a date PostgreSQL accepts or is refused', () => {
    const pgDate = /^(\d{4})-\d{2}-\d{2}$/;
    const text = fc.oneof(
      fc.string(),
      fc
        .tuple(
          fc.constantFrom('', '-', '+'),
          fc.array(fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.constantFrom('Y', 'M', 'W', 'D')), {
            maxLength: 4,
          }),
        )
        .map(([sign, parts]) => `${sign}P${parts.map(([n, u]) => `${n}${u}`).join('')}`),
      fc
        .tuple(
          fc.integer({ min: 0, max: 10_500 }),
          fc.integer({ min: 0, max: 14 }),
          fc.integer({ min: 0, max: 33 }),
        )
        .map(
          ([y, m, d]) =>
            `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`,
        ),
    );
    fc.assert(
      fc.property(text, (v) => {
        let date: string;
        try {
          date = resolveDate(v, NOW, 'f');
        } catch (e) {
          return e instanceof AppError && e.status === 400;
        }
        const year = Number(pgDate.exec(date)?.[1]);
        const back = new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10);
        return year >= 1 && year <= 9999 && back === date;
      }),
      { numRuns: 2_000 },
    );
    fc.assert(
      fc.property(text, (v) => {
        try {
          const d = resolveDateTime(v, NOW, 'f');
          return d.getUTCFullYear() >= 1 && d.getUTCFullYear() <= 9999;
        } catch (e) {
          return e instanceof AppError && e.status === 400;
        }
      }),
      { numRuns: 2_000 },
    );
  });

  test('numbers finite, strings bounded, ids that are not uuids never reach SQL', () => {
    refused({ priority: { eq: Number.POSITIVE_INFINITY } }, 'filter.priority.eq');
    refused({ priority: { in: [1, Number.NaN] } }, 'filter.priority.in[1]');
    refused({ title: { contains: 'x'.repeat(FILTER_LIMITS.stringLength + 1) } }, 'filter.title.contains');
    assert.equal(compile({ title: { contains: 'x'.repeat(FILTER_LIMITS.stringLength) } }).params.length, 1);
    assert.equal(compile({ id: { in: ['ENG-1', "'; drop table issues --"] } }).sql, 'false');
  });
});

describe('size limits', () => {
  test(`filters nest at most ${FILTER_LIMITS.depth} objects deep`, () => {
    const leaf = { title: { eq: 'x' } };
    // nested(k, n, leaf) is n objects around { title: { eq } }: n + 2 deep.
    assert.match(compile(nested('parent', FILTER_LIMITS.depth - 2, leaf)).sql, /^exists/);
    refused(
      nested('parent', FILTER_LIMITS.depth - 1, leaf),
      `filter${'.parent'.repeat(FILTER_LIMITS.depth - 1)}.title`,
    );
    for (const depth of [150, 1_000]) assert.throws(() => compile(nested('parent', depth, leaf)), AppError);
    let ors: Record<string, unknown> = leaf;
    for (let i = 0; i < 40; i++) ors = { or: [ors] };
    assert.throws(() => compile(ors), AppError);
    refused(
      { title: nested('and', 20, { eq: 'x' }) },
      `filter.title${'.and'.repeat(FILTER_LIMITS.depth - 1)}`,
    );
  });

  test(`and at most ${FILTER_LIMITS.nodes} objects, lists and values in all`, () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `x${i}`);
    assert.equal(
      compile({ title: { in: ids(FILTER_LIMITS.nodes - 4) } }).params.length,
      FILTER_LIMITS.nodes - 4,
    );
    refused({ title: { in: ids(FILTER_LIMITS.nodes) } }, 'filter');
    refused({ or: Array.from({ length: 600 }, () => ({ title: { eq: 'x' } })) }, 'filter');
  });
});

describe('long text (comment bodies, issue descriptions)', () => {
  test('compared through long_text_matches, negations outside the lookup', () => {
    assert.deepEqual(compile({ description: { containsIgnoreCase: 'Roll_out' } }), {
      sql: '("t"."id" in (select m from long_text_matches($1, $2, $3::text) as m))',
      params: ['issues.description', 'ilike', '%Roll\\_out%'],
    });
    assert.deepEqual(compile({ description: { notStartsWith: 'abc' } }), {
      sql: '(not coalesce(("t"."id" in (select m from long_text_matches($1, $2, $3::text) as m)), false))',
      params: ['issues.description', 'like', 'abc%'],
    });
    assert.deepEqual(compile({ description: { eq: 'abc' } }).params, ['issues.description', '=', 'abc']);
    assert.deepEqual(compile({ description: { null: true } }), {
      sql: '("t"."description" is null)',
      params: [],
    });
  });

  test('what no trigram index serves is refused', () => {
    for (const comparator of [
      { contains: 'ab' },
      { containsIgnoreCase: 'a b c' },
      { startsWith: '%%%' },
      { containsIgnoreCaseAndAccent: 'alpha' },
      { in: ['alpha'] },
      { nin: ['alpha'] },
      { gt: 'alpha' },
    ]) {
      invalid({ description: comparator });
      invalid({ comments: { some: { body: comparator } } });
    }
  });

  test('any text either reaches the index lookup as a parameter or is refused', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 50 }), (text) => {
        try {
          const c = compile({ comments: { some: { body: { containsIgnoreCase: text } } } });
          assert.deepEqual(c.params.slice(-3), ['comments.body', 'ilike', `%${escapeLike(text)}%`]);
          assert.ok(/[\p{L}\p{N}]{3}/u.test(text));
        } catch (e) {
          assert.ok(e instanceof AppError && e.status === 400);
        }
      }),
    );
  });
});

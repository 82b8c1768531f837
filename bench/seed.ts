// Bulk seeding for the benchmarks: set-based SQL (generate_series, arrays)
// straight into the schema, after migrate + first start, so a 100,000-issue
// workspace takes seconds rather than the minutes the service layer would.
// It keeps every invariant the service keeps: per-team issue and cycle
// counters, one issue_identifiers row per issue, labels in issue_labels, and the
// search tsvector, which the issues trigger fills for these inserts too.
import { sql } from 'kysely';
import type { Config } from '../src/config.js';
import { firstStart } from '../src/first-start.js';
import { hashPassword } from '../src/platform/auth/passwords.js';
import type { Db } from '../src/platform/db/database.js';
import { migrate } from '../src/platform/db/migrate.js';
import {
  COMMENT_SENTENCES,
  FIRST_NAMES,
  LAST_NAMES,
  SENTENCES,
  TEAM_LABELS,
  TEAMS,
  TITLE_CONTEXTS,
  TITLE_OBJECTS,
  TITLE_VERBS,
} from './corpus.js';

export interface Scale {
  name: 'huge' | 'full' | 'small';
  teams: number;
  users: number;
  issues: number;
  /** Comments are 0-6 per issue, 3 on average: about 3 x issues. */
  projects: number;
  cyclesPerTeam: number;
}

export const SCALES: Record<Scale['name'], Scale> = {
  // Ten times full: the "does it still hold at a million issues" check (PostgreSQL).
  huge: { name: 'huge', teams: 5, users: 50, issues: 1_000_000, projects: 20, cyclesPerTeam: 8 },
  full: { name: 'full', teams: 5, users: 50, issues: 100_000, projects: 20, cyclesPerTeam: 8 },
  small: { name: 'small', teams: 2, users: 10, issues: 2_000, projects: 4, cyclesPerTeam: 3 },
};

export function scaleFromEnv(env: NodeJS.ProcessEnv = process.env): Scale {
  const name = (env['BENCH_SCALE'] ?? 'full').toLowerCase();
  if (!Object.hasOwn(SCALES, name)) throw new Error(`BENCH_SCALE must be huge, full or small, got "${name}"`);
  return SCALES[name as Scale['name']];
}

/** Password of every seeded user (user1@bench.test ...). */
export const BENCH_USER_PASSWORD = 'bench-password';

export interface SeedReport {
  ms: number;
  steps: Record<string, number>;
  counts: { teams: number; users: number; issues: number; comments: number; issueLabels: number };
}

const BATCH = 10_000;

// A stable pseudo-random non-negative integer per (row, salt): hashint4 is
// PostgreSQL's own integer hash, present in PGlite too.
const h = (expr: string, salt: number) => `abs(hashint4((${expr}) * 7 + ${salt}))`;

export async function seed(
  db: Db,
  config: Config,
  scale: Scale,
  log = (_: string) => {},
): Promise<SeedReport> {
  const started = performance.now();
  const steps: Record<string, number> = {};
  const step = async (name: string, fn: () => Promise<unknown>) => {
    const t = performance.now();
    await fn();
    steps[name] = Math.round(performance.now() - t);
    log(`  ${name}: ${steps[name]} ms`);
  };

  await step('migrate+firstStart', async () => {
    await migrate(db);
    await firstStart(db, config);
  });

  const passwordHash = await hashPassword(BENCH_USER_PASSWORD);

  await step('teams, states, labels', async () => {
    const extra = TEAMS.slice(0, Math.max(0, scale.teams - 1));
    for (const t of extra) {
      await sql`insert into teams (key, name, color) values (${t.key}, ${t.name}, '#5e6ad2')
        on conflict (key) do nothing`.execute(db);
    }
    // The new teams get ENG's workflow (same names, types, colours, order).
    await sql`insert into workflow_states (team_id, name, type, color, position)
      select t.id, s.name, s.type, s.color, s.position
      from teams t cross join workflow_states s
      join teams eng on eng.id = s.team_id and eng.key = 'ENG'
      where t.key <> 'ENG' and not exists (select 1 from workflow_states x where x.team_id = t.id)`.execute(
      db,
    );
    await sql`insert into labels (team_id, name, color)
      select t.id, l.name, '#4ea7fc' from teams t cross join unnest(${TEAM_LABELS}::text[]) as l(name)
      on conflict do nothing`.execute(db);
  });

  await step('users, memberships', async () => {
    await sql`insert into users (name, display_name, email, password_hash, role)
      select f.names[1 + g % cardinality(f.names)] || ' ' || l.names[1 + (g / cardinality(f.names)) % cardinality(l.names)],
             f.names[1 + g % cardinality(f.names)],
             'user' || g || '@bench.test', ${passwordHash},
             case when g % 10 = 0 then 'guest' else 'member' end
      from generate_series(1, ${scale.users - 1}) g,
           (select ${FIRST_NAMES}::text[] as names) f, (select ${LAST_NAMES}::text[] as names) l
      on conflict do nothing`.execute(db);
    // Everyone in every team: visibility rules must not hide issues from the benchmark user.
    await sql`insert into team_memberships (team_id, user_id)
      select t.id, u.id from teams t cross join users u where u.deleted_at is null
      on conflict do nothing`.execute(db);
  });

  await step('projects, cycles', async () => {
    await sql`insert into projects (name, description, slug_id, status, lead_id, target_date)
      select 'Project ' || g, 'Seeded project ' || g, 'bench-' || g,
             (array['backlog','planned','started','paused','completed'])[1 + g % 5],
             (select id from users order by created_at, id offset (g % ${scale.users}) limit 1),
             (current_date + g * 7)
      from generate_series(1, ${scale.projects}) g
      on conflict do nothing`.execute(db);
    await sql`insert into project_teams (project_id, team_id)
      select p.id, t.id
      from (select id, row_number() over (order by slug_id) rn from projects) p
      join (select id, row_number() over (order by created_at, key) - 1 ti from teams) t
        on t.ti = p.rn % ${scale.teams}
      on conflict do nothing`.execute(db);
    await sql`insert into cycles (team_id, number, name, starts_at, ends_at, completed_at)
      select t.id, c, 'Cycle ' || c,
             now() - make_interval(days => 14 * (${scale.cyclesPerTeam} - c + 1)),
             now() - make_interval(days => 14 * (${scale.cyclesPerTeam} - c)),
             case when c < ${scale.cyclesPerTeam} then now() - make_interval(days => 14 * (${scale.cyclesPerTeam} - c)) end
      from teams t cross join generate_series(1, ${scale.cyclesPerTeam}) c
      on conflict do nothing`.execute(db);
    await sql`update teams set cycle_count = (select coalesce(max(number), 0) from cycles c where c.team_id = teams.id)`.execute(
      db,
    );
  });

  const teams = (
    await sql<{ id: string; key: string }>`select id, key from teams order by created_at, key`.execute(db)
  ).rows.slice(0, scale.teams);
  const perTeam = Math.floor(scale.issues / teams.length);

  await step('issues', async () => {
    for (const [ti, team] of teams.entries()) {
      const count = ti === 0 ? scale.issues - perTeam * (teams.length - 1) : perTeam;
      for (let from = 1; from <= count; from += BATCH) {
        const to = Math.min(count, from + BATCH - 1);
        await insertIssues(db, { team, ti, teams: teams.length, from, to, total: scale.issues });
      }
      await sql`insert into issue_identifiers (identifier, issue_id)
        select identifier, id from issues where team_id = ${team.id}
        on conflict do nothing`.execute(db);
      await sql`update teams set issue_count = (select coalesce(max(number), 0) from issues where team_id = ${team.id})
        where id = ${team.id}`.execute(db);
    }
  });

  await step('issue labels', async () => {
    for (const [ti, team] of teams.entries()) {
      // 0-3 labels per issue from the team's labels and the workspace labels.
      await withoutJit(db, (trx) =>
        sql`with lb as (
          select array_agg(id order by name) ids from labels
          where (team_id = ${team.id} or team_id is null) and archived_at is null)
        insert into issue_labels (issue_id, label_id)
        select i.id, lb.ids[1 + ${sql.raw(h(`i.number * 4 + k + ${ti * 1_000_003}`, 11))} % cardinality(lb.ids)]
        from issues i cross join lb cross join generate_series(1, ${sql.raw(h('i.number', 29 + ti))} % 4) k
        where i.team_id = ${team.id}
        on conflict do nothing`.execute(trx),
      );
    }
  });

  await step('comments', async () => {
    for (const [ti, team] of teams.entries()) {
      const count = ti === 0 ? scale.issues - perTeam * (teams.length - 1) : perTeam;
      for (let from = 1; from <= count; from += BATCH) {
        const to = Math.min(count, from + BATCH - 1);
        await withoutJit(db, (trx) =>
          sql`with us as (select array_agg(id order by created_at, id) ids from users where deleted_at is null),
            w as (select ${COMMENT_SENTENCES}::text[] s)
          insert into comments (issue_id, user_id, body, created_at, updated_at)
          select i.id, us.ids[1 + ${sql.raw(h('i.number * 8 + k', 41 + ti))} % cardinality(us.ids)],
                 w.s[1 + ${sql.raw(h('i.number * 8 + k', 43 + ti))} % cardinality(w.s)] || ' ' ||
                 w.s[1 + ${sql.raw(h('i.number * 8 + k', 47 + ti))} % cardinality(w.s)],
                 least(now(), i.created_at + make_interval(hours => k * 5)),
                 least(now(), i.created_at + make_interval(hours => k * 5))
          from issues i cross join us cross join w
          cross join generate_series(1, ${sql.raw(h('i.number', 53 + ti))} % 7) k
          where i.team_id = ${team.id} and i.number between ${from} and ${to}`.execute(trx),
        );
      }
    }
  });

  // What autovacuum would have done by the time a real workspace got this big:
  // statistics for the planner, and the visibility map for index-only scans.
  await step('vacuum analyze', () => sql`vacuum analyze`.execute(db));

  const c = (
    await sql<{ teams: number; users: number; issues: number; comments: number; issue_labels: number }>`select
      (select count(*)::int from teams) teams, (select count(*)::int from users) users,
      (select count(*)::int from issues) issues, (select count(*)::int from comments) comments,
      (select count(*)::int from issue_labels) issue_labels`.execute(db)
  ).rows[0]!;
  return {
    ms: Math.round(performance.now() - started),
    steps,
    counts: {
      teams: c.teams,
      users: c.users,
      issues: c.issues,
      comments: c.comments,
      issueLabels: c.issue_labels,
    },
  };
}

interface IssueBatch {
  team: { id: string; key: string };
  ti: number;
  teams: number;
  from: number;
  to: number;
  total: number;
}

async function insertIssues(db: Db, b: IssueBatch): Promise<void> {
  // generate_series makes the planner guess huge costs, and PostgreSQL's JIT
  // then spends seconds compiling each batch: plain execution is far faster.
  await withoutJit(db, (trx) => insertIssueRows(trx, b));
}

async function withoutJit(db: Db, fn: (trx: Db) => Promise<unknown>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`set local jit = off`.execute(trx);
    await fn(trx);
  });
}

async function insertIssueRows(db: Db, b: IssueBatch): Promise<void> {
  // Global position of the row, oldest first, spread over the last 365 days.
  const gi = `(n - 1) * ${b.teams} + ${b.ti}`;
  const bucket = `${h('n', 101 + b.ti)} % 100`;
  // Backlog 20%, Todo 20%, In Progress 15%, In Review 5%, Done 30%, Canceled 7%, Duplicate 3%.
  const stateIdx = `case when ${bucket} < 20 then 1 when ${bucket} < 40 then 2 when ${bucket} < 55 then 3
    when ${bucket} < 60 then 4 when ${bucket} < 90 then 5 when ${bucket} < 97 then 6 else 7 end`;
  await sql`
    with st as (select array_agg(id order by position) ids from workflow_states where team_id = ${b.team.id}),
      us as (select array_agg(id order by created_at, id) ids from users where deleted_at is null and role <> 'guest'),
      pr as (select coalesce(array_agg(pt.project_id order by pt.project_id), '{}') ids from project_teams pt
             where pt.team_id = ${b.team.id}),
      cy as (select coalesce(array_agg(id order by number), '{}') ids from cycles where team_id = ${b.team.id}),
      w as (select ${TITLE_VERBS}::text[] v, ${TITLE_OBJECTS}::text[] o, ${TITLE_CONTEXTS}::text[] c,
                   ${SENTENCES}::text[] s),
      rows as (
        select n, ${sql.raw(stateIdx)} as si,
               now() - make_interval(secs => (${b.total} - (${sql.raw(gi)})) * (31536000.0 / ${b.total})) as created
        from generate_series(${b.from}::int, ${b.to}::int) n)
    insert into issues (team_id, number, identifier, title, description, priority, estimate, due_date,
                        state_id, assignee_id, creator_id, project_id, cycle_id, sort_order,
                        created_at, updated_at, started_at, completed_at, canceled_at)
    select ${b.team.id}::uuid, n, ${b.team.key} || '-' || n,
      w.v[1 + ${sql.raw(h('n', 1 + b.ti))} % cardinality(w.v)] || ' ' ||
      w.o[1 + ${sql.raw(h('n', 2 + b.ti))} % cardinality(w.o)] || ' ' ||
      w.c[1 + ${sql.raw(h('n', 3 + b.ti))} % cardinality(w.c)],
      (select string_agg(para, E'\n\n' order by p) from generate_series(1, 2 + ${sql.raw(h('n', 4 + b.ti))} % 3) p
        cross join lateral (select string_agg(w.s[1 + ${sql.raw(h('n * 16 + p * 4 + k', 5 + b.ti))} % cardinality(w.s)], ' '
                                              order by k) para
                            from generate_series(1, 2 + (n + p) % 3) k) x),
      ${sql.raw(h('n', 6 + b.ti))} % 5,
      (array[null, 1, 2, 3, 5, 8]::float8[])[1 + ${sql.raw(h('n', 7 + b.ti))} % 6],
      case when ${sql.raw(h('n', 8 + b.ti))} % 10 < 3 then (created::date + ${sql.raw(h('n', 9 + b.ti))} % 60) end,
      st.ids[si],
      case when ${sql.raw(h('n', 10 + b.ti))} % 100 >= 15 then us.ids[1 + ${sql.raw(h('n', 11 + b.ti))} % cardinality(us.ids)] end,
      us.ids[1 + ${sql.raw(h('n', 12 + b.ti))} % cardinality(us.ids)],
      case when cardinality(pr.ids) > 0 and ${sql.raw(h('n', 13 + b.ti))} % 10 < 6
        then pr.ids[1 + ${sql.raw(h('n', 14 + b.ti))} % cardinality(pr.ids)] end,
      case when cardinality(cy.ids) > 0 and ${sql.raw(h('n', 15 + b.ti))} % 2 = 0
        then cy.ids[1 + ${sql.raw(h('n', 16 + b.ti))} % cardinality(cy.ids)] end,
      n,
      created,
      least(now(), created + make_interval(hours => ${sql.raw(h('n', 17 + b.ti))} % 72)),
      case when si in (3, 4, 5) then created + interval '1 day' end,
      case when si = 5 then least(now(), created + interval '3 days') end,
      case when si in (6, 7) then least(now(), created + interval '2 days') end
    from rows, st, us, pr, cy, w`.execute(db);
}

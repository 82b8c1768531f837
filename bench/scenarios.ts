// What we measure: each scenario is one question asked over HTTP (REST or
// GraphQL), the same question asked directly as SQL (the floor), and, for the
// nested GraphQL list, the same question asked of PostGraphile (the peer).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../src/platform/db/database.js';
import { encodeCursor, timeKey } from '../src/platform/list/order.js';
import type { FloorQuery } from './floor.js';

export interface Fixtures {
  teamId: string;
  teamKey: string;
  /** A state of that team with a few percent of all issues (the "Todo" column). */
  stateId: string;
  backlogStateId: string;
  adminId: string;
  /** Samples spread over the whole table, for the by-id reads and the updates. */
  identifiers: string[];
  issueIds: string[];
  search: string;
  deepOffset: number;
  /** The keyset position just before deepOffset (what nextCursor would hand out there). */
  deepCursor: { cursor: string; createdAt: string; id: string };
}

export async function loadFixtures(db: Db, totalIssues: number): Promise<Fixtures> {
  const team = (
    await sql<{ id: string; key: string }>`select id, key from teams where key = 'ENG'`.execute(db)
  ).rows[0]!;
  const states = (
    await sql<{
      id: string;
      name: string;
    }>`select id, name from workflow_states where team_id = ${team.id}`.execute(db)
  ).rows;
  const admin = (
    await sql<{ id: string }>`select id from users where role = 'admin' order by created_at limit 1`.execute(
      db,
    )
  ).rows[0]!;
  const sample = (
    await sql<{ id: string; identifier: string }>`select id, identifier from issues
      where number % ${Math.max(1, Math.floor(totalIssues / 5000))} = 0 order by md5(id::text) limit 1000`.execute(
      db,
    )
  ).rows;
  const deepOffset = Math.min(50_000, Math.floor(totalIssues / 2));
  const deep = (
    await sql<{ at: string; id: string }>`select to_char(created_at at time zone 'UTC',
        'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at, id from issues where archived_at is null
      order by created_at desc, id desc offset ${deepOffset - 1} limit 1`.execute(db)
  ).rows[0]!;
  return {
    teamId: team.id,
    teamKey: team.key,
    stateId: states.find((s) => s.name === 'Todo')!.id,
    backlogStateId: states.find((s) => s.name === 'Backlog')!.id,
    adminId: admin.id,
    identifiers: sample.map((r) => r.identifier),
    issueIds: sample.map((r) => r.id),
    // Two title words that appear together in 3,118 of the 100,000 issues (about 3%).
    search: 'webhook retries',
    // Half the table at full scale; small scale has fewer rows, so go as deep as it allows.
    deepOffset,
    deepCursor: {
      cursor: encodeCursor(timeKey('createdAt', 'desc'), [deep.at, deep.id]),
      createdAt: deep.at,
      id: deep.id,
    },
  };
}

export interface HttpCall {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

export type Verdict = { ok: true } | { ok: false; missing: boolean; detail: string };

export interface Scenario {
  id: string;
  title: string;
  kind: 'read' | 'write';
  request(f: Fixtures, i: number): HttpCall;
  check(status: number, body: unknown): Verdict;
  floor(f: Fixtures): FloorQuery;
}

// --- GraphQL documents -------------------------------------------------------

const ISSUE_FILTER = 'filter: { team: { id: { eq: $team } }, state: { id: { eq: $state } } }';

export const NESTED_QUERY = `query BenchNested($team: ID!, $state: ID!) {
  issues(first: 50, ${ISSUE_FILTER}) {
    nodes {
      id identifier title priority createdAt
      state { id name type }
      assignee { id name email }
      labels { nodes { id name } }
      comments(first: 5) { nodes { id body createdAt } }
    }
    pageInfo { hasNextPage endCursor }
  }
}`;

/** The same question in PostGraphile's generated schema (equality conditions on columns). */
export const PEER_NESTED_QUERY = `query PeerNested($team: UUID!, $state: UUID!) {
  allIssues(first: 50, condition: { teamId: $team, stateId: $state }, orderBy: [CREATED_AT_DESC, PRIMARY_KEY_DESC]) {
    nodes {
      id identifier title priority createdAt
      workflowStateByStateId { id name type }
      userByAssigneeId { id name email }
      issueLabelsByIssueId { nodes { labelByLabelId { id name } } }
      commentsByIssueId(first: 5, orderBy: [CREATED_AT_DESC, PRIMARY_KEY_DESC]) { nodes { id body createdAt } }
    }
    pageInfo { hasNextPage endCursor }
  }
}`;

const UPDATE_MUTATION = `mutation BenchIssueUpdate($id: String!, $input: IssueUpdateInput!) {
  issueUpdate(id: $id, input: $input) { success lastSyncId issue { id identifier title priority updatedAt } }
}`;

/** The `issues` document exactly as @linear/sdk sends it, read from the installed package. */
export function sdkIssuesDocument(root: string): string {
  return sdkDocument(root, 'issues');
}

/** The text of @linear/sdk's query named `name` (issues, searchIssues, issue_history, ...). */
export function sdkDocument(root: string, name: string): string {
  const require = createRequire(path.join(root, 'package.json'));
  let file = require.resolve('@linear/sdk');
  if (!file.endsWith('.mjs')) file = path.join(path.dirname(file), 'index.mjs');
  const source = fs.readFileSync(file, 'utf8');
  for (const m of source.matchAll(/new TypedDocumentString\(`([^`]*)`/g)) {
    const text = m[1]!;
    if (new RegExp(`^\\s*query\\s+${name}\\b`, 'm').test(text)) return text;
  }
  throw new Error(`the ${name} query was not found in @linear/sdk`);
}

// --- verdicts ---------------------------------------------------------------

const missing = (detail: string): Verdict => ({ ok: false, missing: true, detail });
const failed = (detail: string): Verdict => ({ ok: false, missing: false, detail });
const brief = (body: unknown) => JSON.stringify(body)?.slice(0, 300) ?? String(body);

function restCheck(expect: number, shape: (b: Record<string, unknown>) => boolean) {
  return (status: number, body: unknown): Verdict => {
    if (status === 404 || status === 501) return missing(`HTTP ${status} ${brief(body)}`);
    if (status !== expect) return failed(`HTTP ${status} ${brief(body)}`);
    if (!body || typeof body !== 'object' || !shape(body as Record<string, unknown>)) {
      return failed(`unexpected body ${brief(body)}`);
    }
    return { ok: true };
  };
}

const isList = (b: Record<string, unknown>) =>
  Array.isArray(b['issues']) && typeof b['pageInfo'] === 'object';
const isIssue = (b: Record<string, unknown>) => {
  const issue = (b['issue'] ?? b) as Record<string, unknown>;
  return typeof issue['id'] === 'string' && typeof issue['identifier'] === 'string';
};

function graphqlCheck(field: string) {
  return (status: number, body: unknown): Verdict => {
    if (status === 404) return missing(`HTTP 404 ${brief(body)}`);
    const b = body as { data?: Record<string, unknown> | null; errors?: { message: string }[] } | null;
    const errors = b?.errors ?? [];
    if (errors.length > 0) {
      const text = errors.map((e) => e.message).join('; ');
      // The schema does not have the operation at all yet.
      if (/Cannot query field "(issues|issueUpdate)" on type/.test(text)) return missing(text.slice(0, 300));
      return failed(`${status}: ${text.slice(0, 600)}`);
    }
    if (status !== 200 || !b?.data?.[field]) return failed(`HTTP ${status} ${brief(body)}`);
    return { ok: true };
  };
}

// --- floor SQL ----------------------------------------------------------------

const COLUMNS = `i.id, i.identifier, i.title, i.description, i.priority, i.estimate, i.due_date, i.team_id,
  i.number, i.state_id, i.assignee_id, i.creator_id, i.project_id, i.cycle_id, i.parent_id, i.sort_order,
  i.created_at, i.updated_at, i.started_at, i.completed_at, i.canceled_at, i.archived_at`;
const LABEL_IDS = 'array(select il.label_id from issue_labels il where il.issue_id = page.id) as label_ids';

/** A REST page: the rows with their label ids, and the total (a count of `where`, or `total`), in one round trip. */
function restPageSql(
  where: string,
  offset: string,
  order = 'i.created_at desc, i.id desc',
  total = `(select count(*) from issues i where ${where})`,
): string {
  return `with page as (
      select ${COLUMNS} from issues i where ${where}
      order by ${order} limit 50 offset ${offset})
    select page.*, ${LABEL_IDS}, ${total} as total from page`;
}

// Every live issue: the sum of the per-team counts the triggers keep (migration 0023).
const LIVE_TOTAL = '(select sum(live) from team_issue_counts)';

const TWO_FILTERS = 'i.team_id = $1 and i.state_id = $2 and i.archived_at is null';
// Prefix match on every word, best rank first: what the REST list does with q.
const FULL_TEXT = "i.search @@ to_tsquery('simple', $1) and i.archived_at is null";
// Ranked as src/platform/list/search.ts ranks: by the title's vector, the first 200 by the whole
// text, and the total from the same scan of the matches.
const RANKED_SQL = `with page as (
    select * from (
      select m.id, m.total, m.pos, case when m.pos <= 200
        then (select ts_rank(r.search, to_tsquery('simple', $1)) from issues r where r.id = m.id) end as text_rank
      from (select i.id, count(*) over () as total, row_number() over (
          order by ts_rank(i.search_title, to_tsquery('simple', $1)) desc, i.created_at desc, i.id desc) as pos
        from issues i where ${FULL_TEXT}) m) ranked
    order by ranked.pos <= 200 desc, ranked.text_rank desc nulls last, ranked.pos limit 50)
  select ${COLUMNS}, page.total, ${LABEL_IDS} from page join issues i on i.id = page.id`;
const prefixQuery = (q: string) =>
  q
    .toLowerCase()
    .split(/\s+/)
    .map((w) => `'${w}':*`)
    .join(' & ');
const LIVE = 'i.archived_at is null';

const NESTED_SQL = `select i.id, i.identifier, i.title, i.priority, i.created_at,
    json_build_object('id', s.id, 'name', s.name, 'type', s.type) as state,
    case when u.id is null then null else json_build_object('id', u.id, 'name', u.name, 'email', u.email) end as assignee,
    (select coalesce(json_agg(json_build_object('id', l.id, 'name', l.name)), '[]')
       from issue_labels il join labels l on l.id = il.label_id where il.issue_id = i.id) as labels,
    (select coalesce(json_agg(c), '[]') from (
       select c.id, c.body, c.created_at from comments c where c.issue_id = i.id
       order by c.created_at desc, c.id desc limit 5) c) as comments
  from issues i join workflow_states s on s.id = i.state_id left join users u on u.id = i.assignee_id
  where ${TWO_FILTERS}
  order by i.created_at desc, i.id desc limit 51`;

const SDK_SQL = `with page as (
    select ${COLUMNS} from issues i where ${TWO_FILTERS} order by i.created_at desc, i.id desc limit 51)
  select page.*, ${LABEL_IDS} from page`;

const BY_IDENTIFIER_SQL = `with page as (
    select ${COLUMNS} from issue_identifiers x join issues i on i.id = x.issue_id where x.identifier = $1)
  select page.*, ${LABEL_IDS} from page`;

const pick = <T>(list: T[], i: number) => list[i % list.length]!;

// --- the scenarios ------------------------------------------------------------

export function scenarios(root: string): Scenario[] {
  const sdkDoc = sdkIssuesDocument(root);
  const gql = (query: string, variables: Record<string, unknown>): HttpCall => ({
    method: 'POST',
    path: '/graphql',
    body: JSON.stringify({ query, variables }),
  });
  return [
    {
      id: 'rest-list-filtered',
      title: 'REST GET /api/issues?teamId&stateId&limit=50',
      kind: 'read',
      request: (f) => ({
        method: 'GET',
        path: `/api/issues?teamId=${f.teamId}&stateId=${f.stateId}&limit=50`,
      }),
      check: restCheck(200, isList),
      floor: (f) => async (s) => {
        await s.exec(restPageSql(TWO_FILTERS, '0'), [f.teamId, f.stateId]);
      },
    },
    {
      id: 'rest-search',
      title: 'REST GET /api/issues?q=<two words>&limit=50 (full-text)',
      kind: 'read',
      request: (f) => ({ method: 'GET', path: `/api/issues?q=${encodeURIComponent(f.search)}&limit=50` }),
      check: restCheck(200, isList),
      floor: (f) => async (s) => {
        await s.exec(RANKED_SQL, [prefixQuery(f.search)]);
      },
    },
    {
      id: 'rest-offset-0',
      title: 'REST GET /api/issues?limit=50 (first page, baseline for deep offset)',
      kind: 'read',
      request: () => ({ method: 'GET', path: '/api/issues?limit=50' }),
      check: restCheck(200, isList),
      floor: () => async (s) => {
        await s.exec(restPageSql(LIVE, '0', undefined, LIVE_TOTAL), []);
      },
    },
    {
      id: 'rest-offset-deep',
      title: 'REST GET /api/issues?limit=50&offset=50000',
      kind: 'read',
      request: (f) => ({ method: 'GET', path: `/api/issues?limit=50&offset=${f.deepOffset}` }),
      check: restCheck(200, isList),
      floor: (f) => async (s) => {
        await s.exec(restPageSql(LIVE, String(f.deepOffset), undefined, LIVE_TOTAL), []);
      },
    },
    {
      id: 'rest-keyset-deep',
      title: 'REST GET /api/issues?limit=50&after=<cursor at 50000> (keyset paging)',
      kind: 'read',
      request: (f) => ({
        method: 'GET',
        path: `/api/issues?limit=50&after=${encodeURIComponent(f.deepCursor.cursor)}`,
      }),
      check: restCheck(200, isList),
      floor: (f) => async (s) => {
        await s.exec(
          restPageSql(
            `${LIVE} and (i.created_at, i.id) < ($1::timestamptz, $2::uuid)`,
            '0',
            undefined,
            LIVE_TOTAL,
          ),
          [f.deepCursor.createdAt, f.deepCursor.id],
        );
      },
    },
    {
      id: 'graphql-nested',
      title: 'GraphQL issues(first: 50, filter) with state, assignee, labels, comments(first: 5)',
      kind: 'read',
      request: (f) => gql(NESTED_QUERY, { team: f.teamId, state: f.stateId }),
      check: graphqlCheck('issues'),
      floor: (f) => async (s) => {
        await s.exec(NESTED_SQL, [f.teamId, f.stateId]);
      },
    },
    {
      id: 'sdk-issues',
      title: '@linear/sdk issues() document (full IssueConnection fragment), first: 50, filter',
      kind: 'read',
      request: (f) =>
        gql(sdkDoc, {
          first: 50,
          filter: { team: { id: { eq: f.teamId } }, state: { id: { eq: f.stateId } } },
        }),
      check: graphqlCheck('issues'),
      floor: (f) => async (s) => {
        await s.exec(SDK_SQL, [f.teamId, f.stateId]);
      },
    },
    {
      id: 'rest-get-identifier',
      title: 'REST GET /api/issues/:identifier',
      kind: 'read',
      request: (f, i) => ({ method: 'GET', path: `/api/issues/${pick(f.identifiers, i)}` }),
      check: restCheck(200, isIssue),
      floor: (f) => async (s, i) => {
        await s.exec(BY_IDENTIFIER_SQL, [pick(f.identifiers, i)]);
      },
    },
    {
      id: 'rest-create',
      title: 'REST POST /api/issues (write)',
      kind: 'write',
      request: (f, i) => ({
        method: 'POST',
        path: '/api/issues',
        body: JSON.stringify({
          title: `Bench issue ${i}: export stalls under load`,
          description: 'Created by the benchmark.\n\nSecond paragraph of the description.',
          teamId: f.teamId,
          priority: i % 5,
          assigneeId: f.adminId,
        }),
      }),
      check: restCheck(201, isIssue),
      floor: (f) => async (s, i) => {
        // Number under the team row's lock, the issue, its identifier, its event.
        await s.tx(async (exec) => {
          const t = (await exec(
            'update teams set issue_count = issue_count + 1 where id = $1 returning issue_count, key',
            [f.teamId],
          )) as { rows: { issue_count: number; key: string }[] };
          const { issue_count: n, key } = t.rows[0]!;
          const created = (await exec(
            `insert into issues (team_id, number, identifier, title, description, priority, state_id,
               assignee_id, creator_id, sort_order)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9) returning *`,
            [
              f.teamId,
              n,
              `${key}-${n}`,
              `Floor issue ${i}: export stalls under load`,
              'Created by the benchmark.\n\nSecond paragraph of the description.',
              i % 5,
              f.backlogStateId,
              f.adminId,
              n,
            ],
          )) as { rows: { id: string; identifier: string }[] };
          const row = created.rows[0]!;
          await exec('insert into issue_identifiers (identifier, issue_id) values ($1, $2)', [
            row.identifier,
            row.id,
          ]);
          await exec(`insert into webhook_events (type, action, payload) values ('issue', 'create', $1)`, [
            JSON.stringify({ data: row }),
          ]);
        });
      },
    },
    {
      id: 'graphql-issue-update',
      title: 'GraphQL issueUpdate (priority and title; write)',
      kind: 'write',
      request: (f, i) =>
        gql(UPDATE_MUTATION, {
          id: pick(f.issueIds, i),
          input: { priority: i % 5, title: `Updated by the benchmark ${i}` },
        }),
      check: graphqlCheck('issueUpdate'),
      floor: (f) => async (s, i) => {
        await s.tx(async (exec) => {
          const updated = (await exec(
            'update issues set priority = $2, title = $3, updated_at = now() where id = $1 returning *',
            [pick(f.issueIds, i + 500), i % 5, `Updated by the floor ${i}`],
          )) as { rows: unknown[] };
          await exec(`insert into webhook_events (type, action, payload) values ('issue', 'update', $1)`, [
            JSON.stringify({ data: updated.rows[0] }),
          ]);
        });
      },
    },
  ];
}

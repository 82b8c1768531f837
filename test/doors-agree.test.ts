// REST, GraphQL and the change stream are three doors to the same records:
// for every caller and record, each field two of them share must hold the
// same value. The world is test/support/visibility-fixture.ts (a guest, a
// member outside the private teams, a member inside one, the admin) plus a
// few records chosen to tell orders and hidden people apart. fast-check picks
// a caller and a record; the test reads it through every door and compares
// every shared field. Fields are matched by name (REST `stateId` is GraphQL
// `state { id }`, `teamIds` is `teams { nodes { id } }`), so a field added
// to one door is compared as soon as the other has it; a REST field with no
// GraphQL counterpart must be listed below with the reason.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import {
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  isLeafType,
  isObjectType,
} from 'graphql';
import { sql } from 'kysely';
import { startTestApp, type TestApp } from './support/harness.js';
import { openSse, type SseClient } from './support/sse.js';
import { buildWorld, ROLES, type Role, type World } from './support/visibility-fixture.js';
import { isHeldField, nodeType, servedSchema } from './support/visibility-graphql.js';

/** Cases per run (of about 600 callers × records); the examples below run every time. */
const RUNS = Number(process.env['DOORS_RUNS'] ?? 200);

/** Each kind's REST read, GraphQL root field and change-stream event type. */
interface Door {
  /** The REST GET of one record and the key of the record in its answer. */
  rest: (id: string) => { url: string; key: string };
  /** Admins' alone (webhooks): REST refuses anyone else with 403, which reads as hidden. */
  adminOnly?: boolean;
  /** REST has no GET by id: the record is found in this list (under `key`). */
  restList?: { url: string; key: string };
  gql: string;
  /** The concrete type to select on, when the root field answers an interface. */
  on?: string;
  stream?: string;
}
const one = (path: string, key: string) => (id: string) => ({ url: `/api/${path}/${id}`, key });
const DOORS: Record<string, Door> = {
  issue: { rest: one('issues', 'issue'), gql: 'issue', stream: 'issue' },
  comment: { rest: one('comments', 'comment'), gql: 'comment', stream: 'comment' },
  attachment: { rest: one('attachments', 'attachment'), gql: 'attachment', stream: 'attachment' },
  relation: { rest: one('relations', 'relation'), gql: 'issueRelation', stream: 'relation' },
  cycle: { rest: one('cycles', 'cycle'), gql: 'cycle', stream: 'cycle' },
  state: { rest: one('workflow-states', 'workflowState'), gql: 'workflowState' },
  label: { rest: one('labels', 'label'), gql: 'issueLabel', stream: 'label' },
  project: { rest: one('projects', 'project'), gql: 'project', stream: 'project' },
  milestone: { rest: one('milestones', 'milestone'), gql: 'projectMilestone', stream: 'projectMilestone' },
  team: { rest: one('teams', 'team'), gql: 'team' },
  view: { rest: one('views', 'view'), gql: 'customView' },
  notification: {
    rest: one('notifications', 'notification'),
    gql: 'notification',
    on: 'IssueNotification',
    stream: 'notification',
  },
  webhook: { rest: one('admin/webhooks', 'webhook'), gql: 'webhook', adminOnly: true },
  user: {
    rest: () => ({ url: '/api/users?limit=250', key: 'users' }),
    restList: { url: '/api/users?limit=250', key: 'users' },
    gql: 'user',
  },
};

/**
 * REST fields GraphQL does not carry under any name, per kind, and why. A
 * REST field neither matched nor listed here fails the test: a new field is
 * either shared (and compared) or declared one door's own.
 */
const REST_ONLY: Record<string, Record<string, string>> = {
  issue: {
    childProgress: 'the third-party schema has no sub-issue progress (docs/graphql.md, "Sub-issues")',
  },
  comment: {
    deletedAt: 'the third-party Comment has no deletion time (a deleted comment reads as its stub)',
  },
  relation: { creatorId: 'the third-party IssueRelation has no creator' },
  // The world's notifications are about issues (IssueNotification); a project's is a ProjectNotification,
  // whose projectId, project, projectUpdateId and projectUpdate test/notifications-project-updates.test.ts compares.
  notification: {
    projectId: 'on ProjectNotification, not IssueNotification (null on an issue’s notification)',
    project: 'on ProjectNotification, not IssueNotification (null on an issue’s notification)',
    projectUpdateId: 'on ProjectNotification, not IssueNotification (null on an issue’s notification)',
    projectUpdate:
      'on ProjectNotification, not IssueNotification; bodyPreview is the inbox row’s, REST’s alone',
  },
  milestone: { creatorId: 'the third-party ProjectMilestone has no creator' },
  view: { display: 'the web UI display settings; the third-party CustomView holds other view preferences' },
  webhook: {
    failingSince: 'the third-party Webhook keeps its failures as a list of events, which we do not hold',
    disabledReason: 'the third-party Webhook has no automatic disabling',
  },
  team: {
    lastIssueNumber:
      'the third-party Team has no issue counter (its issueCount counts the issues, as ours does)',
    cyclesAutomatic: 'the third-party Team has no such switch (its cycles are always automatic)',
    cycleRollover: 'the third-party Team always rolls unfinished issues over',
  },
};

/** REST fields that GraphQL carries under another name or shape: both sides read to one value. */
const MAPPED: Record<string, Record<string, Counterpart & { rest: (r: any) => unknown }>> = {
  issue: {
    creator: {
      selection: 'creator { id name app }',
      read: (n) => n.creator && { id: n.creator.id, name: n.creator.name, app: n.creator.app },
      rest: (r) => r.creator,
    },
  },
  project: {
    progress: { selection: 'progress', read: (n) => n.progress, rest: (r) => r.progress.progress },
    status: { selection: 'status { type }', read: (n) => n.status.type, rest: (r) => r.status },
  },
  milestone: {
    progress: { selection: 'progress', read: (n) => n.progress, rest: (r) => r.progress.progress },
  },
  cycle: {
    progress: { selection: 'progress', read: (n) => n.progress, rest: (r) => r.progress.progress },
    status: {
      selection: 'isActive isPast isFuture',
      read: (n) => (n.isActive ? 'active' : n.isPast ? 'past' : n.isFuture ? 'future' : null),
      rest: (r) => r.status,
    },
  },
  webhook: {
    // Our kinds over REST, the third-party type names over GraphQL (written out here, not imported).
    resourceTypes: {
      selection: 'resourceTypes',
      read: (n) => n.resourceTypes,
      rest: (r) =>
        r.resourceTypes.map(
          (k: string) => ({ issue: 'Issue', label: 'IssueLabel', relation: 'IssueRelation' })[k] ?? k,
        ),
    },
  },
  user: {
    role: {
      selection: 'admin guest',
      read: (n) => (n.admin ? 'admin' : n.guest ? 'guest' : 'member'),
      rest: (r) => r.role,
    },
    status: { selection: 'active', read: (n) => n.active, rest: (r) => r.status === 'active' },
  },
};

/** What a stream event says about the change, not the record: never compared. */
const STREAM_OWN = new Set(['syncId', 'type', 'action', 'createdAt', 'changedFields']);
/** Stream fields REST carries under another name. */
const STREAM_AS: Record<string, Record<string, (r: any) => unknown>> = {
  notification: { issueId: (r) => r.issue?.id },
};
/** Stream fields the record's REST answer lacks (the stream's routing data), per kind. */
const STREAM_ONLY: Record<string, Set<string>> = {
  issue: new Set(['teamIds']),
  comment: new Set(['teamId', 'teamIds']),
  attachment: new Set(['teamId', 'teamIds']),
  relation: new Set(['teamId', 'teamIds']),
  cycle: new Set(['teamIds']),
  label: new Set(['teamIds']),
  project: new Set(['teamId']),
  milestone: new Set(['teamId', 'teamIds']),
  notification: new Set([]),
};

interface Counterpart {
  selection: string;
  read: (node: any) => unknown;
  /** How the REST value is read, when not as the field itself. */
  rest?: (record: any) => unknown;
  /** Compared as a set: a connection's order is its own orderBy, not the field's. */
  unordered?: boolean;
}

const leaf = (f: GraphQLField<unknown, unknown> | undefined) =>
  f !== undefined && isHeldField(f) && isLeafType(getNamedType(f.type));
const object = (f: GraphQLField<unknown, unknown> | undefined) =>
  f !== undefined && isHeldField(f) && isObjectType(getNamedType(f.type));

/** The GraphQL field a REST field is: same name, `xId` as `x { id }`, `xIds` as `xs { nodes { id } }`. */
function counterpart(type: GraphQLObjectType, key: string, value: unknown): Counterpart | undefined {
  const fields = type.getFields();
  if (leaf(fields[key])) return { selection: key, read: (n) => n[key] };
  // An object REST embeds (a comment's user): its fields, matched the same way.
  if (value && typeof value === 'object' && !Array.isArray(value) && object(fields[key])) {
    const inner = getNamedType(fields[key]!.type) as GraphQLObjectType;
    const parts = Object.entries(value).map(([k, v]) => [k, counterpart(inner, k, v)] as const);
    if (parts.some(([, c]) => !c)) return undefined;
    return {
      selection: `${key} { ${parts.map(([, c]) => c!.selection).join(' ')} }`,
      read: (n) => (n[key] ? Object.fromEntries(parts.map(([k, c]) => [k, c!.read(n[key])])) : null),
    };
  }
  if (key.endsWith('Id')) {
    const name = key.slice(0, -2);
    if (object(fields[name]) && !nodeType(getNamedType(fields[name]!.type)))
      return { selection: `${name} { id }`, read: (n) => n[name]?.id ?? null };
  }
  if (key.endsWith('Ids')) {
    const name = `${key.slice(0, -3)}s`;
    const f = fields[name];
    if (object(f) && nodeType(getNamedType(f!.type))) {
      const args = f!.args.some((a) => a.name === 'first') ? '(first: 50)' : '';
      return {
        selection: `${name}${args} { nodes { id } }`,
        read: (n) => n[name]?.nodes.map((x: { id: string }) => x.id),
        unordered: true,
      };
    }
  }
  return undefined;
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d/;
/** Equal as values: dates as instants, null and absent alike, sets when unordered. */
function same(a: unknown, b: unknown, unordered = false): boolean {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (typeof a === 'string' && typeof b === 'string' && ISO.test(a) && ISO.test(b))
    return Date.parse(a) === Date.parse(b);
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    const [x, y] = unordered ? [[...a].sort(), [...b].sort()] : [a, b];
    return x.every((v, i) => same(v, y[i]));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => same((a as any)[k], (b as any)[k]));
  }
  return a === b;
}

describe('REST, GraphQL and the change stream agree', () => {
  let t: TestApp;
  let world: World;
  let schema: GraphQLSchema;
  /** Every record of every kind above, by kind. */
  const records: { kind: string; id: string; label: string }[] = [];
  /** Per role, each record's last event as that role's stream delivered it. */
  const streamed = {} as Record<Role, Map<string, any>>;
  /** Records some stream has an event of (a seeded row has none; a notification only its recipient's). */
  let withEvents: Set<string>;
  /** Records that once read differently through two doors: always among the cases. */
  let examples: Set<string>;

  before(async () => {
    t = await startTestApp();
    world = await buildWorld(t);
    const { tokens, ids } = world;
    const must = (res: { status: number; body: any }, key: string) => {
      assert.ok(res.status < 300, JSON.stringify(res.body));
      return res.body[key];
    };
    // Three labels named in the reverse of their ids' order, so "by name" and "by id" differ.
    const made = [];
    for (const n of [1, 2, 3])
      made.push(
        must(await t.post('/api/labels', { name: `order ${n}`, teamId: 'PUB' }, t.adminToken), 'label'),
      );
    const byId = made.map((l) => l.id as string).sort();
    for (const [i, id] of byId.entries())
      must(await t.patch(`/api/labels/${id}`, { name: `pulsar order ${3 - i}` }, t.adminToken), 'label');
    // In the guest's team, assigned to the insider, whom the guest does not see (they share no team).
    const hidden = await t.post(
      '/api/issues',
      { title: 'pulsar hidden assignee', teamId: 'PUB', assigneeId: world.userIds.insider, labelIds: byId },
      t.adminToken,
    );
    ids['pubHiddenAssignee'] = must(hidden, 'issue').id;
    // Created by the insider too: the creator is no fallback for the branch name.
    const byInsider = await t.post(
      '/api/issues',
      { title: 'pulsar by insider', teamId: 'PUB' },
      tokens.insider,
    );
    ids['pubByInsider'] = must(byInsider, 'issue').id;
    // Project names whose URL slug is cut (past 40 characters) or empty (no ASCII letter).
    const long = 'pulsar roadmap for the next generation of the observatory';
    const longNamed: string[] = [];
    for (const name of [long, 'パルサー'])
      longNamed.push(
        must(await t.post('/api/projects', { name, teamIds: ['PUB'] }, t.adminToken), 'project').id,
      );
    // A sub-issue, so the parent has progress to count.
    must(
      await t.post(
        '/api/issues',
        { title: 'pulsar child', teamId: 'PUB', parentId: ids['pub1'] },
        t.adminToken,
      ),
      'issue',
    );

    // Two endpoints, disabled so that no delivery changes them between reads: one of a team with
    // credentials in its URL and kinds whose names differ by door, one of the whole workspace.
    const hooks = [
      {
        url: 'http://hook:secret-pw@127.0.0.1:9/pulsar?token=abc',
        label: 'pulsar hook',
        enabled: false,
        resourceTypes: ['relation', 'issue', 'label'],
        teamId: ids['PUB'],
        allPublicTeams: false,
      },
      { url: 'http://127.0.0.1:9/everything', enabled: false },
    ];
    for (const [i, body] of hooks.entries()) {
      const id = must(await t.post('/api/admin/webhooks', body, t.adminToken), 'webhook').id;
      records.push({ kind: 'webhook', id, label: `webhook ${i}` });
    }

    const kinds = new Set(Object.keys(DOORS));
    const kindOf: Record<string, string> = { history: '', membership: '', file: '' };
    for (const r of world.records) {
      const kind = kindOf[r.kind] ?? r.kind;
      if (kinds.has(kind)) records.push({ kind, id: r.id, label: r.label });
    }
    const known = new Set(records.map((r) => r.id));
    // The records added here and the notifications the world's writes sent, named for messages.
    const rows = await sql<{ kind: string; id: string; name: string }>`
      select 'issue' as kind, id, identifier as name from issues
      union all select 'label', id, name from labels
      union all select 'project', id, name from projects
      union all select 'notification', id, type from notifications`.execute(t.ctx.db);
    for (const r of rows.rows)
      if (!known.has(r.id)) records.push({ kind: r.kind, id: r.id, label: `${r.kind} "${r.name}"` });

    schema = await servedSchema(t);

    // Every role's stream from the start; read until it has passed the last event.
    const base = await t.listen();
    const head = Number(
      (await sql<{ n: string }>`select max(id) as n from webhook_events`.execute(t.ctx.db)).rows[0]!.n,
    );
    const streams: SseClient[] = [];
    try {
      for (const role of ROLES) {
        const s = await openSse(base, '/api/stream?after=0', { authorization: `Bearer ${tokens[role]}` });
        streams.push(s);
        assert.equal(s.status, 200, JSON.stringify(s.body));
        const deadline = Date.now() + 10_000;
        while (Number(s.lastEventId ?? 0) < head) {
          assert.ok(Date.now() < deadline, `${role}'s stream stopped at ${s.lastEventId} of ${head}`);
          await new Promise((r) => setTimeout(r, 20));
        }
        const last = new Map<string, any>();
        for (const e of s.events) if (e.event !== 'ready') last.set(e.data.id, e.data);
        streamed[role] = last;
      }
    } finally {
      for (const s of streams) s.close();
    }
    withEvents = new Set(ROLES.flatMap((role) => [...streamed[role].keys()]));
    examples = new Set([
      ids['pubHiddenAssignee']!,
      ids['pubByInsider']!,
      ...longNamed,
      ...records.filter((r) => r.kind === 'webhook').map((r) => r.id),
    ]);
  });

  after(async () => {
    await t?.close();
  });

  /** The record through REST, or null when REST says it does not exist for the caller. */
  async function viaRest(kind: string, id: string, token: string): Promise<Record<string, unknown> | null> {
    const door = DOORS[kind]!;
    const { url, key } = door.rest(id);
    const res = await t.get(url, token);
    if (door.restList) {
      assert.equal(res.status, 200, `GET ${url}: ${JSON.stringify(res.body)}`);
      return (res.body[key] as any[]).find((x) => x.id === id) ?? null;
    }
    if (res.status === 404 || (door.adminOnly && res.status === 403)) return null;
    assert.equal(res.status, 200, `GET ${url}: ${JSON.stringify(res.body)}`);
    return res.body[key];
  }

  /** The same record through GraphQL, selecting the counterpart of every REST field. */
  async function viaGraphql(kind: string, id: string, token: string, fields: Map<string, Counterpart>) {
    const door = DOORS[kind]!;
    const root = schema.getQueryType()!.getFields()[door.gql]!;
    const idArg = root.args.find((a) => a.name === 'id')!;
    let selection = ['id', ...[...fields.values()].map((c) => c.selection)].join(' ');
    if (door.on) selection = `... on ${door.on} { ${selection} }`;
    const query = `query($id: ${idArg.type.toString()}) { node: ${root.name}(id: $id) { ${selection} } }`;
    const res = await t.post('/graphql', { query, variables: { id } }, token);
    const node = res.body?.data?.node ?? null;
    if (node === null) {
      // Hidden: as an unknown id, an error that names no field value.
      assert.ok(res.body.errors?.length, `${kind} ${id}: null without an error`);
    }
    return node;
  }

  /** Each REST field's GraphQL counterpart for this kind; a field with none must be REST_ONLY. */
  function shared(kind: string, restRecord: Record<string, unknown>): Map<string, Counterpart> {
    const door = DOORS[kind]!;
    const type = (
      door.on ? schema.getType(door.on) : getNamedType(schema.getQueryType()!.getFields()[door.gql]!.type)
    ) as GraphQLObjectType;
    const fields = new Map<string, Counterpart>();
    for (const key of Object.keys(restRecord)) {
      if (key === 'id') continue;
      if (REST_ONLY[kind]?.[key]) continue;
      const c = MAPPED[kind]?.[key] ?? counterpart(type, key, restRecord[key]);
      if (c) fields.set(key, c);
      else
        assert.ok(
          REST_ONLY[kind]?.[key],
          `REST ${kind}.${key} has no GraphQL counterpart on ${type.name}: share it, or declare it in REST_ONLY`,
        );
    }
    return fields;
  }

  /** One caller, one record: every door shows it or none does, and shared fields hold the same values. */
  async function check(role: Role, rec: { kind: string; id: string; label: string }) {
    const token = world.tokens[role];
    const what = `${role} reading ${rec.label}`;
    const rest = await viaRest(rec.kind, rec.id, token);
    const adminRest = rest ?? (await viaRest(rec.kind, rec.id, world.tokens.admin));
    const fields = adminRest ? shared(rec.kind, adminRest) : new Map<string, Counterpart>();
    const gql = await viaGraphql(rec.kind, rec.id, token, fields);
    assert.equal(
      gql !== null,
      rest !== null,
      `${what}: REST ${rest ? 'shows' : 'hides'} it, GraphQL does not`,
    );

    const door = DOORS[rec.kind]!;
    const event = streamed[role].get(rec.id);
    if (door.stream && withEvents.has(rec.id)) {
      assert.equal(
        event !== undefined,
        rest !== null,
        `${what}: REST ${rest ? 'shows' : 'hides'} it, the stream does not`,
      );
    }
    if (!rest) return;
    // Every disagreement of the record at once, so a report names them all.
    const differ: string[] = [];
    for (const [key, c] of fields) {
      const [mine, theirs] = [c.rest ? c.rest(rest) : rest[key], c.read(gql)];
      if (!same(mine, theirs, c.unordered))
        differ.push(`${key} is ${JSON.stringify(mine)} over REST, ${JSON.stringify(theirs)} over GraphQL`);
    }
    for (const [key, value] of Object.entries(event ?? {})) {
      if (STREAM_OWN.has(key) || key === 'id') continue;
      const as = STREAM_AS[rec.kind]?.[key];
      if (as || key in rest) {
        const mine = as ? as(rest) : rest[key];
        if (!same(mine, value, key === 'teamIds'))
          differ.push(`${key} is ${JSON.stringify(mine)} over REST, ${JSON.stringify(value)} in the stream`);
      } else if (!STREAM_ONLY[rec.kind]?.has(key)) {
        differ.push(`stream field ${key} has no REST counterpart`);
      }
    }
    assert.deepEqual(differ, [], `${what}:\n${differ.join('\n')}`);
  }

  test('every caller reads the same values of every shared field through every door', async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom(...ROLES), fc.constantFrom(...records), check), {
      numRuns: RUNS,
      includeErrorInReport: true,
      // The cases that once told the doors apart run every time, for the guest and the admin.
      examples: (['guest', 'admin'] as const).flatMap((role) =>
        records.filter((r) => examples.has(r.id)).map((r): [Role, (typeof records)[number]] => [role, r]),
      ),
    });
  });
});

// A create with an id the client chose (IssueCreateInput.id, CommentCreateInput.id;
// modules/client-ids/claim.ts), through REST, GraphQL (the real @linear/sdk
// client and raw documents) and the batch create: a new id makes the record
// with it; the same create sent again by its maker answers that record, with
// no second record, event or notification; any other use of the id (another
// person's, another kind's, a deleted record's, a record whose id the server
// chose) is a 409 CONFLICT naming `id`; concurrent creates with one id make
// one record; and random sequences of creates never make two records for one
// id nor answer a 5xx.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { LinearClient } from '@linear/sdk';
import fc from 'fast-check';
import { apiKeyFor, gql, sdk } from './graphql-helpers.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let base: string;
/** Two members of the workspace, each with a token, an API key and an SDK client. */
type Person = { token: string; key: string; client: LinearClient; id: string };
let ann: Person;
let bob: Person;

async function person(name: string): Promise<Person> {
  const { token, user } = await t.register(name);
  const key = await apiKeyFor(t, token);
  return { token, key, client: sdk(base, key), id: user.id };
}

before(async () => {
  t = await startTestApp();
  base = await t.listen();
  ann = await person('Ann Replay');
  bob = await person('Bob Other');
});
after(() => t.close());

const createIssue = (body: Record<string, unknown>, who: Person = ann) =>
  t.post('/api/issues', { teamId: 'ENG', ...body }, who.token);
const createComment = (issueId: string, body: Record<string, unknown>, who: Person = ann) =>
  t.post(`/api/issues/${issueId}/comments`, body, who.token);

/** Rows written by the outbox and the notification handler: a replay adds none. */
async function sideEffects() {
  const events = await t.ctx.db
    .selectFrom('webhook_events')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  const notifications = await t.ctx.db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return { events: Number(events.n), notifications: Number(notifications.n) };
}

/** How many issues and comments hold this id (never more than one). */
async function recordsWithId(id: string) {
  const issues = await t.ctx.db.selectFrom('issues').select('id').where('id', '=', id).execute();
  const comments = await t.ctx.db.selectFrom('comments').select('id').where('id', '=', id).execute();
  return issues.length + comments.length;
}

function assertConflict(res: { status: number; body: any }) {
  assert.equal(res.status, 409, JSON.stringify(res.body));
  assert.equal(res.body.error.code, 'CONFLICT');
  assert.deepEqual(
    res.body.error.details.map((d: { field: string }) => d.field),
    ['/id'],
  );
}

describe('REST: issues', () => {
  test('a new id makes the issue with it; sent again by its maker, the same issue and nothing else', async () => {
    const id = randomUUID();
    const first = await createIssue({ id, title: 'Made on a train', assigneeId: bob.id });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.equal(first.body.issue.id, id);
    const before = await sideEffects();
    const count = (await t.get('/api/issues?teamId=ENG&limit=1', ann.token)).body.pageInfo.total;

    // The answer was lost; the same create goes again, even with other values.
    const again = await createIssue({ id, title: 'Made on a train', assigneeId: bob.id });
    assert.equal(again.status, 201, JSON.stringify(again.body));
    assert.deepEqual(again.body, first.body, 'the same answer');
    const changed = await createIssue({ id, title: 'Another title', priority: 1 });
    assert.equal(changed.status, 201);
    assert.equal(changed.body.issue.title, 'Made on a train', 'returned unchanged');
    assert.equal(changed.body.issue.identifier, first.body.issue.identifier);

    assert.deepEqual(await sideEffects(), before, 'no second event or notification');
    assert.equal((await t.get('/api/issues?teamId=ENG&limit=1', ann.token)).body.pageInfo.total, count);
    assert.equal(await recordsWithId(id), 1);
  });

  test('an id in another case is the same id', async () => {
    const id = randomUUID();
    const first = await createIssue({ id: id.toUpperCase(), title: 'Shouting id' });
    assert.equal(first.status, 201);
    assert.equal(first.body.issue.id, id);
    const again = await createIssue({ id, title: 'Shouting id' });
    assert.equal(again.status, 201);
    assert.equal(again.body.issue.identifier, first.body.issue.identifier);
  });

  test('null or no id: the server chooses, each time a new issue', async () => {
    const a = await createIssue({ id: null, title: 'Server id' });
    const b = await createIssue({ title: 'Server id' });
    assert.equal(a.status, 201);
    assert.equal(b.status, 201);
    assert.notEqual(a.body.issue.id, b.body.issue.id);
  });

  test("another person's id, a comment's id, a deleted issue's id, a server-chosen id: 409, nothing made", async () => {
    const id = randomUUID();
    assert.equal((await createIssue({ id, title: "Ann's" })).status, 201);
    const before = await sideEffects();
    assertConflict(await createIssue({ id, title: "Bob's" }, bob));

    const issue = (await createIssue({ title: 'Commented' })).body.issue;
    const commentId = randomUUID();
    assert.equal((await createComment(issue.id, { body: 'Hi', id: commentId })).status, 201);
    const afterComment = await sideEffects();
    assertConflict(await createIssue({ id: commentId, title: 'Same id as a comment' }));

    const serverChosen = (await createIssue({ title: 'Server chose' })).body.issue.id;
    const afterServerChosen = await sideEffects();
    assertConflict(await createIssue({ id: serverChosen, title: 'Server chose' }));
    assert.deepEqual(await sideEffects(), afterServerChosen);

    const doomed = randomUUID();
    assert.equal((await createIssue({ id: doomed, title: 'Deleted soon' })).status, 201);
    assert.equal((await t.del(`/api/issues/${doomed}`, ann.token)).status, 200);
    const afterDelete = await sideEffects();
    assertConflict(await createIssue({ id: doomed, title: 'Deleted soon' }));
    assert.deepEqual(await sideEffects(), afterDelete, 'a deleted issue is not made again');
    assert.equal(await recordsWithId(doomed), 0);

    assert.ok(afterComment.events > before.events);
    assert.equal(await recordsWithId(id), 1);
    assert.equal(await recordsWithId(commentId), 1);
  });

  test('an issue moved out of sight is not answered: 409', async () => {
    const team = await t.post('/api/teams', { key: 'HID', name: 'Hidden', private: true }, t.adminToken);
    assert.equal(team.status, 201, JSON.stringify(team.body));
    const member = await t.userWithRole('member', { teams: ['HID'] });
    const id = randomUUID();
    const made = await t.post('/api/issues', { id, title: 'Then moved', teamId: 'HID' }, member.token);
    assert.equal(made.status, 201);
    assert.equal((await t.del(`/api/teams/HID/members/${member.user.id}`, t.adminToken)).status, 200);
    assertConflict(await t.post('/api/issues', { id, title: 'Then moved', teamId: 'ENG' }, member.token));
  });

  test('a malformed id is a 400 naming it; a guest is refused before the id is looked at', async () => {
    for (const id of ['not-a-uuid', 'urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8', '', 42]) {
      const res = await createIssue({ id, title: 'Bad id' });
      assert.equal(res.status, 400, `${JSON.stringify(id)}: ${JSON.stringify(res.body)}`);
      assert.ok(
        res.body.error.details.some((d: { field: string }) => d.field === '/id'),
        JSON.stringify(res.body),
      );
    }
    const taken = (await createIssue({ title: 'Taken' })).body.issue.id;
    const guest = await t.userWithRole('guest', { teams: ['ENG'] });
    const refused = await t.post('/api/issues', { id: taken, title: 'x', teamId: 'ENG' }, guest.token);
    assert.equal(refused.status, 403);
    const badAndGuest = await t.post('/api/issues', { id: 'nope', title: 'x' }, guest.token);
    assert.equal(badAndGuest.status, 403);
  });
});

describe('REST: comments', () => {
  test('a new id makes the comment; its author sending it again gets it back and notifies nobody again', async () => {
    const issue = (await createIssue({ title: 'Discussed', assigneeId: bob.id })).body.issue;
    const id = randomUUID();
    const first = await createComment(issue.id, { body: 'First words', id });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.equal(first.body.comment.id, id);
    const before = await sideEffects();
    const again = await createComment(issue.id, { body: 'First words', id });
    assert.equal(again.status, 201);
    assert.deepEqual(again.body, first.body);
    assert.deepEqual(await sideEffects(), before);
    assert.equal((await t.get(`/api/issues/${issue.id}/comments`, ann.token)).body.comments.length, 1);

    // A reply with its own id, sent twice.
    const replyId = randomUUID();
    for (let i = 0; i < 2; i++) {
      const reply = await createComment(issue.identifier, { body: 'A reply', parentId: id, id: replyId });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      assert.equal(reply.body.comment.parentId, id);
    }
    assert.equal((await t.get(`/api/issues/${issue.id}/comments`, ann.token)).body.comments.length, 2);
  });

  test("another person's id, an issue's id, a deleted comment's id: 409", async () => {
    const issue = (await createIssue({ title: 'Argued' })).body.issue;
    const id = randomUUID();
    assert.equal((await createComment(issue.id, { body: 'Mine', id })).status, 201);
    assertConflict(await createComment(issue.id, { body: 'Mine too', id }, bob));
    assertConflict(await createComment(issue.id, { body: 'On an issue id', id: issue.id }));

    // Deleted for good, and deleted but kept for its replies: neither is made again.
    const gone = randomUUID();
    assert.equal((await createComment(issue.id, { body: 'Gone', id: gone })).status, 201);
    assert.equal((await t.del(`/api/comments/${gone}`, ann.token)).status, 200);
    assertConflict(await createComment(issue.id, { body: 'Gone', id: gone }));
    const kept = randomUUID();
    assert.equal((await createComment(issue.id, { body: 'Kept', id: kept })).status, 201);
    assert.equal((await createComment(issue.id, { body: 'Reply', parentId: kept }, bob)).status, 201);
    assert.equal((await t.del(`/api/comments/${kept}`, ann.token)).status, 200);
    assertConflict(await createComment(issue.id, { body: 'Kept', id: kept }));
    assert.equal(await recordsWithId(gone), 0);
  });

  test('an issue out of sight is a 404 before the id is looked at', async () => {
    const team = await t.post('/api/teams', { key: 'SEC', name: 'Secret', private: true }, t.adminToken);
    assert.equal(team.status, 201);
    const secret = (await t.post('/api/issues', { title: 'Secret', teamId: 'SEC' }, t.adminToken)).body.issue;
    const res = await createComment(secret.id, { body: 'Hello?', id: randomUUID() });
    assert.equal(res.status, 404);
    const malformed = await createComment(secret.id, { body: 'Hello?', id: 'x' });
    assert.equal(malformed.status, 400, 'the body is checked against its schema first, as for every route');
  });
});

describe('GraphQL', () => {
  test('issueCreate and commentCreate through @linear/sdk: the chosen id, the same record when sent again', async () => {
    const id = randomUUID();
    const one = await ann.client.createIssue({ id, teamId: 'ENG', title: 'From the SDK' });
    const issue = (await one.issue)!;
    assert.equal(issue.id, id);
    const before = await sideEffects();
    const two = await ann.client.createIssue({ id, teamId: 'ENG', title: 'From the SDK' });
    assert.equal(two.success, true);
    assert.equal((await two.issue)!.identifier, issue.identifier);

    const commentId = randomUUID();
    const c1 = await ann.client.createComment({
      id: commentId,
      issueId: issue.identifier,
      body: 'SDK words',
    });
    assert.equal((await c1.comment)!.id, commentId);
    const afterComment = await sideEffects();
    const c2 = await ann.client.createComment({ id: commentId, issueId: id, body: 'SDK words' });
    assert.equal((await c2.comment)!.id, commentId);
    assert.deepEqual(await sideEffects(), afterComment);
    assert.equal(afterComment.events, before.events + 1, 'only the comment made an event');

    await assert.rejects(
      () => bob.client.createIssue({ id, teamId: 'ENG', title: 'Not yours' }),
      /already used/,
    );
    await assert.rejects(
      () => bob.client.createComment({ id: commentId, issueId: id, body: 'x' }),
      /already used/,
    );
  });

  test('a conflict carries our usual extensions; a malformed id is invalid input', async () => {
    const id = randomUUID();
    const mutation = `mutation($input: IssueCreateInput!) { issueCreate(input: $input) { success issue { id } } }`;
    const input = { id, teamId: 'ENG', title: 'Raw' };
    const ok = await gql(base, ann.key, mutation, { input });
    assert.equal(ok.body.data.issueCreate.issue.id, id);
    const taken = await gql(base, bob.key, mutation, { input });
    const error = taken.body.errors[0];
    assert.equal(error.extensions.code, 'CONFLICT');
    assert.equal(error.extensions.statusCode, 409);
    assert.equal(error.extensions.type, 'invalid input');
    assert.deepEqual(error.extensions.details, [
      { field: '/id', message: error.extensions.details[0].message },
    ]);
    assert.equal(taken.body.data, null);

    const bad = await gql(base, ann.key, mutation, { input: { ...input, id: 'urn:uuid:' + randomUUID() } });
    assert.equal(bad.body.errors[0].extensions.code, 'VALIDATION_FAILED');
    const comment = await gql(
      base,
      ann.key,
      `mutation($input: CommentCreateInput!) { commentCreate(input: $input) { success } }`,
      { input: { id: 'nope', issueId: id, body: 'x' } },
    );
    assert.equal(comment.body.errors[0].extensions.code, 'VALIDATION_FAILED');
  });

  test('issueBatchCreate: each item by the same rule; a taken id refuses the whole batch', async () => {
    const mutation = `mutation($input: IssueBatchCreateInput!) {
      issueBatchCreate(input: $input) { success issues { id identifier } }
    }`;
    const made = randomUUID();
    const fresh = randomUUID();
    assert.equal((await createIssue({ id: made, title: 'Made alone' })).status, 201);
    const before = await sideEffects();
    const res = await gql(base, ann.key, mutation, {
      input: {
        issues: [
          { id: made, teamId: 'ENG', title: 'Made alone' },
          { id: fresh, teamId: 'ENG', title: 'Made in the batch' },
        ],
      },
    });
    assert.equal(res.body.errors, undefined, JSON.stringify(res.body));
    assert.deepEqual(
      res.body.data.issueBatchCreate.issues.map((i: { id: string }) => i.id),
      [made, fresh],
    );
    assert.equal((await sideEffects()).events, before.events + 1, 'one event: the new issue');

    const third = randomUUID();
    const refused = await gql(base, bob.key, mutation, {
      input: {
        issues: [
          { id: third, teamId: 'ENG', title: 'Would be new' },
          { id: fresh, teamId: 'ENG', title: "Ann's" },
        ],
      },
    });
    assert.equal(refused.body.errors[0].extensions.code, 'CONFLICT');
    assert.deepEqual(
      refused.body.errors[0].extensions.details.map((d: { field: string }) => d.field),
      ['/issues[1]/id'],
    );
    assert.equal(await recordsWithId(third), 0, 'all or none');
  });
});

describe('concurrency', () => {
  const post = (path: string, token: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

  test('the same create sent ten times at once over HTTP makes one issue and one event', async () => {
    const id = randomUUID();
    const before = await sideEffects();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => post('/api/issues', ann.token, { id, title: 'Raced', teamId: 'ENG' })),
    );
    assert.deepEqual(
      answers.map((a) => a.status),
      Array(10).fill(201),
      JSON.stringify(answers.find((a) => a.status !== 201)),
    );
    assert.equal(new Set(answers.map((a) => a.body.issue.identifier)).size, 1);
    assert.equal(await recordsWithId(id), 1);
    assert.equal((await sideEffects()).events, before.events + 1);
  });

  test('one id raced by two people, and by an issue and a comment: one record, the rest 409', async () => {
    const issue = (await createIssue({ title: 'Race ground' })).body.issue;
    const id = randomUUID();
    const answers = await Promise.all([
      post('/api/issues', ann.token, { id, title: 'Ann', teamId: 'ENG' }),
      post('/api/issues', bob.token, { id, title: 'Bob', teamId: 'ENG' }),
      post(`/api/issues/${issue.id}/comments`, ann.token, { id, body: 'Comment' }),
      post('/graphql', bob.token, {
        query: `mutation($input: CommentCreateInput!) { commentCreate(input: $input) { success } }`,
        variables: { input: { id, issueId: issue.id, body: 'GraphQL comment' } },
      }),
    ]);
    const won = answers.filter((a) => a.status === 201 || a.body.data?.commentCreate?.success);
    assert.equal(won.length, 1, JSON.stringify(answers));
    for (const lost of answers.filter((a) => !won.includes(a))) {
      const code = lost.body.error?.code ?? lost.body.errors?.[0]?.extensions?.code;
      assert.equal(code, 'CONFLICT', JSON.stringify(lost.body));
    }
    assert.equal(await recordsWithId(id), 1);
  });
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

describe('property', () => {
  test('random creates with repeated and malformed ids never make two records for one id, nor a 5xx', async () => {
    const issue = (await createIssue({ title: 'Fuzz ground' })).body.issue;
    const hostile = fc.oneof(
      fc.string(),
      fc.constant('urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8'),
      fc.integer(),
      fc.constant(null),
      fc.uuid().map((u) => u.toUpperCase()),
      fc.uuid(),
    );
    const step = fc.record({
      who: fc.constantFrom('ann', 'bob'),
      kind: fc.constantFrom('issue', 'comment'),
      // An id from a small pool (so ids repeat), or anything else.
      id: fc.oneof(
        { weight: 4, arbitrary: fc.nat(3).map((n) => ({ pool: n })) },
        { weight: 1, arbitrary: hostile.map((raw) => ({ raw })) },
      ),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        const pool = Array.from({ length: 4 }, () => randomUUID());
        /** Who made each pool id, and as what, by the first success. */
        const owner = new Map<string, { who: string; kind: string; id: string }>();
        const used: string[] = [];
        for (const s of steps) {
          const id = 'pool' in s.id ? pool[s.id.pool] : s.id.raw;
          const who = s.who === 'ann' ? ann : bob;
          const res =
            s.kind === 'issue'
              ? await createIssue({ id, title: 'Fuzzed' }, who)
              : await createComment(issue.id, { id, body: 'Fuzzed' }, who);
          assert.ok(res.status < 500, JSON.stringify(res.body));
          if (!('pool' in s.id)) {
            // A UUID from the generator may repeat one of an earlier run, anyone's: 409 then.
            assert.ok([201, 400, 409].includes(res.status), `${JSON.stringify(s.id)}: ${res.status}`);
            if (typeof id === 'string' && UUID.test(id)) used.push(id);
            continue;
          }
          const chosen = pool[s.id.pool]!;
          const made = owner.get(chosen);
          if (!made) {
            assert.equal(res.status, 201, JSON.stringify(res.body));
            owner.set(chosen, { who: s.who, kind: s.kind, id: res.body[s.kind].id });
          } else if (made.who === s.who && made.kind === s.kind) {
            assert.equal(res.status, 201, 'a replay');
            assert.equal(res.body[s.kind].id, made.id);
          } else assertConflict(res);
        }
        for (const id of [...pool, ...used]) assert.ok((await recordsWithId(id)) <= 1);
      }),
      { numRuns: Number(process.env['FUZZ_RUNS'] ?? 25) },
    );
  });
});

// Nesting is bounded wherever JSON is accepted (issue 24, finding 11): REST
// bodies are refused by the body parser before anything recursive runs,
// GraphQL documents before they are parsed (graphql-js parses recursively)
// and their inline JSON values before they are read; filter query parameters
// too. Every refusal is a 400 naming the limit, and nothing changes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MAX_JSON_DEPTH } from '../src/platform/http/json-depth.js';
import { insertIssue } from './projects.fixtures.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let member: { token: string };
before(async () => {
  t = await startTestApp();
  member = await t.register('Nester');
});
after(async () => {
  await t.close();
});

/** `{"a":{"a":...1...}}` as text, `levels` objects deep. */
const deepObjectText = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
const deepArrayText = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
/** The same as a GraphQL input literal: `{a:{a:...1...}}`. */
const deepLiteral = (levels: number) => `${'{a:'.repeat(levels)}1${'}'.repeat(levels)}`;

const attachmentCount = async () =>
  Number(
    (
      await t.ctx.db
        .selectFrom('attachments')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const postRaw = (url: string, payload: string, token = member.token) =>
  t.request('POST', url, { payload, headers: { 'content-type': 'application/json' }, token });

const namesTheLimit = (message: string) => assert.match(message, new RegExp(`${MAX_JSON_DEPTH} levels`));

describe('finding 11: JSON nesting is bounded', () => {
  test('attachment metadata 60,000 levels deep is a 400 naming the limit, not a 500', async () => {
    const issue = await insertIssue(t);
    const before = await attachmentCount();
    const body = `{"title":"Deep","url":"https://example.com/deep","metadata":${deepObjectText(60_000)}}`;
    const res = await postRaw(`/api/issues/${issue.id}/attachments`, body);
    assert.equal(res.status, 400, JSON.stringify(res.body).slice(0, 300));
    assert.equal(res.body.error.code, 'BAD_REQUEST');
    namesTheLimit(res.body.error.message);
    assert.equal(await attachmentCount(), before);
  });

  test('a body exactly at the limit is read; one level more is refused', async () => {
    const issue = await insertIssue(t);
    // The body object is level 1, so metadata may nest MAX - 1 levels.
    const at = `{"title":"At","url":"https://example.com/at","metadata":${deepObjectText(MAX_JSON_DEPTH - 1)}}`;
    assert.equal((await postRaw(`/api/issues/${issue.id}/attachments`, at)).status, 201);
    const over = `{"title":"Over","url":"https://example.com/over","metadata":{"x":${deepArrayText(MAX_JSON_DEPTH - 1)}}}`;
    const res = await postRaw(`/api/issues/${issue.id}/attachments`, over);
    assert.equal(res.status, 400);
    namesTheLimit(res.body.error.message);
    // Brackets inside strings are text, not nesting.
    const inString = `{"title":"${'['.repeat(500)}","url":"https://example.com/s","metadata":{"k":"${'{\\"'.repeat(300)}"}}`;
    assert.equal((await postRaw(`/api/issues/${issue.id}/attachments`, inString)).status, 201);
  });

  test('GraphQL variables 60,000 levels deep: 400 in the GraphQL error shape', async () => {
    const issue = await insertIssue(t);
    const before = await attachmentCount();
    const query = 'mutation($input: AttachmentCreateInput!) { attachmentCreate(input: $input) { success } }';
    const payload = `{"query":${JSON.stringify(query)},"variables":{"input":{"issueId":"${issue.id}","title":"G","url":"https://example.com/g","metadata":${deepObjectText(60_000)}}}}`;
    const res = await postRaw('/graphql', payload);
    assert.equal(res.status, 400, JSON.stringify(res.body).slice(0, 300));
    namesTheLimit(res.body.errors[0].message);
    assert.equal(await attachmentCount(), before);
  });

  test('GraphQL inline JSON literals: deep ones are refused before parsing, any over the limit before reading', async () => {
    const issue = await insertIssue(t);
    const before = await attachmentCount();
    const doc = (levels: number) =>
      `mutation { attachmentCreate(input: { issueId: "${issue.id}", title: "L", url: "https://example.com/l${levels}", metadata: ${deepLiteral(levels)} }) { success } }`;
    // The argument's value is the outermost level: the input object, then metadata.
    for (const levels of [MAX_JSON_DEPTH, 3_000, 6_000]) {
      const res = await t.post('/graphql', { query: doc(levels) }, member.token);
      assert.equal(res.status, 400, `${levels}: ${JSON.stringify(res.body).slice(0, 300)}`);
      assert.match(res.body.errors[0].message, /nest.* levels/);
    }
    assert.equal(await attachmentCount(), before);
    namesTheLimit(
      (await t.post('/graphql', { query: doc(MAX_JSON_DEPTH) }, member.token)).body.errors[0].message,
    );
    const ok = await t.post('/graphql', { query: doc(MAX_JSON_DEPTH - 1) }, member.token);
    assert.equal(ok.body.errors, undefined, JSON.stringify(ok.body).slice(0, 300));
    assert.equal(ok.body.data.attachmentCreate.success, true);
    // Deep selection sets are refused the same way, before graphql-js recurses into them.
    const selections = `{ ${'viewer { '.repeat(3_000)}id${' }'.repeat(3_000)} }`;
    const res = await t.post('/graphql', { query: selections }, member.token);
    assert.equal(res.status, 400, JSON.stringify(res.body).slice(0, 300));
  });

  test('a REST filter query parameter nested past the limit is a 400', async () => {
    const filter = `{"or":${deepArrayText(2_000)}}`;
    const res = await t.get(`/api/issues?filter=${encodeURIComponent(filter)}`, member.token);
    assert.equal(res.status, 400, JSON.stringify(res.body).slice(0, 300));
    assert.equal(res.body.error.details[0].field, '/filter');
    namesTheLimit(res.body.error.details[0].message);
  });
});

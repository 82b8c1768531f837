// Reading the audit log: admins only on every door; REST filters by type,
// actor, target, time and address, searches, pages, and exports NDJSON batch by
// batch; GraphQL answers auditEntries and auditEntryTypes as the third-party
// schema names them, with our search beside its filter's fields.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { AUDIT_TYPES } from '../src/modules/audit/catalog.js';
import { recordAudit } from '../src/modules/audit/record.js';
import { gql } from './graphql-helpers.js';
import { binaryString } from './support/fuzz/values.js';
import { startTestApp, type TestApp, uniqueEmail } from './support/harness.js';

let t: TestApp;
let base: string;
let member: { token: string };
let userId: string;
before(async () => {
  t = await startTestApp();
  base = await t.listen();
  member = await t.userWithRole('member');
  const made = await t.post(
    '/api/admin/users',
    { name: 'Read Me', email: uniqueEmail('read'), password: 'password-123', role: 'member' },
    t.adminToken,
  );
  userId = made.body.user.id;
  await t.patch(`/api/admin/users/${userId}`, { role: 'guest' }, t.adminToken);
  await t.patch(`/api/admin/users/${userId}`, { status: 'suspended' }, t.adminToken);
});
after(() => t.close());

/** Entries from addresses the test requests (all from 127.0.0.1) cannot have, each with its own target. */
const FROM = { v4: '203.0.113.7', mapped: '::ffff:203.0.113.8', v6: '2001:db8::5' } as const;
const far = (key: keyof typeof FROM) => `far-${key}-${process.pid}`;
before(async () => {
  for (const key of Object.keys(FROM) as (keyof typeof FROM)[]) {
    await recordAudit(t.ctx.db, {
      type: 'auth.signInFailed',
      actor: { kind: 'anonymous', label: `Zebra.${key}@Far.example`, ip: FROM[key], userAgent: 'far/1' },
      entity: { type: 'user', id: far(key), label: `far ${key}` },
      metadata: { reason: 'unknownEmail', method: 'password' },
    });
  }
});

/** The targets of a REST page's entries. */
const targets = (body: { auditEntries: { entity: { id: string } | null }[] }) =>
  body.auditEntries.map((e) => e.entity?.id);

describe('REST', () => {
  test('admins read the log newest first, filtered by type, target and time, in pages', async () => {
    const all = await t.get(`/api/admin/audit-entries?entityId=${userId}`, t.adminToken);
    assert.equal(all.status, 200, JSON.stringify(all.body));
    assert.deepEqual(
      all.body.auditEntries.map((e: any) => e.type),
      ['user.statusChanged', 'user.roleChanged', 'user.created'],
    );
    assert.equal(all.body.auditEntries[1].description, AUDIT_TYPES['user.roleChanged']);
    assert.deepEqual(all.body.auditEntries[1].after, { role: 'guest' });
    const two = await t.get(
      `/api/admin/audit-entries?entityId=${userId}&type=user.roleChanged&type=user.created`,
      t.adminToken,
    );
    assert.deepEqual(
      two.body.auditEntries.map((e: any) => e.type),
      ['user.roleChanged', 'user.created'],
    );
    const paged = await t.get(`/api/admin/audit-entries?entityId=${userId}&limit=1&offset=1`, t.adminToken);
    assert.deepEqual(paged.body.pageInfo, { total: 3, limit: 1, offset: 1 });
    assert.equal(paged.body.auditEntries[0].type, 'user.roleChanged');
    const future = new Date(Date.now() + 60_000).toISOString();
    const none = await t.get(`/api/admin/audit-entries?from=${encodeURIComponent(future)}`, t.adminToken);
    assert.equal(none.body.pageInfo.total, 0);
    const types = await t.get('/api/admin/audit-entry-types', t.adminToken);
    assert.equal(types.body.auditEntryTypes.length, Object.keys(AUDIT_TYPES).length);
  });

  test('the export is NDJSON, every matching entry, one a line', async () => {
    const res = await fetch(`${base}/api/admin/audit-entries/export?entityId=${userId}`, {
      headers: { authorization: `Bearer ${t.adminToken}` },
    });
    assert.equal(res.status, 200);
    assert.match(String(res.headers.get('content-type')), /application\/x-ndjson/);
    const text = await res.text();
    assert.ok(text.endsWith('\n'));
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      lines.map((l) => l.type),
      ['user.statusChanged', 'user.roleChanged', 'user.created'],
    );
  });

  test('ip: the exact address, an IPv4 one in either form, an IPv6 one however written', async () => {
    const by = async (ip: string) => {
      const res = await t.get(`/api/admin/audit-entries?ip=${encodeURIComponent(ip)}`, t.adminToken);
      assert.equal(res.status, 200, `${ip}: ${JSON.stringify(res.body)}`);
      return targets(res.body);
    };
    assert.deepEqual(await by('203.0.113.7'), [far('v4')]);
    assert.deepEqual(await by('::ffff:203.0.113.7'), [far('v4')]);
    assert.deepEqual(await by('203.0.113.8'), [far('mapped')]);
    assert.deepEqual(await by('2001:DB8:0:0::5'), [far('v6')]);
    assert.deepEqual(await by('203.0.113.70'), [], 'exact, not a prefix');
    const local = await t.get(`/api/admin/audit-entries?ip=127.0.0.1&entityId=${userId}`, t.adminToken);
    assert.equal(local.body.pageInfo.total, 3);
    for (const bad of ['203.0.113', 'localhost', '1.2.3.4/24', ' 1.2.3.4', '999.1.1.1', 'x'.repeat(65)])
      for (const path of ['/api/admin/audit-entries', '/api/admin/audit-entries/export']) {
        const res = await t.get(`${path}?ip=${encodeURIComponent(bad)}`, t.adminToken);
        assert.equal(res.status, 400, `${path} ip=${bad}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error.code, 'VALIDATION_FAILED');
      }
  });

  test('q: text in the actor, the target or the type, in any case; with the other filters; in the export', async () => {
    const search = async (q: string, more = '') => {
      const res = await t.get(`/api/admin/audit-entries?q=${encodeURIComponent(q)}${more}`, t.adminToken);
      assert.equal(res.status, 200, `${q}: ${JSON.stringify(res.body)}`);
      return res.body;
    };
    // The actor's label, whatever the case.
    assert.deepEqual(targets(await search('zebra.V4@far')), [far('v4')]);
    // The target's label.
    assert.deepEqual(targets(await search('FAR MAPPED')), [far('mapped')]);
    // The type, beside the other filters.
    const byType = await search('ROLECHANGED', `&entityId=${userId}`);
    assert.deepEqual(
      byType.auditEntries.map((e: any) => e.type),
      ['user.roleChanged'],
    );
    // LIKE's wildcards are text like any other.
    assert.equal((await search('%')).pageInfo.total, 0);
    assert.equal((await search('zebra_v4')).pageInfo.total, 0);
    // With the address filter.
    assert.deepEqual(targets(await search('zebra', '&ip=2001:db8::5')), [far('v6')]);
    const res = await fetch(`${base}/api/admin/audit-entries/export?q=ZEBRA`, {
      headers: { authorization: `Bearer ${t.adminToken}` },
    });
    const lines = (await res.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => l.entity.id).sort(), [far('mapped'), far('v4'), far('v6')].sort());
    for (const bad of ['', 'x'.repeat(201)]) {
      const r = await t.get(`/api/admin/audit-entries?q=${bad}`, t.adminToken);
      assert.equal(r.status, 400, `q of ${bad.length}: ${JSON.stringify(r.body)}`);
    }
    assert.equal((await search('x'.repeat(200))).pageInfo.total, 0);
  });

  test('members and guests are refused before anything is read', async () => {
    for (const url of [
      '/api/admin/audit-entries',
      '/api/admin/audit-entries/export',
      '/api/admin/audit-entry-types',
    ])
      assert.equal((await t.get(url, member.token)).status, 403, url);
  });

  test('times that neither JavaScript nor PostgreSQL can hold are a 400 on the list and the export', async () => {
    // Valid RFC 3339 all (ajv-formats accepts them): a leap second, year 0, past 9999 in UTC, lower case.
    for (const time of [
      '2016-12-31T23:59:60Z',
      '0000-01-01T00:00:00Z',
      '9999-12-31T23:59:59-01:00',
      '2020-01-01t00:00:00z',
    ])
      for (const path of ['/api/admin/audit-entries', '/api/admin/audit-entries/export']) {
        const res = await t.get(`${path}?from=${encodeURIComponent(time)}`, t.adminToken);
        assert.equal(res.status, 400, `${path} from ${time}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error.code, 'VALIDATION_FAILED');
      }
  });

  test('bad filters are a 400, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          type: fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom(...Object.keys(AUDIT_TYPES))),
          actorId: fc.oneof(fc.string({ maxLength: 40 }), fc.uuid()),
          from: fc.oneof(
            fc.string({ maxLength: 30 }),
            fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
          ),
          limit: fc.oneof(fc.integer({ min: -5, max: 400 }), fc.string({ maxLength: 5 })),
          q: fc.oneof(fc.string({ maxLength: 210 }), binaryString({ maxLength: 20 })),
          ip: fc.oneof(
            fc.string({ maxLength: 70 }),
            fc.ipV4(),
            fc.ipV6(),
            fc.ipV4Extended(),
            fc.constantFrom('::ffff:1.2.3.4', 'fe80::1%eth0', '1.2.3.4 '),
          ),
        }),
        async (q) => {
          const qs = new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)])).toString();
          for (const path of ['/api/admin/audit-entries', '/api/admin/audit-entries/export']) {
            const res = await t.get(`${path}?${qs}`, t.adminToken);
            assert.ok(
              [200, 400].includes(res.status),
              `${path}?${qs}: ${res.status} ${JSON.stringify(res.body)}`,
            );
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('GraphQL', () => {
  const Q = `query($f: AuditEntryFilter, $after: String) {
    auditEntries(first: 2, after: $after, filter: $f) {
      nodes { id type actorId ip createdAt metadata requestInformation }
      pageInfo { hasNextPage endCursor }
    }
  }`;

  test('auditEntries pages with cursors and takes the filter; auditEntryTypes lists the catalogue', async () => {
    const f = { entityId: { eq: userId } };
    const first = await gql(base, `Bearer ${t.adminToken}`, Q, { f });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const page = first.body.data.auditEntries;
    assert.deepEqual(
      page.nodes.map((n: any) => n.type),
      ['user.statusChanged', 'user.roleChanged'],
    );
    assert.equal(page.pageInfo.hasNextPage, true);
    const second = await gql(base, `Bearer ${t.adminToken}`, Q, { f, after: page.pageInfo.endCursor });
    assert.deepEqual(
      second.body.data.auditEntries.nodes.map((n: any) => n.type),
      ['user.created'],
    );
    const byType = await gql(base, `Bearer ${t.adminToken}`, Q, {
      f: { entityId: { eq: userId }, type: { eq: 'user.roleChanged' } },
    });
    assert.deepEqual(byType.body.data.auditEntries.nodes[0].metadata.after, { role: 'guest' });
    const types = await gql(base, `Bearer ${t.adminToken}`, '{ auditEntryTypes { type description } }');
    assert.equal(types.body.data.auditEntryTypes.length, Object.keys(AUDIT_TYPES).length);
  });

  test("ip (the third-party filter's) and q (ours) filter auditEntries; bad values are invalid input", async () => {
    const Q2 = `query($f: AuditEntryFilter) { auditEntries(first: 10, filter: $f) { nodes { ip metadata } } }`;
    const run = async (f: unknown) => gql(base, `Bearer ${t.adminToken}`, Q2, { f });
    const ids = (res: any) => res.body.data.auditEntries.nodes.map((n: any) => n.metadata.entity?.id);
    assert.deepEqual(ids(await run({ ip: { eq: '203.0.113.7' } })), [far('v4')]);
    assert.deepEqual(ids(await run({ ip: { in: ['203.0.113.8', '2001:db8:0::5'] } })).sort(), [
      far('mapped'),
      far('v6'),
    ]);
    const both = await run({ q: 'ZEBRA.v6', ip: { eq: '2001:db8::5' } });
    assert.deepEqual(ids(both), [far('v6')]);
    assert.equal(both.body.data.auditEntries.nodes[0].ip, FROM.v6);
    for (const f of [
      { ip: { eq: 'not-an-ip' } },
      { ip: { contains: '203.0' } },
      { q: '' },
      { q: 'x'.repeat(201) },
    ]) {
      const res = await run(f);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(
        res.body.errors?.[0]?.extensions?.type,
        'invalid input',
        `${JSON.stringify(f)}: ${JSON.stringify(res.body)}`,
      );
    }
  });

  test('members are refused', async () => {
    const res = await gql(
      base,
      `Bearer ${member.token}`,
      '{ auditEntries { nodes { id } } auditEntryTypes { type } }',
    );
    assert.equal(res.body.data, null);
    assert.ok(res.body.errors?.length);
  });
});

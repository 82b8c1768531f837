// Migration 0027 (the file rule, issue 24 finding 2) over rows written under
// migration 0010, whose generated column took a file id from any URL on any
// host: a row keeps its file only where its attacher could read it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { migrate } from '../src/platform/db/migrate.js';
import { up as up0010 } from '../src/platform/db/migrations/0010_attachment_files.js';
import { insertIssue } from './projects.fixtures.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

test('0027 keeps the file of rows whose attacher could read it and turns the others into plain links', async () => {
  const db = t.ctx.db;
  const sec = await t.post('/api/teams', { key: 'MIG', name: 'Private', private: true }, t.adminToken);
  const secId = sec.body.team.id as string;
  const engId = (await t.get('/api/teams/ENG', t.adminToken)).body.team.id as string;
  const insider = await t.userWithRole('member', { teams: ['MIG'] });
  const teammate = await t.userWithRole('member', { teams: ['MIG'] });
  const outsider = await t.userWithRole('member');
  const upload = async (token: string) =>
    (
      await t.request('POST', '/api/files', {
        payload: 'x',
        headers: { 'content-type': 'text/plain' },
        token,
      })
    ).body.file as { id: string; url: string };
  const adminId = (await t.get('/api/auth/me', t.adminToken)).body.user.id as string;
  const secret = await upload(insider.token);
  const byAdmin = await upload(t.adminToken);
  const secIssue = (await insertIssue(t, { teamId: secId })).id;
  const engIssue = (await insertIssue(t, { teamId: engId })).id;

  // Back to the schema of migration 0010, with rows as it let them be written.
  await sql`delete from schema_migrations where version = 27`.execute(db);
  await sql`alter table attachments drop column file_id`.execute(db);
  await sql.raw(up0010).execute(db);
  const row = async (label: string, issueId: string, url: string, creatorId: string) =>
    (
      await db
        .insertInto('attachments')
        .values({ issue_id: issueId, title: label, url, creator_id: creatorId } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const ids = {
    // The uploader on their team's issue: the original, kept.
    uploader: await row('uploader', secIssue, secret.url, insider.user.id),
    // The attack: an outsider, a foreign host, a public issue.
    foreign: await row('foreign', engIssue, `https://anything/api/files/${secret.id}`, outsider.user.id),
    // An outsider with the real URL: could not read it either.
    outsiderReal: await row('outsiderReal', engIssue, secret.url, outsider.user.id),
    // A teammate shares it onward (through an old host name): they saw it on the private issue.
    shared: await row('shared', engIssue, `https://old-host/api/files/${secret.id}`, teammate.user.id),
    // An admin attaches anything (here where the outsider does not look).
    admin: await row('admin', secIssue, `https://elsewhere/api/files/${secret.id}`, adminId),
    // A member attaching an admin's upload that was attached nowhere: they could not read it.
    adminFile: await row('adminFile', secIssue, byAdmin.url, insider.user.id),
    // An id that names no file.
    ghost: await row(
      'ghost',
      engIssue,
      'https://x/api/files/00000000-0000-4000-8000-000000000000',
      outsider.user.id,
    ),
  };
  const before = await db.selectFrom('attachments').select(['id', 'file_id']).execute();
  assert.equal(before.find((r) => r.id === ids.foreign)?.file_id, secret.id, 'the 0010 column took the id');

  assert.deepEqual(await migrate(db), [27]);
  const after = new Map(
    (await db.selectFrom('attachments').select(['id', 'file_id', 'url']).execute()).map((r) => [r.id, r]),
  );
  const carried = (id: string) => after.get(id)?.file_id ?? null;
  assert.equal(carried(ids.uploader), secret.id);
  assert.equal(carried(ids.foreign), null);
  assert.equal(carried(ids.outsiderReal), null);
  assert.equal(carried(ids.shared), secret.id);
  assert.equal(carried(ids.admin), secret.id);
  // The insider did not upload it and no admin or uploader attached it where they look.
  assert.equal(carried(ids.adminFile), null);
  assert.equal(carried(ids.ghost), null);
  // Plain links keep their URL.
  assert.equal(after.get(ids.foreign)?.url, `https://anything/api/files/${secret.id}`);

  // And the service sets the column from now on (a plain column, no longer generated).
  const res = await t.post(
    `/api/issues/${engIssue}/attachments`,
    { title: 'n', url: secret.url },
    insider.token,
  );
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const outsiderDownload = await t.get(`/api/files/${secret.id}`, outsider.token);
  assert.equal(outsiderDownload.status, 200, 'an insider shared it onto a public issue');
});

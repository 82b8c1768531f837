// The mail queue and worker against a real SMTP server in this process:
// refusals are retried, a lapsed lease is sent by another worker, a crash
// after the accept sends again with the same Message-ID (at least once),
// notification digests batch per user (a new project update's line among
// them), drop what the reader may no longer see, and carry a working
// one-click unsubscribe (RFC 8058).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { enqueueNotificationMail } from '../src/modules/mail/digest.js';
import { SEALING_PURPOSE } from '../src/modules/mail/messages.js';
import { claimDue, enqueueMail } from '../src/modules/mail/queries.js';
import { kickMailWorker } from '../src/modules/mail/worker.js';
import { seal } from '../src/platform/sealed.js';
import { rawHeader, sleep, startSmtp, type TestSmtp } from './mail-support.js';
import { ADMIN_EMAIL } from './support/env.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let smtp: TestSmtp;
/** Set to make the worker "crash" after the next SMTP accept, before recording it. */
let crashAfterAccept = false;
const WINDOW_MS = 400;
// How long a test waits for the worker: generous, since CI machines may be busy.
const WAIT_MS = 30_000;

before(async () => {
  smtp = await startSmtp();
  t = await startTestApp(
    {
      mail: { smtpUrl: smtp.url, from: 'tw@trackway.test', batchWindowMs: WINDOW_MS, retryBaseMs: 100 },
    },
    {
      mailWorker: {
        pollMs: 25,
        afterAccept() {
          if (!crashAfterAccept) return;
          crashAfterAccept = false;
          throw new Error('simulated crash between accept and record');
        },
      },
    },
  );
});
after(async () => {
  await t.close();
  await smtp.close();
});

const row = (id: string) =>
  t.ctx.db.selectFrom('outgoing_mail').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function waitForStatus(id: string, status: string, ms = WAIT_MS) {
  const deadline = Date.now() + ms;
  for (;;) {
    const r = await row(id);
    if (r.status === status) return r;
    if (Date.now() > deadline) throw new Error(`mail ${id} is ${r.status}, not ${status}`);
    await sleep(25);
  }
}

/** Queues a password-reset message through the API; returns its queue id. */
async function queueReset(email: string): Promise<string> {
  const res = await t.post('/api/auth/password-reset', { email });
  assert.equal(res.status, 202);
  const r = await t.ctx.db
    .selectFrom('outgoing_mail')
    .select('id')
    .where('to_address', '=', email)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  return r.id;
}

const messagesFor = (email: string) =>
  smtp.received.filter((m) => m.to && !Array.isArray(m.to) && m.to.value[0]?.address === email);

describe('delivery', () => {
  test('a refused message (451, then 550) is retried later and then delivered once', async () => {
    const user = await t.register('Refused');
    smtp.refuseWith(451);
    const id = await queueReset(user.email);
    const attempts = async (n: number) => {
      const deadline = Date.now() + WAIT_MS;
      while ((await row(id)).attempts < n || (await row(id)).status === 'sending') {
        assert.ok(Date.now() < deadline, `attempt ${n}`);
        await sleep(10);
      }
      return row(id);
    };
    assert.match((await attempts(2)).last_error ?? '', /451/);
    smtp.refuseWith(550);
    const refused = await attempts(3);
    assert.equal(refused.status, 'pending');
    assert.match(refused.last_error ?? '', /550/);
    assert.equal(messagesFor(user.email).length, 0);
    smtp.refuseWith(null);
    const sent = await waitForStatus(id, 'sent');
    assert.ok(sent.attempts >= 3, `attempts ${sent.attempts}`);
    await sleep(200);
    assert.equal(messagesFor(user.email).length, 1);
  });

  test('a message claimed by a worker that died is sent once its lease lapses, exactly once', async () => {
    const user = await t.register('Orphaned');
    // Queue it and claim it as a worker that then dies: in one transaction, so the live worker cannot claim first.
    const id = await t.ctx.db.transaction().execute(async (trx) => {
      const mailId = await enqueueMail(trx, {
        kind: 'password_reset',
        toUserId: user.user.id,
        toAddress: user.email,
        payload: {
          link: seal(t.ctx.deriveKey(SEALING_PURPOSE), 'http://trackway.test/reset-password?token=t'),
        },
      });
      const claimed = await claimDue(trx, 100, 60_000);
      assert.ok(claimed.some((c) => c.id === mailId));
      return mailId!;
    });
    await sleep(300);
    assert.equal((await row(id)).status, 'sending', 'untouched while the lease holds');
    await t.ctx.db
      .updateTable('outgoing_mail')
      .set({ lease_until: new Date(Date.now() - 1000) })
      .where('id', '=', id)
      .execute();
    kickMailWorker(t.ctx);
    const settled = await waitForStatus(id, 'sent');
    assert.equal(settled.attempts, 2, 'claimed by the dead worker, then by the live one');
    await sleep(300);
    assert.equal(messagesFor(user.email).length, 1);
  });

  test('a crash after the SMTP accept sends again with the same Message-ID (at least once), then stops', async () => {
    const user = await t.register('Crashing');
    crashAfterAccept = true;
    const id = await queueReset(user.email);
    const deadline = Date.now() + WAIT_MS;
    while (messagesFor(user.email).length < 1) {
      assert.ok(Date.now() < deadline);
      await sleep(20);
    }
    await sleep(200);
    const stuck = await row(id);
    assert.equal(stuck.status, 'sending', 'the accept was not recorded');
    await t.ctx.db
      .updateTable('outgoing_mail')
      .set({ lease_until: new Date(Date.now() - 1000) })
      .where('id', '=', id)
      .execute();
    kickMailWorker(t.ctx);
    await waitForStatus(id, 'sent');
    await sleep(300);
    const copies = messagesFor(user.email);
    assert.equal(copies.length, 2, 'sent again after the lease');
    assert.equal(copies[0]!.messageId, copies[1]!.messageId, 'a duplicate a client can recognise');
    assert.equal(copies[0]!.messageId, `<${id}@trackway.test>`);
  });
});

async function newIssue(title: string) {
  const team = (await t.get('/api/teams', t.adminToken)).body.teams[0];
  const res = await t.post('/api/issues', { teamId: team.id, title }, t.adminToken);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.issue as { id: string; identifier: string };
}

/**
 * Queues lines in one transaction (one created_at: one window, however slow
 * the machine). `hold` keeps them out of any digest until release(), so a
 * test can change things "before the window closes" without racing it.
 */
async function notify(userId: string, issueIds: string[], text: string, hold = false) {
  return t.ctx.db.transaction().execute(async (trx) => {
    const queued: boolean[] = [];
    for (const [i, issueId] of issueIds.entries()) {
      const line = issueIds.length > 1 ? `${text} ${i + 1}` : text;
      queued.push(
        await enqueueNotificationMail(t.ctx, trx, {
          userId,
          issueId,
          kind: 'comment',
          text: line,
          actorId: null,
        }),
      );
    }
    if (hold) {
      await trx
        .updateTable('mail_notification_items')
        .set({ created_at: new Date(Date.now() + 3_600_000) })
        .where('user_id', '=', userId)
        .execute();
    }
    return queued.every(Boolean);
  });
}

async function release(userId: string) {
  await t.ctx.db
    .updateTable('mail_notification_items')
    .set({ created_at: new Date(Date.now() - 3_600_000) })
    .where('user_id', '=', userId)
    .execute();
  kickMailWorker(t.ctx);
}

/** The user's one queued message, once it is no longer waiting or being sent. */
async function settledFor(userId: string) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const rows = await t.ctx.db
      .selectFrom('outgoing_mail')
      .selectAll()
      .where('to_user_id', '=', userId)
      .execute();
    if (rows.length === 1 && !['pending', 'sending'].includes(rows[0]!.status)) return rows[0]!;
    assert.ok(Date.now() < deadline, `settled: ${JSON.stringify(rows.map((r) => r.status))}`);
    await sleep(20);
  }
}

describe('notification digests', () => {
  test('a notification (assigned, through the REST API) reaches the assignee as a digest line with the issue link', async () => {
    const member = await t.userWithRole('member');
    const created = await t.post(
      '/api/issues',
      { teamId: 'ENG', title: 'Mailed assignment', assigneeId: member.user.id },
      t.adminToken,
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const deadline = Date.now() + WAIT_MS;
    while (messagesFor(member.email).length < 1) {
      assert.ok(Date.now() < deadline, 'the digest arrived');
      await sleep(20);
    }
    const mail = messagesFor(member.email)[0]!;
    assert.equal(mail.subject, '[Trackway] Assigned to you');
    assert.match(mail.text ?? '', new RegExp(`${created.body.issue.identifier} Mailed assignment`));
    assert.ok((mail.text ?? '').includes(`/issue/${created.body.issue.identifier}`), 'the issue link');
    // The admin who assigned it gets nothing about their own change.
    assert.equal(messagesFor(ADMIN_EMAIL).length, 0);
  });

  test('a new project update (through the REST API) reaches a member of the project as "New project update" with its name and page', async () => {
    const member = await t.userWithRole('member', { teams: ['ENG'] });
    const project = await t.post(
      '/api/projects',
      { name: 'Mailed plan', teamIds: ['ENG'], memberIds: [member.user.id] },
      t.adminToken,
    );
    assert.equal(project.status, 201, JSON.stringify(project.body));
    const id = project.body.project.id as string;
    const update = await t.post(
      `/api/projects/${id}/updates`,
      { body: 'On track', health: 'onTrack' },
      t.adminToken,
    );
    assert.equal(update.status, 201, JSON.stringify(update.body));
    const deadline = Date.now() + WAIT_MS;
    while (messagesFor(member.email).length < 1) {
      assert.ok(Date.now() < deadline, 'the digest arrived');
      await sleep(20);
    }
    const mail = messagesFor(member.email)[0]!;
    assert.equal(mail.subject, '[Trackway] New project update');
    const lines = (mail.text ?? '').split(/\r?\n/);
    assert.ok(lines.includes('New project update'), mail.text);
    assert.ok(lines.includes('  Mailed plan'), mail.text);
    assert.ok(lines.includes(`  http://trackway.test/projects/${id}`), mail.text);
    // The admin who wrote it gets nothing about their own update.
    assert.equal(messagesFor(ADMIN_EMAIL).length, 0);
  });

  test('a digest line about a project the reader can no longer see is not sent', async () => {
    const member = await t.userWithRole('member', { teams: ['ENG'] });
    const vault = await t.post('/api/teams', { name: 'Mail vault', key: 'MVT', private: true }, t.adminToken);
    assert.equal(vault.status, 201, JSON.stringify(vault.body));
    const project = await t.post('/api/projects', { name: 'Soon hidden', teamIds: ['ENG'] }, t.adminToken);
    assert.equal(project.status, 201, JSON.stringify(project.body));
    const id = project.body.project.id as string;
    // Queued and held out of any digest in one transaction, as notify() does.
    const queued = await t.ctx.db.transaction().execute(async (trx) => {
      const done = await enqueueNotificationMail(t.ctx, trx, {
        userId: member.user.id,
        issueId: null,
        projectId: id,
        kind: 'projectUpdateCreated',
        text: 'New project update',
        actorId: null,
      });
      await trx
        .updateTable('mail_notification_items')
        .set({ created_at: new Date(Date.now() + 3_600_000) })
        .where('user_id', '=', member.user.id)
        .execute();
      return done;
    });
    assert.equal(queued, true);
    // The project moves to a private team the member is not in before the window closes.
    const moved = await t.patch(`/api/projects/${id}`, { teamIds: ['MVT'] }, t.adminToken);
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    await release(member.user.id);
    const r = await settledFor(member.user.id);
    assert.equal(r.status, 'dropped');
    assert.match(r.last_error ?? '', /may still see/);
    assert.equal(messagesFor(member.email).length, 0);
  });

  test('issue 24, finding 8: a title stored with line breaks (before titles were checked) is one line in the digest', async () => {
    const member = await t.userWithRole('member');
    const issue = await newIssue('Quarterly report');
    // Written past the API, as a row from before the one-line rule would be.
    const forged =
      'Quarterly report\r\n-- \nIT desk: your session expired, sign in at https://evil.example/login';
    await t.ctx.db.updateTable('issues').set({ title: forged }).where('id', '=', issue.id).execute();
    assert.equal(
      await notify(member.user.id, [issue.id], 'Ada commented\nP.S. reply with your password'),
      true,
    );
    await release(member.user.id);
    const deadline = Date.now() + WAIT_MS;
    while (messagesFor(member.email).length < 1) {
      assert.ok(Date.now() < deadline, 'digest arrived');
      await sleep(20);
    }
    const mail = messagesFor(member.email)[0]!;
    const lines = (mail.text ?? '').split(/\r?\n/);
    assert.ok(
      lines.includes(
        `  ${issue.identifier} Quarterly report -- IT desk: your session expired, sign in at https://evil.example/login`,
      ),
      mail.text,
    );
    assert.ok(lines.includes('Ada commented P.S. reply with your password'), mail.text);
    assert.equal(lines.filter((l) => /^--\s*$/.test(l)).length, 1, 'one signature separator: ours');
    assert.ok(!lines.some((l) => l.startsWith('IT desk') || l.startsWith('P.S.')), mail.text);
    assert.equal(mail.subject, '[Trackway] Ada commented P.S. reply with your password');
  });

  test('three items within the window make one mail with three links and a one-click unsubscribe', async () => {
    const member = await t.userWithRole('member');
    const issues = [await newIssue('First'), await newIssue('Second'), await newIssue('Third')];
    assert.equal(
      await notify(
        member.user.id,
        issues.map((i) => i.id),
        'Update',
      ),
      true,
    );
    const deadline = Date.now() + WAIT_MS;
    while (messagesFor(member.email).length < 1) {
      assert.ok(Date.now() < deadline, 'digest arrived');
      await sleep(20);
    }
    await sleep(WINDOW_MS + 300);
    const mails = messagesFor(member.email);
    assert.equal(mails.length, 1, 'one digest');
    const mail = mails[0]!;
    assert.equal(mail.subject, '[Trackway] 3 updates');
    for (const issue of issues)
      assert.ok(mail.text?.includes(`http://trackway.test/issue/${issue.identifier}`), issue.identifier);
    const text = mail.text ?? '';
    assert.ok(text.indexOf('Update 1') < text.indexOf('Update 3'), 'in order');
    const header = rawHeader(mail, 'List-Unsubscribe');
    const m = /<(http:\/\/trackway\.test\/api\/mail\/unsubscribe\?token=[^>]+)>/.exec(header ?? '');
    assert.ok(m, `List-Unsubscribe: ${header}`);
    assert.equal(rawHeader(mail, 'List-Unsubscribe-Post'), 'List-Unsubscribe=One-Click');

    // One click, as a mail client makes it (RFC 8058): a form POST, no credentials.
    const url = new URL(m[1]!);
    // Opening the link in a browser shows a button and changes nothing.
    const page = await t.get(`${url.pathname}${url.search}`);
    assert.equal(page.status, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(page.body, /<form method="post">/);
    const before = (await t.get('/api/me/preferences', member.token)).body;
    assert.deepEqual(before, { preferences: { emailNotifications: true }, emailAvailable: true });
    const click = await t.request('POST', `${url.pathname}${url.search}`, {
      payload: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(click.status, 200, JSON.stringify(click.body));
    assert.deepEqual((await t.get('/api/me/preferences', member.token)).body, {
      preferences: { emailNotifications: false },
      emailAvailable: true,
    });
    assert.equal(
      await notify(member.user.id, [issues[0]!.id], 'After unsubscribing'),
      false,
      'nothing queued',
    );

    const on = await t.patch('/api/me/preferences', { emailNotifications: true }, member.token);
    assert.deepEqual(on.body, { preferences: { emailNotifications: true }, emailAvailable: true });
    assert.equal(await notify(member.user.id, [issues[0]!.id], 'Back on'), true);
    const again = Date.now() + WAIT_MS;
    while (messagesFor(member.email).length < 2) {
      assert.ok(Date.now() < again, 'mail resumes');
      await sleep(20);
    }
    assert.equal(messagesFor(member.email)[1]!.subject, '[Trackway] Back on');
  });

  test('unsubscribing before the digest is sent drops it', async () => {
    const member = await t.userWithRole('member');
    const issue = await newIssue('Quiet');
    assert.equal(await notify(member.user.id, [issue.id], 'Will not arrive', true), true);
    await t.patch('/api/me/preferences', { emailNotifications: false }, member.token);
    await release(member.user.id);
    const r = await settledFor(member.user.id);
    assert.equal(r.status, 'dropped');
    assert.match(r.last_error ?? '', /turned notification email off/);
    assert.equal(messagesFor(member.email).length, 0);
  });

  test('a digest about an issue the reader can no longer see is not sent', async () => {
    const guest = await t.userWithRole('guest', { teams: ['ENG'] });
    const issue = await newIssue('Hidden soon');
    assert.equal(await notify(guest.user.id, [issue.id], 'You cannot see this', true), true);
    // The guest leaves the team before the window closes.
    const team = (await t.get('/api/teams', t.adminToken)).body.teams[0];
    const left = await t.del(`/api/teams/${team.id}/members/${guest.user.id}`, t.adminToken);
    assert.ok(left.status < 300, JSON.stringify(left.body));
    await release(guest.user.id);
    const r = await settledFor(guest.user.id);
    assert.equal(r.status, 'dropped');
    assert.match(r.last_error ?? '', /may still see/);
    assert.equal(messagesFor(guest.email).length, 0);
  });

  test('the actor is not mailed about their own change; bad tokens and bodies are 400s', async () => {
    const member = await t.userWithRole('member');
    const issue = await newIssue('Own');
    const own = await t.ctx.db.transaction().execute((trx) =>
      enqueueNotificationMail(t.ctx, trx, {
        userId: member.user.id,
        issueId: issue.id,
        kind: 'comment',
        text: 'x',
        actorId: member.user.id,
      }),
    );
    assert.equal(own, false);
    for (const token of ['nope', `${member.user.id}.${'A'.repeat(32)}`, 'x'.repeat(500)]) {
      const res = await t.request('POST', `/api/mail/unsubscribe?token=${token}`, {});
      assert.equal(res.status, 400, token);
    }
    assert.deepEqual((await t.get('/api/me/preferences', member.token)).body.preferences, {
      emailNotifications: true,
    });
  });
});

// Side effects as handlers of the change event (platform/outbox.ts, the list
// in app.ts): a handler that fails rolls back the write, its event and what
// the handlers before it wrote; an issue update reads the issue a fixed
// number of times, whatever the issue carries, and no handler reads it again.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  PostgresQueryCompiler,
  type QueryResult,
  sql,
  type UnknownRow,
} from 'kysely';
import { EVENT_HANDLERS } from '../src/app.js';
import { updateIssue } from '../src/modules/issues/service.js';
import type { Actor, AppContext } from '../src/platform/context.js';
import type { Db } from '../src/platform/db/database.js';
import { invalidField } from '../src/platform/errors.js';
import type { EventHandler } from '../src/platform/outbox.js';
import { startTestApp, type TestApp } from './support/harness.js';

let t: TestApp;
let admin: Actor;
let bob: { token: string; user: any };
let states: Record<string, string>;

before(async () => {
  // Mail configured (no worker), so notifications queue digest lines too.
  t = await startTestApp(
    {
      mail: {
        smtpUrl: 'smtp://127.0.0.1:9',
        from: 'tw@trackway.test',
        batchWindowMs: 60_000,
        retryBaseMs: 100,
      },
    },
    { mailWorker: false },
  );
  const me = await t.get('/api/auth/me', t.adminToken);
  assert.equal(me.status, 200, JSON.stringify(me.body));
  admin = {
    id: me.body.user.id,
    role: 'admin',
    name: me.body.user.name,
    email: me.body.user.email,
    via: 'session',
  };
  bob = await t.userWithRole('member', { teams: ['ENG'] });
  const res = await t.get('/api/workflow-states?teamId=ENG', t.adminToken);
  states = Object.fromEntries(res.body.workflowStates.map((s: any) => [s.type, s.id]));
});
after(() => t.close());

async function newIssue(body: Record<string, unknown> = {}) {
  const res = await t.post('/api/issues', { teamId: 'ENG', title: 'Effects', ...body }, t.adminToken);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.issue;
}

interface Counts {
  issueEvents: number;
  events: number;
  history: number;
  notifications: number;
  mail: number;
}

/** Rows of each table a write and its handlers touch. */
async function counts(db: Db, issueId: string): Promise<Counts> {
  const r = await sql<Record<keyof Counts, string>>`select
      (select count(*) from webhook_events where type = 'issue')::text as "issueEvents",
      (select count(*) from webhook_events)::text as events,
      (select count(*) from issue_history where issue_id = ${issueId}::uuid)::text as history,
      (select count(*) from notifications where issue_id = ${issueId}::uuid)::text as notifications,
      (select count(*) from mail_notification_items where issue_id = ${issueId}::uuid)::text as mail`.execute(
    db,
  );
  const row = r.rows[0]!;
  return {
    issueEvents: Number(row.issueEvents),
    events: Number(row.events),
    history: Number(row.history),
    notifications: Number(row.notifications),
    mail: Number(row.mail),
  };
}

describe('a failing handler', () => {
  test('rolls back the write, its event and what earlier handlers wrote', async () => {
    const issue = await newIssue();
    const before = await counts(t.ctx.db, issue.id);
    let seen: Counts | undefined;
    const failing: EventHandler = {
      name: 'failing',
      types: ['issue'],
      async handle(_ctx, trx) {
        seen = await counts(trx, issue.id);
        throw new Error('handler bug');
      },
    };
    const ctx: AppContext = { ...t.ctx, eventHandlers: [...EVENT_HANDLERS, failing] };
    await assert.rejects(
      updateIssue(ctx, admin, issue.id, {
        title: 'Changed',
        stateId: states['started']!,
        assigneeId: bob.user.id,
      }),
      /handler bug/,
    );
    // Inside the transaction the handlers before it had done their part...
    assert.ok(seen, 'the failing handler ran');
    assert.equal(seen.issueEvents, before.issueEvents + 1, 'the issue event');
    assert.ok(seen.events > seen.issueEvents - before.issueEvents + before.events, 'and the notification’s');
    assert.equal(seen.history, before.history + 1, 'the history entry');
    assert.ok(seen.notifications > before.notifications, 'bob notified of the assignment');
    assert.ok(seen.mail > before.mail, 'and mailed');
    // ...and none of it, nor the change itself, survived.
    assert.deepEqual(await counts(t.ctx.db, issue.id), before);
    const now = await t.get(`/api/issues/${issue.id}`, t.adminToken);
    assert.equal(now.body.issue.title, 'Effects');
    assert.equal(now.body.issue.assigneeId, null);
    assert.equal(now.body.issue.stateId, issue.stateId);

    // The same update without it commits everything.
    const ok = await t.patch(
      `/api/issues/${issue.id}`,
      { title: 'Changed', stateId: states['started'], assigneeId: bob.user.id },
      t.adminToken,
    );
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const done = await counts(t.ctx.db, issue.id);
    assert.equal(done.history, before.history + 1);
    assert.deepEqual([done.notifications > 0, done.mail > 0], [true, true]);
  });

  test('a refusal from a handler keeps its 4xx and rolls back too', async () => {
    const issue = await newIssue();
    const before = await counts(t.ctx.db, issue.id);
    const refusing: EventHandler = {
      name: 'refusing',
      types: ['issue'],
      async handle() {
        throw invalidField('title', 'refused by a handler');
      },
    };
    const ctx: AppContext = { ...t.ctx, eventHandlers: [refusing, ...EVENT_HANDLERS] };
    await assert.rejects(
      updateIssue(ctx, admin, issue.id, { title: 'No' }),
      (err: any) => err.status === 400,
    );
    assert.deepEqual(await counts(t.ctx.db, issue.id), before);
  });
});

/** Records each statement's SQL (one statement per executed query; a subquery is part of it). */
class StatementLog implements KyselyPlugin {
  readonly sql: string[] = [];
  private readonly compiler = new PostgresQueryCompiler();
  transformQuery(args: PluginTransformQueryArgs) {
    this.sql.push(this.compiler.compileQuery(args.node, args.queryId).sql);
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
  /** Statements that read the issues table (selects; writes that join it are not reads of the issue). */
  get issueReads(): number {
    return this.sql.filter((s) => /^\s*select\b/i.test(s) && /\b(from|join)\s+"?issues"?(\s|$)/i.test(s))
      .length;
  }
}

describe('an issue update', () => {
  async function update(issueId: string, patch: Record<string, unknown>, handlers = EVENT_HANDLERS) {
    const log = new StatementLog();
    const ctx: AppContext = { ...t.ctx, db: t.ctx.db.withPlugin(log), eventHandlers: handlers };
    await updateIssue(ctx, admin, issueId, patch);
    return log;
  }

  test('reads the issue a fixed number of times, whatever it carries, and handlers read it no more', async () => {
    const labels: string[] = [];
    for (let i = 0; i < 5; i++) {
      const l = await t.post('/api/labels', { name: `fx-${Date.now()}-${i}`, teamId: 'ENG' }, t.adminToken);
      assert.equal(l.status, 201, JSON.stringify(l.body));
      labels.push(l.body.label.id);
    }
    const plain = await newIssue();
    const parent = await newIssue();
    const loaded = await newIssue({ labelIds: labels, assigneeId: bob.user.id, parentId: parent.id });
    for (let i = 0; i < 4; i++) await newIssue({ parentId: loaded.id });

    const a = await update(plain.id, { title: 'Plain, renamed' });
    const b = await update(loaded.id, { title: 'Loaded, renamed' });
    const c = await update(loaded.id, { title: 'Loaded, again' }, []);
    assert.ok(a.issueReads > 0);
    assert.equal(b.issueReads, a.issueReads, b.sql.join('\n'));
    assert.equal(c.issueReads, b.issueReads, 'the handlers read the issue again');
    // Resolving the id, the lock, the record before and after, the answer read with the caller's access.
    assert.equal(a.issueReads, 5, a.sql.join('\n'));
    // The whole update costs the same for both issues.
    assert.equal(b.sql.length, a.sql.length, `${a.sql.join('\n')}\n---\n${b.sql.join('\n')}`);

    // A state change that notifies subscribers reads the issue no more either.
    const d = await update(loaded.id, { stateId: states['started'] });
    assert.equal(d.issueReads, a.issueReads, d.sql.join('\n'));
  });
});

describe('silent changes', () => {
  test('a duplicate moved to its Duplicate state has history but notifies nobody; a state change by hand notifies', async () => {
    const original = await newIssue();
    const dup = await newIssue({ assigneeId: bob.user.id }); // bob subscribed
    const start = await counts(t.ctx.db, dup.id);
    const res = await t.post(
      `/api/issues/${dup.id}/relations`,
      { type: 'duplicate', relatedIssueId: original.id },
      t.adminToken,
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const moved = await counts(t.ctx.db, dup.id);
    assert.equal(moved.history, start.history + 1, 'the move has its history entry');
    assert.equal(moved.issueEvents, start.issueEvents + 1, 'and its event');
    assert.equal(moved.notifications, start.notifications, 'no status notification');

    const back = await t.patch(`/api/issues/${dup.id}`, { stateId: states['started'] }, t.adminToken);
    assert.equal(back.status, 200, JSON.stringify(back.body));
    const rows = await t.ctx.db
      .selectFrom('notifications')
      .select(['type', 'issue_status_type'])
      .where('issue_id', '=', dup.id)
      .where('user_id', '=', bob.user.id)
      .execute();
    assert.deepEqual(
      rows.filter((r) => r.type === 'issueStatusChanged'),
      [{ type: 'issueStatusChanged', issue_status_type: 'started' }],
    );
  });
});

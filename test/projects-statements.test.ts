// Lists of projects and cycles cost a fixed number of SQL statements whatever
// the page size: members, teams and progress are read for the whole page
// (REST's project list: one statement builds the page's JSON).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { listCyclesJson } from '../src/modules/cycles/service.js';
import { listProjectsJson } from '../src/modules/projects/service.js';
import { insertIssue } from './projects.fixtures.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { StatementCounter } from './support/statement-counter.js';

let t: TestApp;
let member: { token: string; user: any };
before(async () => {
  t = await startTestApp();
  member = await t.register('Counter');
});
after(() => t.close());

const actorOf = (user: any) => ({
  id: user.id,
  role: 'member' as const,
  name: user.name,
  email: user.email,
  via: 'session' as const,
});

test('project and cycle lists: the same statement count for 3 and 30 rows', async () => {
  for (let i = 0; i < 30; i++) {
    const p = await t.post('/api/projects', { name: `P${i}`, memberIds: [member.user.id] }, member.token);
    const c = await t.post(
      '/api/cycles',
      {
        startsAt: new Date(Date.now() + i * 1000).toISOString(),
        endsAt: new Date(Date.now() + 1e9).toISOString(),
      },
      member.token,
    );
    await insertIssue(t, { projectId: p.body.project.id, cycleId: c.body.cycle.id, type: 'completed' });
  }
  const counts: Record<string, number> = {};
  for (const limit of [3, 30]) {
    const pc = new StatementCounter();
    const projects = JSON.parse(
      await listProjectsJson({ ...t.ctx, db: t.ctx.db.withPlugin(pc) }, actorOf(member.user), {
        limit,
        offset: 0,
      }),
    ) as { projects: { progress: { issueCount: number }; memberIds: string[] }[] };
    assert.equal(projects.projects.length, limit);
    assert.ok(projects.projects.every((p) => p.progress.issueCount === 1 && p.memberIds.length === 1));
    counts[`projects${limit}`] = pc.count;
    const cc = new StatementCounter();
    const cycles = JSON.parse(
      await listCyclesJson({ ...t.ctx, db: t.ctx.db.withPlugin(cc) }, actorOf(member.user), {
        limit,
        offset: 0,
      }),
    ) as { cycles: { progress: { completedIssueCount: number } }[] };
    assert.equal(cycles.cycles.length, limit);
    assert.ok(cycles.cycles.every((c) => c.progress.completedIssueCount === 1));
    counts[`cycles${limit}`] = cc.count;
  }
  console.log(`# statements: ${JSON.stringify(counts)}`);
  assert.equal(counts['projects30'], counts['projects3']);
  assert.equal(counts['cycles30'], counts['cycles3']);
  // One of them reads the member's teams (once per request; none for admins).
  assert.ok(counts['projects30']! <= 7);
  assert.ok(counts['cycles30']! <= 5);
});

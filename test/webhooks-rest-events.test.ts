// Events produced by the real REST endpoints of the other domains arrive at a
// receiver with the documented shape and a valid signature.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from './support/harness.js';
import { type Receiver, signatureValid, startReceiver } from './webhooks-support.js';

let t: TestApp;
let rx: Receiver;
before(async () => {
  t = await startTestApp();
  rx = await startReceiver();
});
after(async () => {
  await rx.close();
  await t.close();
});

test('issue, comment, label, project and attachment changes made over REST are delivered', async () => {
  const hook = await t.post('/api/admin/webhooks', { url: rx.url }, t.adminToken);
  assert.equal(hook.status, 201);
  const { secret, id: webhookId } = hook.body.webhook;
  const tok = t.adminToken;

  const issue = await t.post('/api/issues', { title: 'Webhook me', priority: 3 }, tok);
  assert.equal(issue.status, 201, JSON.stringify(issue.body));
  const issueId = issue.body.issue.id;
  assert.equal((await t.patch(`/api/issues/${issueId}`, { priority: 1 }, tok)).status, 200);
  const comment = await t.post(`/api/issues/${issueId}/comments`, { body: 'First!' }, tok);
  assert.equal(comment.status, 201, JSON.stringify(comment.body));
  const commentId = comment.body.comment.id;
  assert.equal((await t.patch(`/api/comments/${commentId}`, { body: 'Edited' }, tok)).status, 200);
  assert.equal((await t.del(`/api/comments/${commentId}`, tok)).status, 200);
  const label = await t.post('/api/labels', { name: 'Hooked', color: '#ff0000' }, tok);
  assert.equal(label.status, 201, JSON.stringify(label.body));
  const project = await t.post('/api/projects', { name: 'Hook project' }, tok);
  assert.equal(project.status, 201, JSON.stringify(project.body));
  const attachment = await t.post(
    `/api/issues/${issueId}/attachments`,
    { title: 'Spec', url: 'https://example.com/spec' },
    tok,
  );
  assert.equal(attachment.status, 201, JSON.stringify(attachment.body));
  assert.equal((await t.del(`/api/issues/${issueId}`, tok)).status, 200);

  const expected = [
    'issue.create',
    'issue.update',
    'comment.create',
    'comment.update',
    'comment.remove',
    'label.create',
    'project.create',
    'attachment.create',
  ];
  await rx.waitFor(
    (all) => all.some((r) => r.headers['x-service-event'] === 'issue.remove'),
    'the issue removal',
  );
  const events = rx.received.map((r) => String(r.headers['x-service-event']));
  // Each change above in order (a domain may add events of its own, e.g. cascades).
  let at = 0;
  for (const e of expected) {
    at = events.indexOf(e, at);
    assert.ok(at >= 0, `${e} in order within ${events.join(', ')}`);
  }
  for (const r of rx.received) {
    assert.ok(signatureValid(secret, r));
    assert.equal(r.body.webhookId, webhookId);
    assert.equal(r.body.actor?.email, 'admin@example.com');
  }
  const byEvent = (e: string) => rx.received.find((r) => r.headers['x-service-event'] === e)!.body;
  const created = byEvent('issue.create');
  assert.equal(created.data.id, issueId);
  assert.equal(created.data.identifier, issue.body.issue.identifier);
  assert.equal(created.data.title, 'Webhook me');
  assert.equal(created.url, issue.body.issue.url);
  const updated = byEvent('issue.update');
  assert.equal(updated.data.priority, 1);
  assert.equal(updated.updatedFrom.priority, 3);
  assert.equal(byEvent('comment.create').data.id, commentId);
  assert.equal(byEvent('comment.update').data.body, 'Edited');
  assert.equal(byEvent('label.create').data.name, 'Hooked');
  assert.equal(byEvent('project.create').data.name, 'Hook project');
  assert.equal(byEvent('attachment.create').data.title, 'Spec');
  assert.equal(byEvent('issue.remove').data.id, issueId);
});

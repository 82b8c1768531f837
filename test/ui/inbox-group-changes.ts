// The inbox's group changes (PATCH /api/issues/:id/notifications), as the two inbox UI files
// watch and refuse them.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';

const GROUP_CHANGE = /\/api\/issues\/[^/]+\/notifications$/;

/**
 * Does `act` and waits for the server's answer to the group change it sends,
 * whose body says `change` (`'*'`: any value).
 */
export async function grouped(page: Page, change: Record<string, unknown>, act: () => Promise<unknown>) {
  const response = page.waitForResponse(
    (r) => r.request().method() === 'PATCH' && GROUP_CHANGE.test(r.url()),
  );
  await act();
  const answer = await response;
  assert.ok(answer.ok(), `${answer.status()}`);
  const sent = answer.request().postDataJSON() as Record<string, unknown>;
  assert.deepEqual(Object.keys(sent).sort(), Object.keys(change).sort());
  for (const [k, v] of Object.entries(change)) if (v !== '*') assert.deepEqual(sent[k], v);
}

/** Refuses every group change with a 404 saying `message`, as the server words one; returns the undo. */
export async function refuseGroupChanges(page: Page, message: string) {
  await page.route(GROUP_CHANGE, (route) =>
    route.request().method() === 'PATCH'
      ? route.fulfill({
          status: 404,
          contentType: 'application/json',
          body: JSON.stringify({ error: { code: 'NOT_FOUND', message } }),
        })
      : route.fallback(),
  );
  return () => page.unroute(GROUP_CHANGE);
}

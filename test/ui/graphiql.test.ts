// GraphiQL at GET /graphql, in a real browser: it loads its editor from our own
// assets, runs a query with the signed-in user's session, and shows the answer.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ADMIN_EMAIL, ADMIN_PASSWORD, screenshot, signIn, startUi, type UiEnv } from './browser.js';

let ui: UiEnv;
before(async () => {
  ui = await startUi();
});
after(() => ui?.close());

test('GraphiQL runs a query as the signed-in user', async () => {
  const { page } = await ui.newPage();
  const outside: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(ui.base) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) {
      outside.push(r.url());
    }
  });
  await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await page.goto('/graphql');
  // Run only once the editor shows the starting query: clicking earlier, while
  // Monaco still loads, would send an empty document.
  await page.getByText('query Viewer').first().waitFor({ timeout: 60_000 });
  const run = page.getByRole('button', { name: /execute query/i });
  await run.click();
  // The result pane is an editor; its text shows once the answer arrives.
  await page.getByText(`"${ADMIN_EMAIL}"`).first().waitFor({ timeout: 60_000 });
  await screenshot(page, 'graphiql');
  assert.deepEqual(outside, [], 'GraphiQL loads nothing from outside the server');
});

// Shared set-up for the UI end-to-end tests: the real app on a real port with
// the built web UI, and Debian's Chromium driven by playwright-core. A missing
// browser or build fails the tests (it never skips them).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type net from 'node:net';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page, type Route } from 'playwright-core';
import type { Config } from '../../src/config.js';
import { WEB_DIST } from '../../src/modules/ui/serve.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../support/env.js';
import { startTestApp, type TestApp } from '../support/harness.js';

// Chromium's headless shell (Debian's chromium-headless-shell): the same engine without the
// browser's own interface, at about two thirds of the full browser's CPU for our pages.
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium-headless-shell';
export { ADMIN_EMAIL, ADMIN_PASSWORD };

export interface UiEnv {
  t: TestApp;
  base: string;
  browser: Browser;
  /** A fresh browser context (own storage) with a page open on the app; desktop size and light scheme unless given. */
  newPage(opts?: PageOptions): Promise<{ context: BrowserContext; page: Page }>;
  /**
   * A fresh context already signed in (as the admin unless `as` says), its page open on `path`
   * with nothing on it loading.
   * The session comes from the API and is put where the app keeps it before the app's first
   * script runs: no sign-in form and no document loaded only to show it. The form itself is
   * tested where it is the subject (accounts, sessions, registration, sso, password-reset).
   */
  signedIn(path?: string, opts?: SignedInOptions): Promise<{ context: BrowserContext; page: Page }>;
  /** Every Content-Security-Policy violation any page reported so far; close() fails if there are any. */
  cspViolations: string[];
  close(): Promise<void>;
}

export interface PageOptions {
  viewport?: { width: number; height: number };
  colorScheme?: 'light' | 'dark';
  /**
   * The app's service worker (web/sw) is blocked unless asked for: registered, it
   * fetches and stores the whole app shell in every new context, CPU that only the
   * offline tests need.
   */
  serviceWorker?: boolean;
}
export interface SignedInOptions extends PageOptions {
  /** Who signs in; the password the fixtures give people (`t.userWithRole`) unless said. */
  as?: { email: string; password?: string };
}

/** Where web/src/lib/api.ts keeps the session's token. */
const TOKEN_KEY = 'trackway.token';
/**
 * Puts the token in place once per context (a marker remembers it), so that a test that signs
 * out and reloads stays signed out.
 */
function seedSession({ key, token }: { key: string; token: string }) {
  if (localStorage.getItem('trackway.test.seeded')) return;
  localStorage.setItem('trackway.test.seeded', '1');
  localStorage.setItem(key, token);
}

/** A phone held upright (the width of most current phones). */
export const PHONE = { width: 390, height: 844 };

/** The app for browser tests; `overrides` and `options` go to startTestApp (say, a mail server). */
export async function startUi(
  overrides: Partial<Config> = {},
  options: Parameters<typeof startTestApp>[1] = {},
): Promise<UiEnv> {
  assert.ok(fs.existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM}: apt-get install -y chromium`);
  assert.ok(
    fs.existsSync(path.join(WEB_DIST, 'index.html')),
    'web/dist is missing: run `npm run build` (scripts/test.mjs builds it when missing)',
  );
  // The app hands out absolute URLs (uploads, assets) under its public URL, so
  // it must be the address the browser really uses.
  const { t, port } = await listeningApp(overrides, options);
  const base = `http://127.0.0.1:${port}`;
  const browser = await sharedBrowser();
  const contexts: BrowserContext[] = [];
  const cspViolations: string[] = [];
  const newPage: UiEnv['newPage'] = async (opts = {}) => {
    const context = await browser.newContext({
      baseURL: base,
      viewport: opts.viewport ?? { width: 1280, height: 800 },
      colorScheme: opts.colorScheme ?? 'light',
      serviceWorkers: opts.serviceWorker ? 'allow' : 'block',
      ...(opts.viewport && opts.viewport.width < 800 ? { isMobile: true, hasTouch: true } : {}),
    });
    context.setDefaultTimeout(15_000);
    // Chromium reports violations as an event in the page, not on the console.
    await context.addInitScript(CSP_REPORTER);
    context.on('console', (m) => {
      if (m.text().startsWith(CSP_PREFIX)) cspViolations.push(`${m.page()?.url()}: ${m.text()}`);
    });
    contexts.push(context);
    const page = await context.newPage();
    page.on('dialog', (d) => void d.accept());
    return { context, page };
  };
  return {
    t,
    base,
    browser,
    cspViolations,
    newPage,
    async signedIn(path = '/', opts = {}) {
      const who = opts.as ?? { email: ADMIN_EMAIL, password: ADMIN_PASSWORD };
      const { token } = await t.login(who.email, who.password ?? 'password-123');
      const opened = await newPage(opts);
      await opened.context.addInitScript(seedSession, { key: TOKEN_KEY, token });
      await opened.page.goto(path);
      await opened.page.locator('main#main').waitFor();
      await opened.page.waitForFunction(() => !document.querySelector('.boot, .loading'));
      return opened;
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => undefined);
      await t.close();
      assert.deepEqual(cspViolations, [], 'no page broke the Content-Security-Policy');
    },
  };
}

/**
 * One Chromium per test process, shared by the UI files it runs one after
 * another (scripts/test-worker.mjs): each file gets its own contexts (own
 * storage, cookies and pages), closed when it ends, so only the launch is
 * shared, and a launch costs more CPU than many a file's pages. Playwright
 * ends the browser when the process exits.
 */
let launched: Promise<Browser> | undefined;
async function sharedBrowser(): Promise<Browser> {
  const running = await launched?.catch(() => undefined);
  if (running?.isConnected()) return running;
  launched = chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  return launched;
}

const CSP_PREFIX = 'CSP violation:';
const CSP_REPORTER = `document.addEventListener('securitypolicyviolation', (e) =>
  console.error('${CSP_PREFIX} ' + e.effectiveDirective + ' blocked ' + (e.blockedURI || 'inline') +
    ' at ' + e.sourceFile + ':' + e.lineNumber));`;

/**
 * The app on a loopback port the system picks, told its own address as its
 * public URL once it listens (it reads the URL per request; the OAuth provider,
 * whose issuer is the URL, is built on its first request for this reason).
 * Choosing a free port first and binding it later raced with other processes taking it.
 */
async function listeningApp(
  overrides: Partial<Config>,
  options: Parameters<typeof startTestApp>[1],
): Promise<{ t: TestApp; port: number }> {
  const t = await startTestApp({ ...overrides, publicUrl: 'http://127.0.0.1' }, options);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as net.AddressInfo;
  (t.config as { publicUrl: string }).publicUrl = `http://127.0.0.1:${port}`;
  assert.equal(t.ctx.config.publicUrl, t.config.publicUrl, 'the app reads the same configuration');
  return { t, port };
}

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe's serious and critical violations on the page as it is now, one line each
 * (`rule: targets`). axe-core is injected once per document, not per check: its
 * half a megabyte of script parsed again for each check cost more CPU than the
 * checks themselves; so pages checked one after another are reached inside the
 * app (`visit`), not by loading the document again.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated, not added as a <script>: the page's CSP (rightly) refuses inline scripts.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(o: object): Promise<{ violations: AxeViolation[] }> } })
      .axe;
    return (await axe.run({ resultTypes: ['violations'] })).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    );
}

interface AxeViolation {
  id: string;
  impact?: string | null;
  nodes: { target: string[] }[];
}

/** Goes to `path` inside the app (its router, no document load) and waits until nothing is loading. */
export async function visit(page: Page, path: string) {
  await page.evaluate((p) => history.pushState(null, '', p), path);
  await page.waitForURL(path);
  // Two frames: the router has rendered the new page, whose loaders now show.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.locator('main#main').waitFor();
  await page.waitForFunction(() => !document.querySelector('.boot, .loading'));
}

export async function signIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // The signed-in frame's main region: on a phone the navigation waits hidden in the closed drawer.
  await page.locator('main#main').waitFor();
}

/**
 * Waits until the keyboard is on the element named `name` (its aria-label, else
 * its text). The app gives focus back a frame after a menu closes, so a busy
 * machine may not have done it yet when the next line runs.
 */
export async function focusLandsOn(page: Page, name: string | RegExp, timeout = 5_000) {
  const label = () =>
    page.evaluate(
      () => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent,
    );
  const fits = (l: string | null | undefined) => (typeof name === 'string' ? l === name : name.test(l ?? ''));
  for (const until = Date.now() + timeout; Date.now() < until; await page.waitForTimeout(50)) {
    if (fits(await label())) return;
  }
  const last = await label();
  assert.ok(fits(last), `the keyboard should be on ${name}; it is on ${JSON.stringify(last?.slice(0, 120))}`);
}

/** Saves a screenshot under .test-cache/screens when UI_SCREENSHOTS is set. */
export async function screenshot(page: Page, name: string) {
  if (!process.env['UI_SCREENSHOTS']) return;
  const dir = path.resolve('.test-cache/screens');
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}

/** Holds GraphQL requests whose operation is `name` until `release` is called. */
export async function holdOperation(p: Page, name: string) {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const handler = async (route: Route) => {
    if (!route.request().postData()?.includes(`mutation ${name}`)) return route.fallback();
    await gate;
    return route.fallback();
  };
  await p.route('**/graphql', handler);
  return { release, stop: () => p.unroute('**/graphql', handler) };
}

/** Answers GraphQL requests whose operation is `name` with a refusal saying `message`, as the server words one. */
export async function refuseOperation(p: Page, name: string, message: string) {
  const handler = (route: Route) =>
    route.request().postData()?.includes(`mutation ${name}`)
      ? route.fulfill({
          contentType: 'application/json',
          body: JSON.stringify({
            data: null,
            errors: [{ message, extensions: { userPresentableMessage: message } }],
          }),
        })
      : route.fallback();
  await p.route('**/graphql', handler);
  return { stop: () => p.unroute('**/graphql', handler) };
}

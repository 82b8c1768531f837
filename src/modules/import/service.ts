// Imports started over HTTP (POST /api/admin/imports, docs/migrate.md): the
// request checks the input, builds the source and opens the run (audited),
// answers 202 with the run, and the import runs on in this process after the
// answer. What the run did is read back from import_runs.
//
// Resuming: the source's secret (an API key) and a CSV's text are not kept,
// so nothing restarts a run by itself. A run that stopped (the source failed,
// the server stopped) is continued by the next POST of the same source, or the
// CLI, from its last written page (runner.ts openRun; a run still marked
// `running` counts as going on until STALE_AFTER_MS without progress).
import { createHash } from 'node:crypto';
import type { Actor, AppContext } from '../../platform/context.js';
import { outsideDbTimeBudget } from '../../platform/db/db-time.js';
import { invalidField, notFound } from '../../platform/errors.js';
import { isUuid } from '../../platform/ids.js';
import { UnsafeDestinationError, vetDestination } from '../../platform/net/safe-destination.js';
import { assertAdmin } from '../users/policy.js';
import { csvSource } from './csv.js';
import { GITHUB_API_URL, githubSource } from './github.js';
import { jiraSource } from './jira.js';
import { jiraXmlSource } from './jira-xml.js';
import { linearSource } from './linear.js';
import { ImportInputError, type ImportSource } from './model.js';
import * as q from './queries.js';
import { continueRun, openRun } from './runner.js';

/** What every source takes besides its own fields. */
interface RunInput {
  dryRun?: boolean;
  /** The source's people (email) → account ids here. */
  userMap?: Record<string, string>;
}

export type StartImportInput = RunInput &
  (
    | { source: 'linear'; url: string; apiKey: string }
    | { source: 'csv'; csv: string; mapping: unknown; name?: string }
    | {
        source: 'github';
        repo: string;
        token?: string;
        apiUrl?: string;
        team?: string;
        users?: Record<string, string>;
      }
    | {
        source: 'jira';
        url: string;
        jql: string;
        email?: string;
        apiToken?: string;
        pat?: string;
        team?: string;
      }
    | {
        source: 'jira-xml';
        xml: string;
        name?: string;
        team?: string;
        users?: Record<string, string>;
      }
  );

/** The runs this process goes on with after their request was answered, by run id. */
const background = new Map<string, { ctx: AppContext; stop: AbortController; done: Promise<void> }>();

async function sourceOf(
  ctx: AppContext,
  input: StartImportInput,
  signal: AbortSignal,
): Promise<ImportSource> {
  // The source's server goes through the outbound guard of webhooks: no private addresses.
  const vetted = async (field: string, raw: string) => {
    try {
      return (await vetDestination(raw.trim(), { allowPrivate: ctx.config.webhookAllowPrivate })).toString();
    } catch (err) {
      if (err instanceof UnsafeDestinationError) throw invalidField(field, err.message);
      throw err;
    }
  };
  try {
    if (input.source === 'linear') {
      return linearSource({ url: await vetted('url', input.url), apiKey: input.apiKey, signal });
    }
    if (input.source === 'github') {
      return githubSource({
        repo: input.repo,
        token: input.token,
        apiUrl: await vetted('apiUrl', input.apiUrl ?? GITHUB_API_URL),
        team: input.team,
        users: input.users,
        signal,
      });
    }
    if (input.source === 'jira') {
      const auth = jiraAuthOf(input);
      const url = await vetted('url', input.url);
      return jiraSource({ url, jql: input.jql, auth, team: input.team, signal });
    }
    if (input.source === 'jira-xml') {
      // The export names its site; without credentials its attachments stay links (docs/migrate.md).
      return jiraXmlSource({ xml: input.xml, name: input.name, team: input.team, users: input.users });
    }
    // Without a name the file's digest names it: the same file posted again finds its records.
    const name = input.name?.trim() || createHash('sha256').update(input.csv).digest('hex').slice(0, 16);
    return csvSource(name, input.csv, input.mapping);
  } catch (err) {
    if (err instanceof ImportInputError) {
      const named = input.source.startsWith('jira') ? /^(jql|team)\b/.exec(err.message)?.[1] : undefined;
      const field = {
        csv: 'csv',
        linear: 'url',
        github: 'repo',
        jira: named ?? 'url',
        'jira-xml': named ?? 'xml',
      }[input.source];
      throw invalidField(field, err.message);
    }
    throw err;
  }
}

/**
 * The source's people → account ids here (user-map.ts): the source emails
 * lower-cased, each value an account's id or (the CLI's file) its email, which
 * must name a live account (400 on `/userMap` otherwise). REST's start and
 * `npm run import -- ... --user-map` both check their map here.
 */
export async function resolveUserMap(ctx: AppContext, raw: Record<string, string> | undefined) {
  // REST's schema checks the values of the keys it knows only: anything else is no account either.
  const entries = Object.entries(raw ?? {}).map(
    ([from, to]) => [from.trim().toLowerCase(), String(to).trim()] as const,
  );
  const ids = entries.filter(([, to]) => isUuid(to)).map(([, to]) => to);
  const emails = entries.filter(([, to]) => !isUuid(to)).map(([, to]) => to);
  const [byId, byEmail] = await Promise.all([
    q.liveUsersByIds(ctx.db, ids),
    q.liveUsersByEmails(ctx.db, emails),
  ]);
  const live = new Set(byId.map((u) => u.id));
  const idOfEmail = new Map(byEmail.map((u) => [u.email.toLowerCase(), u.id]));
  const map: Record<string, string> = {};
  for (const [from, to] of entries) {
    const id = isUuid(to) ? (live.has(to) ? to : undefined) : idOfEmail.get(to.toLowerCase());
    if (!id)
      throw invalidField('userMap', `${from}: no account here has the ${isUuid(to) ? 'id' : 'email'} ${to}`);
    map[from] = id;
  }
  return map;
}

/** Cloud's email and API token, or Data Center's personal access token: exactly one of the two. */
function jiraAuthOf(input: { email?: string; apiToken?: string; pat?: string }) {
  if (input.pat && !input.email && !input.apiToken) return { pat: input.pat };
  if (input.email && input.apiToken && !input.pat) return { email: input.email, apiToken: input.apiToken };
  throw invalidField('pat', 'give email and apiToken (Jira Cloud) or pat (Data Center), not both');
}

/** Checks the input, opens the run and starts it after the answer; returns the run as stored. */
export async function startImport(ctx: AppContext, actor: Actor, input: StartImportInput) {
  assertAdmin(actor);
  const userMap = await resolveUserMap(ctx, input.userMap);
  // Stopping the server ends the run's requests to its source, not only the run between issues.
  const stop = new AbortController();
  const source = await sourceOf(ctx, input, stop.signal);
  const dryRun = input.dryRun ?? false;
  const opened = await openRun(ctx, actor, source, { dryRun });
  const done = outsideDbTimeBudget(() =>
    continueRun(ctx, actor, source, opened, { dryRun, userMap, signal: stop.signal }).then(
      () => undefined,
      // The run is marked failed, with the reason among its errors; the log says it too.
      (err: Error) => ctx.log.warn({ runId: opened.id, err: err.message }, 'import stopped'),
    ),
  ).finally(() => background.delete(opened.id));
  background.set(opened.id, { ctx, stop, done });
  return (await q.findRun(ctx.db, opened.id))!;
}

/** Stops this app's runs going on in the background and waits for each to record where it stopped. */
export async function stopImports(ctx: AppContext): Promise<void> {
  const mine = [...background.values()].filter((b) => b.ctx === ctx);
  for (const b of mine) b.stop.abort(new Error('the server is stopping'));
  await Promise.all(mine.map((b) => b.done));
}

export async function getImportRun(ctx: AppContext, actor: Actor, id: string) {
  assertAdmin(actor);
  const run = await q.findRun(ctx.db, id);
  if (!run) throw notFound('Import run');
  return run;
}

export async function listImportRuns(ctx: AppContext, actor: Actor, page: { limit: number; offset: number }) {
  assertAdmin(actor);
  return q.listRuns(ctx.db, page);
}

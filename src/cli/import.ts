// `npm run import -- <source> ...` (docs/migrate.md):
//   npm run import -- linear <server-url> [--dry-run]      (the API key in LINEAR_API_KEY)
//   npm run import -- csv <file.csv> <mapping.json> [--dry-run]
//   npm run import -- github <owner/repo> [--team KEY] [--users logins.json] [--dry-run]
//     (GITHUB_TOKEN holds the token; GITHUB_API_URL a GitHub Enterprise Server's API)
//   npm run import -- jira <site-url> --jql '<query>' [--team KEY] [--dry-run]
//     (JIRA_EMAIL + JIRA_API_TOKEN for Cloud, or JIRA_PAT for Data Center)
//   npm run import -- jira-xml <export.xml> [--team KEY] [--users people.json] [--dry-run]
//     (the same Jira credentials, when set, let attachments be copied)
// Every source also takes --user-map <file>: the source's people (emails) → accounts here
// (email or id), a JSON object or a two-column CSV (modules/import/user-map.ts).
// Runs as the first active admin (or IMPORT_AS=<admin email>); prints a progress
// line per page and the report as JSON. Run it again to resume or re-check:
// what was imported is not created twice.
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { csvSource } from '../modules/import/csv.js';
import { githubSource } from '../modules/import/github.js';
import { type JiraAuth, jiraSource } from '../modules/import/jira.js';
import { jiraXmlSource, MAX_XML_BYTES } from '../modules/import/jira-xml.js';
import { linearSource } from '../modules/import/linear.js';
import { ImportInputError, type ImportSource } from '../modules/import/model.js';
import { firstActiveAdmin, liveUserByEmail } from '../modules/import/queries.js';
import { runImport } from '../modules/import/runner.js';
import { resolveUserMap } from '../modules/import/service.js';
import { parseUserMapFile, USER_MAP_FILE_MAX_BYTES } from '../modules/import/user-map.js';
import { openDatabase } from '../platform/db/database.js';
import { AppError } from '../platform/errors.js';

const usage = (): never => {
  console.error(
    'usage: npm run import -- linear <server-url> [--dry-run]   (LINEAR_API_KEY holds the key)\n' +
      '       npm run import -- csv <file.csv> <mapping.json> [--dry-run]\n' +
      '       npm run import -- github <owner/repo> [--team KEY] [--users logins.json] [--dry-run]' +
      '   (GITHUB_TOKEN, GITHUB_API_URL)\n' +
      "       npm run import -- jira <site-url> --jql '<query>' [--team KEY] [--dry-run]\n" +
      '         (JIRA_EMAIL and JIRA_API_TOKEN for Jira Cloud, or JIRA_PAT for Data Center)\n' +
      '       npm run import -- jira-xml <export.xml> [--team KEY] [--users people.json] [--dry-run]\n' +
      '         (with Jira credentials set as above, attachments are copied too)\n' +
      '       any of them with --user-map <map.json|map.csv>: source email → email or account id here',
  );
  process.exit(2);
};
const { values: flags, positionals } = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        'dry-run': { type: 'boolean' },
        jql: { type: 'string' },
        team: { type: 'string' },
        users: { type: 'string' },
        'user-map': { type: 'string' },
      },
    });
  } catch (err) {
    console.error((err as Error).message);
    return usage();
  }
})();
const dryRun = flags['dry-run'] ?? false;
const [kind, a, b] = positionals;

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8'));
  } catch (err) {
    throw new ImportInputError(`${file}: ${(err as Error).message}`);
  }
}

async function sourceOf(): Promise<ImportSource> {
  if (kind === 'github' && a) {
    const users = flags.users ? await readJson(flags.users) : undefined;
    if (users !== undefined && (typeof users !== 'object' || users === null || Array.isArray(users)))
      throw new ImportInputError('--users must name a JSON object of login → email');
    return githubSource({
      repo: a,
      token: process.env.GITHUB_TOKEN,
      apiUrl: process.env.GITHUB_API_URL,
      team: flags.team,
      users: users as Record<string, string> | undefined,
    });
  }
  if (kind === 'linear' && a) {
    const apiKey = process.env.LINEAR_API_KEY;
    if (!apiKey) throw new ImportInputError('LINEAR_API_KEY is not set');
    return linearSource({ url: a, apiKey });
  }
  if (kind === 'jira' && a && flags.jql) {
    const { JIRA_EMAIL: email, JIRA_API_TOKEN: apiToken, JIRA_PAT: pat } = process.env;
    const auth: JiraAuth | undefined = pat ? { pat } : email && apiToken ? { email, apiToken } : undefined;
    if (!auth)
      throw new ImportInputError('set JIRA_EMAIL and JIRA_API_TOKEN (Cloud) or JIRA_PAT (Data Center)');
    return jiraSource({ url: a, jql: flags.jql, auth, team: flags.team });
  }
  if (kind === 'jira-xml' && a) {
    const users = flags.users ? await readJson(flags.users) : undefined;
    if (users !== undefined && (typeof users !== 'object' || users === null || Array.isArray(users)))
      throw new ImportInputError('--users must name a JSON object of username or account id → email');
    const { size } = await fs.stat(a);
    if (size > MAX_XML_BYTES) throw new ImportInputError(`${a} is larger than ${MAX_XML_BYTES} bytes`);
    const { JIRA_EMAIL: email, JIRA_API_TOKEN: apiToken, JIRA_PAT: pat } = process.env;
    const authorization = pat
      ? `Bearer ${pat}`
      : email && apiToken
        ? `Basic ${Buffer.from(`${email}:${apiToken}`).toString('base64')}`
        : undefined;
    return jiraXmlSource({
      xml: await fs.readFile(a, 'utf8'),
      team: flags.team,
      users: users as Record<string, string> | undefined,
      authorization,
    });
  }
  if (kind === 'csv' && a && b) {
    return csvSource(path.basename(a), await fs.readFile(a, 'utf8'), await readJson(b));
  }
  return usage();
}

/** The --user-map file, read and checked before anything is opened. */
async function userMapFile(): Promise<Record<string, string> | undefined> {
  const file = flags['user-map'];
  if (file === undefined) return undefined;
  try {
    const { size } = await fs.stat(file);
    if (size > USER_MAP_FILE_MAX_BYTES)
      throw new ImportInputError(`${file} is larger than ${USER_MAP_FILE_MAX_BYTES} bytes`);
    return parseUserMapFile(path.basename(file), await fs.readFile(file, 'utf8'));
  } catch (err) {
    if (err instanceof ImportInputError) throw err;
    throw new ImportInputError(`${file}: ${(err as Error).message}`);
  }
}

let mapFile: Record<string, string> | undefined;
try {
  mapFile = await userMapFile();
} catch (err) {
  console.error(`import failed: ${(err as Error).message}`);
  process.exit(2);
}
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const { app, ctx } = await buildApp({ config, database });
try {
  const email = process.env.IMPORT_AS;
  const admin = email ? await liveUserByEmail(ctx.db, email) : await firstActiveAdmin(ctx.db);
  if (admin?.role !== 'admin') throw new ImportInputError('no active admin to import as (IMPORT_AS)');
  // The same check as REST's userMap: every account named must be live here.
  const userMap = mapFile ? await resolveUserMap(ctx, mapFile) : undefined;
  const report = await runImport(
    ctx,
    { id: admin.id, role: 'admin', name: admin.name, email: admin.email, via: 'session' },
    await sourceOf(),
    {
      dryRun,
      userMap,
      onProgress: (p) =>
        console.log(
          `${p.issues} issues read${p.total ? ` (${p.total.unit === 'page' ? `page ${p.pages} of ${p.total.count}` : `of ${p.total.count}`})` : ''}: ` +
            `${p.counts['issue.created'] ?? 0} ${dryRun ? 'to create' : 'created'}, ` +
            `${p.counts['issue.existing'] ?? 0} already there, ${p.counts['issue.failed'] ?? 0} refused`,
        ),
    },
  );
  console.log(JSON.stringify(report, null, 2));
} catch (err) {
  console.error(`import failed: ${(err as Error).message}`);
  const refused = err instanceof ImportInputError || (err instanceof AppError && err.status === 400);
  process.exitCode = refused ? 2 : 1;
} finally {
  await app.close();
  await database.close();
}

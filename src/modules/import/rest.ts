// REST: imports from another tracker, for admins (docs/migrate.md). POST opens
// a run and answers 202; the import goes on in this process; GET reads runs.
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { PageInfo, pageOf, pageQuery } from '../../platform/http/pagination.js';
import { errors, OneLineText, Uuid } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { FIELDS } from './csv.js';
import { ImportRunSchema, presentRun } from './present.js';
import { getImportRun, listImportRuns, startImport, stopImports } from './service.js';
import { USER_MAP_EMAIL_MAX, USER_MAP_MAX } from './user-map.js';

/** The largest body POST takes: a CSV's text, JSON-escaped. Larger files go through the CLI (50 MB). */
export const IMPORT_BODY_LIMIT = 20 * 1024 * 1024;

const Column = Type.String({ minLength: 1, maxLength: 200 });
const Mapping = Type.Object(
  {
    team: Type.String({
      pattern: '^[A-Za-z][A-Za-z0-9]{0,9}$',
      description: 'The team key every row goes to',
    }),
    teamName: Type.Optional(OneLineText(100)),
    columns: Type.Object(
      Object.fromEntries(FIELDS.map((f) => [f, f === 'title' ? Column : Type.Optional(Column)])),
      { additionalProperties: false, description: "Each field's column in the file; title is required" },
    ),
    labelSeparator: Type.Optional(Type.String({ minLength: 1, maxLength: 10 })),
    states: Type.Optional(
      Type.Record(Type.String({ maxLength: 200 }), Type.String({ minLength: 1, maxLength: 200 }), {
        maxProperties: 500,
        description: 'A state name in the file → a state name of the team, or a state type to create it with',
      }),
    ),
    priorities: Type.Optional(
      Type.Record(Type.String({ maxLength: 200 }), Type.Integer({ minimum: 0, maximum: 4 }), {
        maxProperties: 100,
      }),
    ),
    dateFormat: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: "date-fns tokens, e.g. Jira's dd/MMM/yy h:mm a",
      }),
    ),
    userDomain: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9.-]+$',
        maxLength: 253,
        description: 'People named without an email become <name>@<userDomain>',
      }),
    ),
    commentFormat: Type.Optional(Type.Union([Type.Literal('plain'), Type.Literal('jira')])),
    textFormat: Type.Optional(Type.Union([Type.Literal('markdown'), Type.Literal('jira-wiki')])),
  },
  { additionalProperties: false },
);

/** The dry run's missing people → accounts here (runner.ts RunOptions.userMap). */
const UserMap = Type.Record(
  Type.String({ minLength: 3, maxLength: USER_MAP_EMAIL_MAX, pattern: '@' }),
  Uuid,
  {
    maxProperties: USER_MAP_MAX,
    description:
      "A person's email as the source gives it (the dry run's missingUsers) → the id of an account here that stands for them; anyone left out is matched by email, else gets a placeholder",
  },
);

const StartBody = Type.Union([
  Type.Object(
    {
      source: Type.Literal('linear'),
      url: Type.String({
        minLength: 1,
        maxLength: 2048,
        description: 'The server, e.g. https://api.linear.app',
      }),
      apiKey: Type.String({
        minLength: 1,
        maxLength: 500,
        description: 'An API key of the source; not stored',
      }),
      userMap: Type.Optional(UserMap),
      dryRun: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      source: Type.Literal('csv'),
      csv: Type.String({ minLength: 1, description: 'The file, as text' }),
      mapping: Mapping,
      name: Type.Optional(OneLineText(100)),
      userMap: Type.Optional(UserMap),
      dryRun: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      source: Type.Literal('github'),
      repo: Type.String({ minLength: 3, maxLength: 200, description: 'owner/name' }),
      token: Type.Optional(
        Type.String({ minLength: 1, maxLength: 500, description: 'A GitHub token; not stored' }),
      ),
      apiUrl: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 2048,
          description:
            'The API (default https://api.github.com; GitHub Enterprise Server: https://host/api/v3)',
        }),
      ),
      team: Type.Optional(
        Type.String({
          pattern: '^[A-Za-z][A-Za-z0-9]{0,9}$',
          description: 'The team key (default: from the name)',
        }),
      ),
      users: Type.Optional(
        Type.Record(Type.String({ maxLength: 100 }), Type.String({ format: 'email', maxLength: 320 }), {
          maxProperties: 5000,
          description: "A login's email, for people whose email GitHub does not show",
        }),
      ),
      userMap: Type.Optional(UserMap),
      dryRun: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      source: Type.Literal('jira'),
      url: Type.String({
        minLength: 1,
        maxLength: 2048,
        description: 'The Jira site, e.g. https://acme.atlassian.net, or a Data Center base URL',
      }),
      jql: Type.String({ minLength: 1, maxLength: 10_000, description: 'Which issues, e.g. project = ABC' }),
      email: Type.Optional(
        Type.String({ minLength: 1, maxLength: 320, description: 'Jira Cloud: the account email' }),
      ),
      apiToken: Type.Optional(
        Type.String({ minLength: 1, maxLength: 2000, description: 'Jira Cloud: an API token; not stored' }),
      ),
      pat: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 2000,
          description: 'Data Center / Server: a personal access token; not stored',
        }),
      ),
      team: Type.Optional(
        Type.String({
          pattern: '^[A-Z][A-Z0-9]{0,6}$',
          description: 'Import every issue into this team (its key) instead of a team per Jira project',
        }),
      ),
      userMap: Type.Optional(UserMap),
      dryRun: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      source: Type.Literal('jira-xml'),
      xml: Type.String({
        minLength: 1,
        description: "Jira's XML export (Export, XML): the file's text; attachments stay links to Jira",
      }),
      name: Type.Optional(OneLineText(200)),
      team: Type.Optional(
        Type.String({
          pattern: '^[A-Z][A-Z0-9]{0,6}$',
          description: 'Import every issue into this team (its key) instead of a team per Jira project',
        }),
      ),
      users: Type.Optional(
        Type.Record(Type.String({ maxLength: 200 }), Type.String({ format: 'email', maxLength: 320 }), {
          maxProperties: 5000,
          description: 'A username or account id → email, for people the export names only by id',
        }),
      ),
      userMap: Type.Optional(UserMap),
      dryRun: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  ),
]);

const RunEnvelope = Type.Object({ importRun: ImportRunSchema });

export function importRoutes(app: Http, ctx: AppContext): void {
  app.addHook('onClose', () => stopImports(ctx));

  app.post(
    '/api/admin/imports',
    {
      bodyLimit: IMPORT_BODY_LIMIT,
      schema: {
        tags: ['admin'],
        summary:
          'Start an import (or resume the unfinished one of the same source): 202 with the run, which goes on in the background',
        body: StartBody,
        response: { 202: RunEnvelope, ...errors(400, 401, 403, 409, 413) },
      },
    },
    async (req, reply) => {
      const run = await startImport(ctx, actorOf(req), req.body);
      return reply.status(202).send({ importRun: presentRun(run) });
    },
  );

  app.get(
    '/api/admin/imports',
    {
      schema: {
        tags: ['admin'],
        summary: 'Import runs, newest first',
        querystring: Type.Object(pageQuery(50), { additionalProperties: false }),
        response: {
          200: Type.Object({ importRuns: Type.Array(ImportRunSchema), pageInfo: PageInfo }),
          ...errors(400, 401, 403),
        },
      },
    },
    async (req) => {
      const page = pageOf(req.query, 50);
      const { rows, total } = await listImportRuns(ctx, actorOf(req), page);
      return { importRuns: rows.map(presentRun), pageInfo: { total, ...page } };
    },
  );

  app.get(
    '/api/admin/imports/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'One import run: its status, counts, errors and, once ended, its report',
        params: Type.Object({ id: Uuid }),
        response: { 200: RunEnvelope, ...errors(400, 401, 403, 404) },
      },
    },
    async (req) => ({ importRun: presentRun(await getImportRun(ctx, actorOf(req), req.params.id)) }),
  );
}

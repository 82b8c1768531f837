// The GraphQL endpoint: POST /graphql runs a query, GET /graphql serves
// GraphiQL (built with the web UI). Credentials are checked here rather than by the REST hook:
// GraphQL takes a bare API key or token as well as "Bearer <token or key>",
// and failures must come back in the GraphQL error shape @linear/sdk reads.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { authenticate } from '../modules/auth/service.js';
import { WEB_DIST } from '../modules/ui/serve.js';
import type { Actor, AppContext } from '../platform/context.js';
import { AppError } from '../platform/errors.js';
import { originOf } from '../platform/http/auth-hook.js';
import { INJECTED_STYLES_PAGE } from '../platform/http/security-headers.js';
import type { Http } from '../platform/http/types.js';
import { buildExecutableSchema } from './build-schema.js';
import { formatAppError } from './errors.js';
import { type GraphqlRequest, type GraphqlResponse, runGraphql } from './execute.js';
import { type Budgets, budgetHeaders } from './rate-budget.js';
import { allResolvers } from './resolvers/index.js';

// Built once per process: it is the same for every app (resolvers read the
// request's context), and building its 1,320 types takes about 0.2 s.
let built: ReturnType<typeof buildExecutableSchema> | undefined;
export const graphqlSchema = () => (built ??= buildExecutableSchema(allResolvers));

/** Body errors (bad JSON, too large, not JSON) in the GraphQL error shape, not the REST one. */
function bodyErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  let appError: AppError;
  if (err instanceof AppError) appError = err;
  else if (err.statusCode === 413)
    appError = new AppError(413, 'PAYLOAD_TOO_LARGE', 'Request body is too large (1 MiB at most)');
  else if (err.statusCode === 415)
    appError = new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the request as application/json');
  else if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    appError = new AppError(400, 'BAD_REQUEST', 'Request body is not valid JSON');
  } else {
    request.log.error({ err }, 'graphql request failed');
    appError = new AppError(500, 'INTERNAL', 'Something went wrong on our side; it has been logged');
  }
  return reply.status(appError.status).send({ errors: [formatAppError(appError)] });
}

export async function graphqlRoutes(app: Http, ctx: AppContext, budgets: Budgets): Promise<void> {
  // GraphiQL is built with the web UI (web/graphiql.html); read per request so
  // a rebuild while the server runs is picked up, as the UI's index.html is.
  const graphiqlPage = path.join(WEB_DIST, 'graphiql.html');
  const page = { config: { auth: 'none' as const, helmet: INJECTED_STYLES_PAGE }, schema: { hide: true } };
  app.get('/graphql', page, async (_req, reply) => {
    const html = await fs.readFile(graphiqlPage, 'utf8').catch(() => undefined);
    if (html === undefined) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('GraphiQL is not built. Run `npm run build`, then reload; POST queries work meanwhile.');
    }
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
  });

  app.post(
    '/graphql',
    { config: { auth: 'none' }, schema: { hide: true }, errorHandler: bodyErrors },
    async (request, reply) => {
      let actor: Actor;
      try {
        const origin = originOf(request);
        const caller = await authenticate(ctx, request.headers.authorization, { allowBare: true, origin });
        actor = { ...caller, origin };
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        if (err.retryAfter) reply.header('retry-after', String(err.retryAfter));
        return reply.status(err.status).send({ errors: [formatAppError(err)] });
      }
      // The schema is built on the first request, not with the app: building it
      // is ~0.4 s of CPU that an app serving only REST (most test files) never needs.
      const res: GraphqlResponse = await runGraphql(
        graphqlSchema(),
        ctx,
        actor,
        (request.body ?? {}) as GraphqlRequest,
        budgets.of(actor),
      );
      if (res.cost !== undefined) reply.header('x-complexity', String(res.cost));
      if (res.budget) reply.headers(budgetHeaders(res.budget));
      if (res.retryAfter) reply.header('retry-after', String(res.retryAfter));
      return reply
        .status(res.status)
        .type('application/json; charset=utf-8')
        .send(res.json ?? res.body);
    },
  );
}

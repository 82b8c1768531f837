// The MCP endpoint: Streamable HTTP at /mcp (docs/agents.md). Stateless: each
// POST gets a new server and transport acting as the request's caller, so
// nothing is kept between requests and any instance can answer any of them
// (docs/deploy.md); the SDK answers with JSON, not an event stream, as no
// tool sends progress. GET (a stream of server-initiated messages) and
// DELETE (ending a session) have nothing to serve without sessions: 405, as
// the transport specification allows.
//
// Authentication is the app's one auth hook (platform/http/auth-hook.ts): an
// API key, a login token or an OAuth access token (modules/oauth), whose
// scopes each tool call checks. A request without a credential is 401 with a
// Bearer challenge (RFC 6750, asked for by MCP's authorization specification)
// whose resource_metadata names the protected-resource metadata (RFC 9728),
// where an MCP client starts the OAuth flow. The request budget,
// database-time budget and body limits are every route's.
import type { FastifyReply } from 'fastify';
import type { Actor, AppContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import type { RequestBudget } from '../../platform/http/request-budget.js';
import type { Http } from '../../platform/http/types.js';

export const MCP_PATH = '/mcp';

/**
 * The MCP server and its transport, loaded by the first request to /mcp: the SDK and zod are
 * about 8 MB of heap that a server no assistant talks to never needs (docs/benchmarks.md,
 * "Issue 25, fourth stop").
 */
const mcpModules = () =>
  Promise.all([import('./server.js'), import('@modelcontextprotocol/sdk/server/streamableHttp.js')]);

/** The challenge of a 401 on /mcp, naming where the OAuth flow starts. */
const challengeOf = (publicUrl: string) =>
  `Bearer realm="trackway", resource_metadata="${publicUrl}/.well-known/oauth-protected-resource/mcp"`;

const noSessions = () =>
  new AppError(405, 'BAD_REQUEST', 'This MCP endpoint is stateless: send JSON-RPC messages with POST');

export function mcpRoutes(app: Http, ctx: AppContext, budgetOf: (actor: Actor) => RequestBudget): void {
  const common = {
    schema: { hide: true },
    config: { scopes: 'per-operation' },
    onSend: async (_req: unknown, reply: FastifyReply) => {
      // Read when answering, as the metadata documents read it: the same URL in both.
      if (reply.statusCode === 401) reply.header('www-authenticate', challengeOf(ctx.config.publicUrl));
    },
  } as const;

  app.post(MCP_PATH, common, async (req, reply) => {
    const actor = actorOf(req);
    const [{ mcpServer }, { StreamableHTTPServerTransport }] = await mcpModules();
    const server = mcpServer(ctx, actor, budgetOf(actor));
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    // The headers the hooks set so far (security, request budget, request id) go out with the answer.
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) reply.raw.setHeader(name, value as string | string[]);
    }
    reply.raw.setHeader('x-request-id', req.id);
    reply.hijack();
    reply.raw.once('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req.raw, reply.raw, req.body);
    } catch (err) {
      ctx.log.error({ err, reqId: req.id }, 'MCP request failed');
      if (!reply.raw.headersSent) reply.raw.writeHead(500, { 'content-type': 'application/json' });
      reply.raw.end(
        JSON.stringify(new AppError(500, 'INTERNAL', 'Something went wrong on our side').toJSON()),
      );
    }
  });

  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: MCP_PATH,
      ...common,
      handler: async (_req, reply) => {
        reply.header('allow', 'POST');
        throw noSessions();
      },
    });
  }
}

// One MCP server per request (stateless Streamable HTTP, rest.ts), acting as
// the request's caller. The low-level Server of the official SDK, not
// McpServer: McpServer takes zod shapes, and our input schemas are TypeBox
// declarations shared with REST (tools.ts), sent as the JSON Schema they are
// and checked with the same Ajv as REST bodies. A tool refusal (bad input,
// no access, a name that matches nothing) is a tool result with isError and
// a message that says what to try; the transaction of a refused write rolled
// back, so it changed nothing.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Actor, AppContext } from '../../platform/context.js';
import { isDataException } from '../../platform/db/errors.js';
import { AppError } from '../../platform/errors.js';
import { REST_RECORD_PRICE, type RequestBudget } from '../../platform/http/request-budget.js';
import { issueEntity } from '../../platform/list/entities.js';
import { filterPrice, searchPrice } from '../../platform/list/price.js';
import { checkInput } from '../issues/inputs.js';
import { assertScope, toolAction } from '../oauth/scopes.js';
import { Lookup, ToolError } from './lookup.js';
import { issueDetail, projectDetail, TOOLS, type ToolCall } from './tools.js';

const INSTRUCTIONS = `Trackway is a work tracker. Issues belong to teams and are named by the team's key and a number (ENG-123); every tool takes that identifier or the id. States, people, labels, projects, cycles and milestones are given by name ("In Review", "ana@example.com" or "me", "Bug"); list_* tools show the names there are. You see and change only what your account may.`;

/** Formats a tool may publish as they are; ours (one-line text) stay in the server's check. */
const STANDARD_FORMATS = new Set(['date', 'date-time', 'uuid', 'email', 'uri']);

/** The input schema as JSON Schema for the tool list: TypeBox's own, without formats other clients do not know. */
function published(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(published);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'format' && typeof v === 'string' && !STANDARD_FORMATS.has(v)) continue;
    out[k] = published(v);
  }
  return out;
}

const toolList = TOOLS.map((t) => ({
  name: t.name,
  title: t.title,
  description: t.description,
  inputSchema: published(t.input) as { type: 'object' },
  annotations: {
    readOnlyHint: t.readOnly,
    destructiveHint: false,
    idempotentHint: t.readOnly,
    openWorldHint: false,
  },
}));
const byName = new Map(TOOLS.map((t) => [t.name, t]));

const NEXT_STEP: Partial<Record<AppError['code'], string>> = {
  NOT_FOUND: 'Check the identifier (e.g. ENG-123) with search_issues, or the name with the list_* tools.',
  FORBIDDEN: 'Your role or team access does not allow this; ask a workspace admin.',
  INSUFFICIENT_SCOPE: 'Authorize the app again with the scope named.',
  FEATURE_DISABLED: 'An admin can turn the feature on in the workspace settings.',
  RATE_LIMITED: 'Wait before the next call.',
  QUERY_TOO_COMPLEX: 'Ask for fewer records (limit) or fewer filters.',
  QUERY_TOO_EXPENSIVE: 'Narrow the search (team, state, assignee) and try again.',
};

/** What the model reads when a call is refused. */
export function refusalText(err: AppError): string {
  const details = err.details?.map((d) => `${d.field.replace(/^\//, '') || 'input'} ${d.message}`) ?? [];
  const message =
    err.code === 'VALIDATION_FAILED' && details.length
      ? `Invalid arguments: ${details.join('; ')}.`
      : err.message;
  const retry = err.retryAfter ? ` Retry in ${err.retryAfter} s.` : '';
  const next = NEXT_STEP[err.code];
  return `${message.replace(/\.?$/, '.')}${retry}${next ? ` ${next}` : ''}`;
}

const INTERNAL = 'Something went wrong on our side; it has been logged. Try again later.';

const toolError = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

function failure(ctx: AppContext, err: unknown): CallToolResult {
  if (err instanceof ToolError) return toolError(err.message);
  if (err instanceof AppError) return toolError(refusalText(err));
  if (isDataException(err))
    return toolError('A value in the arguments is not acceptable; check ids and dates.');
  ctx.log.error({ err }, 'MCP tool failed');
  return toolError(INTERNAL);
}

const ISSUE_URI = /^trackway:\/\/issue\/([^/?#]{1,100})$/;
const PROJECT_URI = /^trackway:\/\/project\/([^/?#]{1,100})$/;

export function mcpServer(ctx: AppContext, actor: Actor, budget: RequestBudget): Server {
  const server = new Server(
    { name: 'trackway', title: 'Trackway', version: '1.0.0' },
    { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS },
  );
  const call = (): ToolCall => ({
    ctx,
    actor,
    lookup: new Lookup(ctx, actor),
    // What REST's list of the same size and filter costs beyond its request (request-budget.ts restPrice).
    async charge(records, query = {}) {
      let price = records * REST_RECORD_PRICE;
      if (query.filter !== undefined) price += filterPrice(issueEntity, query.filter);
      if (query.q) price += searchPrice(query.q);
      await budget.charge(actor.id, Math.round(price * 10) / 10);
    },
  });

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      return toolError(
        `No tool named '${request.params.name}'; tools are: ${TOOLS.map((t) => t.name).join(', ')}.`,
      );
    }
    const args = request.params.arguments ?? {};
    try {
      assertScope(actor, toolAction(tool));
      checkInput(tool.input, args);
      const result = await tool.run(call(), args);
      return { content: [{ type: 'text', text: JSON.stringify(result) }] };
    } catch (err) {
      return failure(ctx, err);
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [] }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      {
        uriTemplate: 'trackway://issue/{identifier}',
        name: 'issue',
        title: 'Issue',
        description: 'An issue with its comments, relations and sub-issues, e.g. trackway://issue/ENG-123',
        mimeType: 'application/json',
      },
      {
        uriTemplate: 'trackway://project/{id}',
        name: 'project',
        title: 'Project',
        description: 'A project with its status, progress and milestones (id from list_projects)',
        mimeType: 'application/json',
      },
    ],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    const issue = ISSUE_URI.exec(uri);
    const project = PROJECT_URI.exec(uri);
    if (!issue && !project) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown resource ${uri}: use trackway://issue/ENG-123 or trackway://project/<id>`,
      );
    }
    try {
      assertScope(actor, { kind: 'read' });
      const ref = decodeURIComponent((issue ?? project)![1]!);
      const body = issue ? await issueDetail(call(), ref) : await projectDetail(call(), ref);
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(body) }] };
    } catch (err) {
      // Resource not found (-32002) as the MCP specification names it; other refusals alike, with their text.
      if (err instanceof AppError)
        throw new McpError(err.status === 404 ? -32002 : ErrorCode.InvalidParams, refusalText(err));
      if (err instanceof URIError || isDataException(err))
        throw new McpError(ErrorCode.InvalidParams, `Not a resource: ${uri}`);
      throw err;
    }
  });

  return server;
}

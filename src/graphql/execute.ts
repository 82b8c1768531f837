// Runs one GraphQL request for an authenticated caller: parse, validate,
// measure cost and depth, charge the caller's budget, execute.
import {
  type DocumentNode,
  execute,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  getOperationAST,
  Kind,
  parse,
  specifiedRules,
  validate,
} from 'graphql';
import type { Actor, AppContext } from '../platform/context.js';
import { AppError } from '../platform/errors.js';
import { createGqlContext } from './context.js';
import { assertWithinLimits, measure } from './cost.js';
import { formatAppError, formatError, type GraphqlErrorBody } from './errors.js';
import type { BudgetState, RateBudget } from './rate-budget.js';

export interface GraphqlRequest {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

export interface GraphqlResponse {
  status: number;
  body: { data?: unknown; errors?: GraphqlErrorBody[] };
  cost?: number;
  budget?: BudgetState;
  retryAfter?: number;
}

const fail = (err: AppError, extra: Partial<GraphqlResponse> = {}): GraphqlResponse => ({
  status: err.status,
  body: { errors: [formatAppError(err)] },
  ...(err.retryAfter ? { retryAfter: err.retryAfter } : {}),
  ...extra,
});

// Clients send the same few documents over and over (@linear/sdk's are large),
// so a document that parsed and validated once is kept, by its exact text.
// Validation depends only on the document and the schema, which is fixed for
// the process; cost depends on variables and is measured on every request.
const MAX_CACHED_DOCUMENTS = 500;
const MAX_CACHED_QUERY_LENGTH = 100_000;
const validDocuments = new Map<string, DocumentNode>();

function rememberValid(query: string, document: DocumentNode): void {
  if (query.length > MAX_CACHED_QUERY_LENGTH) return;
  if (validDocuments.size >= MAX_CACHED_DOCUMENTS) {
    validDocuments.delete(validDocuments.keys().next().value as string);
  }
  validDocuments.set(query, document);
}

export async function runGraphql(
  schema: GraphQLSchema,
  app: AppContext,
  actor: Actor,
  req: GraphqlRequest,
  budget?: RateBudget,
): Promise<GraphqlResponse> {
  if (typeof req.query !== 'string' || req.query.trim() === '') {
    return fail(new AppError(400, 'BAD_REQUEST', 'Send a JSON body with a "query" string'));
  }
  if (req.variables != null && (typeof req.variables !== 'object' || Array.isArray(req.variables))) {
    return fail(new AppError(400, 'BAD_REQUEST', '"variables" must be an object'));
  }
  if (req.operationName != null && typeof req.operationName !== 'string') {
    return fail(new AppError(400, 'BAD_REQUEST', '"operationName" must be a string'));
  }
  const variables = (req.variables ?? {}) as Record<string, unknown>;
  const operationName = (req.operationName as string | undefined) ?? undefined;
  const log = (err: unknown) => app.log.error({ err }, 'graphql resolver failed');

  let document = validDocuments.get(req.query);
  if (document) {
    // Refresh its place in the insertion order: the map evicts the oldest first.
    validDocuments.delete(req.query);
    validDocuments.set(req.query, document);
  } else {
    try {
      document = parse(req.query, { maxTokens: 20_000 });
    } catch (err) {
      return { status: 400, body: { errors: [formatError(err as never, log)] } };
    }
    const errors = validate(schema, document, specifiedRules);
    if (errors.length > 0) return { status: 400, body: { errors: errors.map((e) => formatError(e, log)) } };
    rememberValid(req.query, document);
  }
  const op = getOperationAST(document, operationName);
  if (!op) return fail(new AppError(400, 'BAD_REQUEST', 'Name the operation to run (operationName)'));
  if (op.operation === 'subscription')
    return fail(new AppError(400, 'BAD_REQUEST', 'Subscriptions are not supported'));

  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
  const m = measure(schema, op, fragments, variables);
  let state: BudgetState | undefined;
  try {
    assertWithinLimits(m);
    state = budget?.charge(actor.id, m.cost);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const over = (err as AppError & { budget?: BudgetState }).budget;
    return fail(err, { cost: m.cost, ...(over ? { budget: over } : {}) });
  }

  const result = await execute({
    schema,
    document,
    variableValues: variables,
    operationName,
    contextValue: createGqlContext(app, actor),
  });
  const body: GraphqlResponse['body'] = { data: result.data ?? null };
  if (result.errors?.length) body.errors = result.errors.map((e) => formatError(e, log));
  // Variable coercion failures come back without data: the request was invalid.
  const status = result.data === undefined && body.errors ? 400 : 200;
  return { status, body, cost: m.cost, ...(state ? { budget: state } : {}) };
}
